package migration

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// TestFromStoreRefusesAProjectThatIsNotEmpty: the check comes before the
// database is opened, and the files already there stay.
func TestFromStoreRefusesAProjectThatIsNotEmpty(t *testing.T) {
	home := t.TempDir()
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: "/srv/app", Storage: storage.Options{Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(paths.ProjectDir(), "keep")
	if err := os.MkdirAll(paths.ProjectDir(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keep, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = FromStore(context.Background(), "postgres://127.0.0.1:1/none", nil, paths)
	if err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("FromStore into a project that is not empty: %v", err)
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "x" {
		t.Errorf("the file already there: %q, %v", b, err)
	}
}

// dbProject returns the test database's URL, the paths of a new data home
// and project directory, and the database's project of those paths,
// cleared when the test ends.
func dbProject(t *testing.T) (string, storage.ProjectPaths, *postgres.Project) {
	t.Helper()
	url := pgtest.URL(t)
	paths, p := dbProjectAt(t, url)
	return url, paths, p
}

// dbProjectAt is dbProject for the database dsn names (a URL or a
// keyword/value string): the paths of a new data home and project
// directory, and the database's project of those paths, cleared when the
// test ends, before the store is closed.
func dbProjectAt(t *testing.T, dsn string) (storage.ProjectPaths, *postgres.Project) {
	t.Helper()
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: t.TempDir(), Storage: storage.Options{Home: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	st, err := postgres.Open(t.Context(), dsn, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	p, err := st.Project(storage.Encoding{Namespace: paths.Namespace, ProjectID: paths.Hash})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Clear(context.Background()) })
	return paths, p
}

// appendSessionA appends the one record of session "a" the --from-store
// tests copy ("from the database") to p.
func appendSessionA(t *testing.T, p *postgres.Project) {
	t.Helper()
	if _, err := p.Checkpointer().Append(t.Context(), "a", []session.Event{session.UserEvent{Message: model.UserText("from the database")}}, session.AnyHead); err != nil {
		t.Fatal(err)
	}
}

// anchor anchors the existing directory dir.
func anchor(t *testing.T, dir string) *safefs.Dir {
	t.Helper()
	d, err := safefs.AnchorExisting(dir)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
