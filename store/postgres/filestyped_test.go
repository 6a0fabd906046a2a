package postgres_test

import (
	"errors"
	"testing"

	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// ImportFiles and ExportFiles given the paths of another project are
// refused with a *postgres.ConfigError, before anything is read or
// written: the error was a bare string.
func TestCopiesOfAnotherProjectsFilesAreTyped(t *testing.T) {
	paths, _, _ := filesProject(t)
	p := project(t, storage.Encoding{Namespace: paths.Namespace, ProjectID: "not-" + paths.Hash})
	var ce *postgres.ConfigError
	if _, err := p.ImportFiles(t.Context(), paths); !errors.As(err, &ce) {
		t.Errorf("ImportFiles = %v (%T); want a *postgres.ConfigError", err, err)
	}
	if _, err := p.ExportFiles(t.Context(), paths); !errors.As(err, &ce) {
		t.Errorf("ExportFiles = %v (%T); want a *postgres.ConfigError", err, err)
	}
}

// An import whose verification cannot read a spilled body back (its
// connection lost) fails with the database's error wrapped: it was
// flattened into the message (%v), and errors.As found no
// *postgres.DatabaseError.
func TestAnImportsVerificationKeepsTheDatabasesError(t *testing.T) {
	paths, enc, _ := filesProject(t)
	fsp, err := spill.NewFileStore(paths.SpillDir, enc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fsp.Put(t.Context(), "a spilled body"); err != nil {
		t.Fatal(err)
	}
	proxy, st := openProxied(t, postgres.Options{})
	p, err := st.Project(enc)
	if err != nil {
		t.Fatal(err)
	}
	// The one statement that reads a body by its ref: the verification's.
	proxy.DropRequest([]byte("AND ref = $3"))
	_, err = p.ImportFiles(t.Context(), paths)
	var de *postgres.DatabaseError
	if !errors.As(err, &de) {
		t.Errorf("ImportFiles = %v; want it to wrap a *postgres.DatabaseError", err)
	}
}
