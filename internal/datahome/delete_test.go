package datahome_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/internal/datahome"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

func layout(t *testing.T) storage.ProjectPaths {
	t.Helper()
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: "/srv/app", Storage: storage.Options{Home: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// seed writes a session with a log, an archive note and tasks in its
// private list, and returns the checkpointer.
func seed(t *testing.T, p storage.ProjectPaths, id string) *session.FileCheckpointer {
	t.Helper()
	ctx := t.Context()
	cp, err := session.NewFileCheckpointer(p.SessionsDir, session.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cp.Append(ctx, id, seedEvents(), session.AnyHead); err != nil {
		t.Fatal(err)
	}
	a, err := archive.NewFileArchive(storage.SessionContextDir(p.SessionsDir, id), archive.Options{SessionID: id})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Put(ctx, "archived "+id, nil); err != nil {
		t.Fatal(err)
	}
	ts, err := task.NewFileStore(p.TasksDir, id, storage.Encoding{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ts.Create(ctx, task.CreateInput{Subject: "t"}); err != nil {
		t.Fatal(err)
	}
	return cp
}

func seedEvents() []session.Event {
	return []session.Event{session.UserEvent{Message: model.UserText("hi")}}
}

func exists(t *testing.T, p string) bool {
	t.Helper()
	_, err := os.Lstat(p)
	return err == nil
}

func TestDeleteSessionRemovesLogArchiveAndPrivateList(t *testing.T) {
	p := layout(t)
	cp := seed(t, p, "a")
	seed(t, p, "b")
	shared, err := task.NewFileStore(p.TasksDir, "shared", storage.Encoding{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := shared.Create(t.Context(), task.CreateInput{Subject: "s"}); err != nil {
		t.Fatal(err)
	}
	if _, err := datahome.DeleteSession(t.Context(), p, cp, "a", datahome.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{
		filepath.Join(p.SessionsDir, "a.jsonl"),
		filepath.Join(p.SessionsDir, "a.context"),
		filepath.Join(p.TasksDir, "a"),
	} {
		if exists(t, gone) {
			t.Errorf("%s survived", gone)
		}
	}
	for _, kept := range []string{
		filepath.Join(p.SessionsDir, "b.jsonl"),
		filepath.Join(p.SessionsDir, "b.context"),
		filepath.Join(p.TasksDir, "b"),
		filepath.Join(p.TasksDir, "shared"),
	} {
		if !exists(t, kept) {
			t.Errorf("%s was removed", kept)
		}
	}
	// No lock directories are left behind.
	for _, dir := range []string{p.SessionsDir, p.TasksDir} {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if filepath.Ext(e.Name()) == ".lock" {
				t.Errorf("lock left: %s", e.Name())
			}
		}
	}
}

func TestDeleteSessionKeepsTheSharedList(t *testing.T) {
	p := layout(t)
	cp := seed(t, p, "a")
	if _, err := datahome.DeleteSession(t.Context(), p, cp, "a", datahome.DeleteOptions{SharedTaskList: "team"}); err != nil {
		t.Fatal(err)
	}
	if !exists(t, filepath.Join(p.TasksDir, "a")) {
		t.Error("with a shared list, no task list is removed")
	}
	if exists(t, filepath.Join(p.SessionsDir, "a.context")) {
		t.Error("archive survived")
	}
}

func TestDeleteUnknownSessionCreatesNothing(t *testing.T) {
	p := layout(t)
	cp := session.NewMemoryCheckpointer()
	_, err := datahome.DeleteSession(t.Context(), p, cp, "ghost", datahome.DeleteOptions{})
	var nf *session.NotFoundError
	if !errors.As(err, &nf) || nf.SessionID != "ghost" {
		t.Fatalf("DeleteSession of an unknown session = %v, want a *session.NotFoundError", err)
	}
	if exists(t, filepath.Join(p.Home, "projects")) {
		t.Error("deleting created directories")
	}
}

func TestDeleteRefusesASymlinkedArchive(t *testing.T) {
	p := layout(t)
	cp := seed(t, p, "a")
	decoy := t.TempDir()
	if err := os.WriteFile(filepath.Join(decoy, "keep"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctxDir := filepath.Join(p.SessionsDir, "a.context")
	if err := os.RemoveAll(ctxDir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(decoy, ctxDir); err != nil {
		t.Fatal(err)
	}
	if _, err := datahome.DeleteSession(t.Context(), p, cp, "a", datahome.DeleteOptions{}); err == nil {
		t.Error("a symlinked archive was accepted")
	}
	if !exists(t, filepath.Join(decoy, "keep")) {
		t.Error("the decoy was touched")
	}
}
