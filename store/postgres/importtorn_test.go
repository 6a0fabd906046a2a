package postgres_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestImportFilesLeavesATornArchiveIndexTailOut imports a data home whose
// context archive index ends with a torn tail (a put killed while
// appending) and holds a torn tail a put set aside: the complete lines are
// imported and verified, the torn bytes stay behind, as a session log's.
func TestImportFilesLeavesATornArchiveIndexTailOut(t *testing.T) {
	ctx := context.Background()
	paths, enc, ctxDir := homeWithOneSession(t)
	ar, err := archive.NewFileArchive(ctxDir, archive.Options{Encoding: enc, SessionID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"one", "two"} {
		if _, err := ar.Put(ctx, c, nil); err != nil {
			t.Fatal(err)
		}
	}
	index := filepath.Join(ctxDir, archive.IndexFile)
	f, err := os.OpenFile(index, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"ref":"` + strings.Repeat("0", 30))
	f.Close()
	if err := os.WriteFile(filepath.Join(ctxDir, archive.TornPrefix+"1753185600000"), []byte("older"), 0o600); err != nil {
		t.Fatal(err)
	}

	p := project(t, enc)
	rep, err := p.ImportFiles(ctx, paths)
	if err != nil {
		t.Fatalf("ImportFiles: %v", err)
	}
	if rep.Archives != 1 || !rep.Verified {
		t.Errorf("report %+v", rep)
	}
	entries, err := p.ArchiveEntries(ctx, "s1")
	if err != nil || len(entries) != 2 || entries[0].Content != "one" || entries[1].Content != "two" {
		t.Errorf("imported entries %+v, %v", entries, err)
	}
}

// homeWithOneSession makes a data home for the project /srv/app holding
// session s1 with one event, and returns its paths, its encoding and the
// session's context archive directory (not yet made).
func homeWithOneSession(t *testing.T) (storage.ProjectPaths, storage.Encoding, string) {
	t.Helper()
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: "/srv/app", Storage: storage.Options{Home: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	enc := storage.Encoding{Namespace: paths.Namespace, ProjectID: paths.Hash}
	cp, err := session.NewFileCheckpointer(paths.SessionsDir, session.FileOptions{Encoding: enc})
	if err != nil {
		t.Fatal(err)
	}
	ev := session.UserEvent{Message: model.Message{Role: model.RoleUser, Text: "hello"}}
	if _, err := cp.Append(t.Context(), "s1", []session.Event{ev}, 0); err != nil {
		t.Fatal(err)
	}
	return paths, enc, storage.SessionContextDir(paths.SessionsDir, "s1")
}
