package liteagent_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

func dataLayout(t *testing.T) storage.ProjectPaths {
	t.Helper()
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: "/srv/app", Storage: storage.Options{Home: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// seed writes a session with a log, an archive note and tasks in its
// private list, and returns the checkpointer.
func seedData(t *testing.T, p storage.ProjectPaths, id string) *session.FileCheckpointer {
	t.Helper()
	ctx := t.Context()
	cp, err := session.NewFileCheckpointer(p.SessionsDir, session.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cp.Append(ctx, id, dataEvents(), session.AnyHead); err != nil {
		t.Fatal(err)
	}
	a, err := archive.NewFileArchive(p.ArchiveDir(id), archive.Options{SessionID: id})
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

func dataEvents() []session.Event {
	return []session.Event{session.UserEvent{Message: model.UserText("hi")}}
}

func pathExists(t *testing.T, p string) bool {
	t.Helper()
	_, err := os.Lstat(p)
	return err == nil
}

func TestDeleteSessionDataRemovesLogArchiveAndPrivateList(t *testing.T) {
	p := dataLayout(t)
	cp := seedData(t, p, "a")
	seedData(t, p, "b")
	shared, err := task.NewFileStore(p.TasksDir, "shared", storage.Encoding{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := shared.Create(t.Context(), task.CreateInput{Subject: "s"}); err != nil {
		t.Fatal(err)
	}
	if _, err := liteagent.DeleteSessionData(t.Context(), p, cp, "a", liteagent.DeleteDataOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{
		filepath.Join(p.SessionsDir, "a.jsonl"),
		filepath.Join(p.SessionsDir, "a.context"),
		filepath.Join(p.TasksDir, "a"),
	} {
		if pathExists(t, gone) {
			t.Errorf("%s survived", gone)
		}
	}
	for _, kept := range []string{
		filepath.Join(p.SessionsDir, "b.jsonl"),
		filepath.Join(p.SessionsDir, "b.context"),
		filepath.Join(p.TasksDir, "b"),
		filepath.Join(p.TasksDir, "shared"),
	} {
		if !pathExists(t, kept) {
			t.Errorf("%s was removed", kept)
		}
	}
	// No lock directories are left behind (the parked one is no lock).
	for _, dir := range []string{p.SessionsDir, p.TasksDir} {
		for _, name := range dirNames(t, dir) {
			if filepath.Ext(name) == ".lock" {
				t.Errorf("lock left: %s", name)
			}
		}
	}
}

func TestDeleteSessionDataKeepsTheSharedList(t *testing.T) {
	p := dataLayout(t)
	cp := seedData(t, p, "a")
	if _, err := liteagent.DeleteSessionData(t.Context(), p, cp, "a", liteagent.DeleteDataOptions{SharedTaskList: "team"}); err != nil {
		t.Fatal(err)
	}
	if !pathExists(t, filepath.Join(p.TasksDir, "a")) {
		t.Error("with a shared list, no task list is removed")
	}
	if pathExists(t, filepath.Join(p.SessionsDir, "a.context")) {
		t.Error("archive survived")
	}
}

func TestDeleteSessionDataUnknownSessionCreatesNothing(t *testing.T) {
	p := dataLayout(t)
	cp := session.NewMemoryCheckpointer()
	_, err := liteagent.DeleteSessionData(t.Context(), p, cp, "ghost", liteagent.DeleteDataOptions{})
	var nf *session.NotFoundError
	if !errors.As(err, &nf) || nf.SessionID != "ghost" {
		t.Fatalf("DeleteSession of an unknown session = %v, want a *session.NotFoundError", err)
	}
	if pathExists(t, filepath.Join(p.Home, "projects")) {
		t.Error("deleting created directories")
	}
}

func TestDeleteSessionDataRefusesASymlinkedArchive(t *testing.T) {
	p := dataLayout(t)
	cp := seedData(t, p, "a")
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
	if _, err := liteagent.DeleteSessionData(t.Context(), p, cp, "a", liteagent.DeleteDataOptions{}); err == nil {
		t.Error("a symlinked archive was accepted")
	}
	if !pathExists(t, filepath.Join(decoy, "keep")) {
		t.Error("the decoy was touched")
	}
}

// write creates the file rel under the project's sessions or tasks
// directory (rel starts with "sessions/" or "tasks/").
func writeData(t *testing.T, p storage.ProjectPaths, rel string) {
	t.Helper()
	path := filepath.Join(p.ProjectDir(), rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestDeleteSessionDataDeletesWhatExists(t *testing.T) {
	tests := []struct {
		name     string
		build    func(t *testing.T, p storage.ProjectPaths) // session "a" with seed, unless "none"
		opts     liteagent.DeleteDataOptions
		notFound bool
		gone     []string // relative to the project directory
		kept     []string
	}{
		{
			name: "log archive list and set-aside copies",
			build: func(t *testing.T, p storage.ProjectPaths) {
				seedData(t, p, "a")
				writeData(t, p, "sessions/a.jsonl.broken-1700000000000")
				writeData(t, p, "sessions/a.jsonl.torn-1700000000001")
			},
			gone: []string{"sessions/a.jsonl", "sessions/a.context", "tasks/a", "sessions/a.jsonl.broken-1700000000000", "sessions/a.jsonl.torn-1700000000001"},
		},
		{
			name: "copies of other sessions stay",
			build: func(t *testing.T, p storage.ProjectPaths) {
				seedData(t, p, "a")
				writeData(t, p, "sessions/ab.jsonl.broken-1")
				writeData(t, p, "sessions/a.jsonl.broken-x")
				writeData(t, p, "sessions/a.jsonl.bak")
			},
			gone: []string{"sessions/a.jsonl"},
			kept: []string{"sessions/ab.jsonl.broken-1", "sessions/a.jsonl.broken-x", "sessions/a.jsonl.bak"},
		},
		{
			name:     "unknown session keeps a list named like it",
			build:    func(t *testing.T, p storage.ProjectPaths) { writeData(t, p, "tasks/a/1.json") },
			notFound: true,
			kept:     []string{"tasks/a/1.json"},
		},
		{
			name:     "nothing at all",
			build:    func(t *testing.T, p storage.ProjectPaths) {},
			notFound: true,
		},
		{
			name: "a list marked shared survives",
			build: func(t *testing.T, p storage.ProjectPaths) {
				seedData(t, p, "a")
				st, err := task.NewFileStore(p.TasksDir, "a", storage.Encoding{})
				if err != nil {
					t.Fatal(err)
				}
				if err := st.MarkShared(); err != nil {
					t.Fatal(err)
				}
			},
			gone: []string{"sessions/a.jsonl", "sessions/a.context"},
			kept: []string{"tasks/a/1.json", "tasks/a/" + task.SharedMarker},
		},
		{
			name: "only a set-aside copy is left",
			build: func(t *testing.T, p storage.ProjectPaths) {
				writeData(t, p, "sessions/a.jsonl.torn-5")
				writeData(t, p, "tasks/a/1.json")
			},
			gone: []string{"sessions/a.jsonl.torn-5", "tasks/a"},
		},
		{
			name: "dry run",
			build: func(t *testing.T, p storage.ProjectPaths) {
				seedData(t, p, "a")
				writeData(t, p, "sessions/a.jsonl.broken-2")
			},
			opts: liteagent.DeleteDataOptions{DryRun: true},
			kept: []string{"sessions/a.jsonl", "sessions/a.context", "tasks/a", "sessions/a.jsonl.broken-2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := dataLayout(t)
			tt.build(t, p)
			if err := os.MkdirAll(p.SessionsDir, 0o700); err != nil {
				t.Fatal(err)
			}
			cp, err := session.NewFileCheckpointer(p.SessionsDir, session.FileOptions{})
			if err != nil {
				t.Fatal(err)
			}
			before := treeOf(t, p.ProjectDir())
			got, err := liteagent.DeleteSessionData(t.Context(), p, cp, "a", tt.opts)
			if tt.notFound {
				if !errors.Is(err, session.ErrNotFound) {
					t.Fatalf("err = %v, want ErrNotFound", err)
				}
				if after := treeOf(t, p.ProjectDir()); !slices.Equal(before, after) {
					t.Errorf("a failed delete changed the project:\n before %q\n after  %q", before, after)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			root := p.ProjectDir()
			for _, rel := range tt.gone {
				if pathExists(t, filepath.Join(root, rel)) {
					t.Errorf("%s survived", rel)
				}
				if !slices.Contains(got, filepath.Join(root, rel)) {
					t.Errorf("%s is not in the returned list %q", rel, got)
				}
			}
			for _, rel := range tt.kept {
				if !pathExists(t, filepath.Join(root, rel)) {
					t.Errorf("%s was removed", rel)
				}
			}
			if tt.opts.DryRun {
				for _, rel := range tt.kept {
					if !slices.Contains(got, filepath.Join(root, rel)) {
						t.Errorf("dry run does not list %s: %q", rel, got)
					}
				}
			}
		})
	}
}

// listTree lists every path under root, for before/after comparisons.
func treeOf(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func TestDeleteSessionDataThroughAMemoryCheckpointer(t *testing.T) {
	p := dataLayout(t)
	cp := session.NewMemoryCheckpointer()
	if _, err := liteagent.DeleteSessionData(t.Context(), p, cp, "m", liteagent.DeleteDataOptions{}); !errors.Is(err, session.ErrNotFound) {
		t.Fatalf("unknown: %v", err)
	}
	if _, err := cp.Append(t.Context(), "m", dataEvents(), session.AnyHead); err != nil {
		t.Fatal(err)
	}
	if _, err := liteagent.DeleteSessionData(t.Context(), p, cp, "m", liteagent.DeleteDataOptions{}); err != nil {
		t.Fatal(err)
	}
	if h, _ := cp.Head(t.Context(), "m"); h != 0 {
		t.Errorf("head %d after delete", h)
	}
}

// The copy a torn tail leaves when the next append sets it aside goes with
// the session.
func TestDeleteSessionDataRemovesTheTornTailCopy(t *testing.T) {
	p := dataLayout(t)
	cp := seedData(t, p, "a")
	log := filepath.Join(p.SessionsDir, "a.jsonl")
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"seq":2,"sessionId":"a","par`); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := cp.Append(t.Context(), "a", dataEvents(), session.AnyHead); err != nil {
		t.Fatal(err)
	}
	copies, _ := filepath.Glob(filepath.Join(p.SessionsDir, "a.jsonl.torn-*"))
	if len(copies) != 1 {
		t.Fatalf("torn copies %v, want one", copies)
	}
	if _, err := liteagent.DeleteSessionData(t.Context(), p, cp, "a", liteagent.DeleteDataOptions{}); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(p.SessionsDir, "a.*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}
