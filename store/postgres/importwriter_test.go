package postgres_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// ImportFiles checks that the project is empty in the database, then
// copies; an agent of the project using the database may write meanwhile
// (here: its session "z" and a spilled body, right after the check). The
// copy then fails (the files' session "z" exists now: nothing is merged),
// and its clean-up must delete what the copy inserted, not the agent's
// session and body with the rest of the project.
func TestFailedImportKeepsAnAgentsRecords(t *testing.T) {
	ctx := t.Context()
	paths, enc, files := filesProject(t)
	for _, id := range []string{"a", "z"} {
		if _, err := files.Append(ctx, id, []session.Event{session.UserEvent{Message: model.UserText("from the files " + id)}}, session.AnyHead); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(paths.SessionsDir, "a"+session.LogSuffix)); err != nil {
		t.Fatal(err)
	}
	p := project(t, enc)
	var ref string
	postgres.SetImportChecked(p, func() {
		if _, err := p.Checkpointer().Append(ctx, "z", []session.Event{session.UserEvent{Message: model.UserText("the agent's")}}, session.AnyHead); err != nil {
			t.Fatal(err)
		}
		var err error
		if ref, err = p.Spill().Put(ctx, "the agent's body"); err != nil {
			t.Fatal(err)
		}
	})
	if _, err := p.ImportFiles(ctx, paths); err == nil {
		t.Fatal("the import over the agent's session succeeded")
	} else {
		t.Logf("ImportFiles: %v", err)
	}
	evs, err := p.Checkpointer().Read(ctx, "z", 0)
	if err != nil || len(evs) != 1 || evs[0].Event.(session.UserEvent).Message.PlainText() != "the agent's" {
		t.Errorf("the agent's session after the failed import: %+v %v", evs, err)
	}
	if body, ok, err := p.Spill().Get(ctx, ref); err != nil || !ok || body != "the agent's body" {
		t.Errorf("the agent's spilled body after the failed import: %q %v %v", body, ok, err)
	}
	if evs, err := p.Checkpointer().Read(ctx, "a", 0); err != nil || len(evs) != 0 {
		t.Errorf("the failed import left session a: %d events, %v", len(evs), err)
	}
}

// filesProject returns the paths and encoding of a new plaintext project in
// a new home, and a session store of its files.
func filesProject(t *testing.T) (storage.ProjectPaths, storage.Encoding, *session.FileCheckpointer) {
	t.Helper()
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: t.TempDir(), Storage: storage.Options{Home: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	enc := storage.Encoding{Namespace: paths.Namespace, ProjectID: paths.Hash}
	files, err := session.NewFileCheckpointer(paths.SessionsDir, session.FileOptions{Encoding: enc})
	if err != nil {
		t.Fatal(err)
	}
	return paths, enc, files
}
