package datahome_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/datahome"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// write creates the file rel under the project's sessions or tasks
// directory (rel starts with "sessions/" or "tasks/").
func write(t *testing.T, p storage.ProjectPaths, rel string) {
	t.Helper()
	path := filepath.Join(filepath.Dir(p.SessionsDir), rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestDeleteDeletesWhatExists(t *testing.T) {
	tests := []struct {
		name     string
		build    func(t *testing.T, p storage.ProjectPaths) // session "a" with seed, unless "none"
		opts     datahome.DeleteOptions
		notFound bool
		gone     []string // relative to the project directory
		kept     []string
	}{
		{
			name: "log archive list and set-aside copies",
			build: func(t *testing.T, p storage.ProjectPaths) {
				seed(t, p, "a")
				write(t, p, "sessions/a.jsonl.broken-1700000000000")
				write(t, p, "sessions/a.jsonl.torn-1700000000001")
			},
			gone: []string{"sessions/a.jsonl", "sessions/a.context", "tasks/a", "sessions/a.jsonl.broken-1700000000000", "sessions/a.jsonl.torn-1700000000001"},
		},
		{
			name: "copies of other sessions stay",
			build: func(t *testing.T, p storage.ProjectPaths) {
				seed(t, p, "a")
				write(t, p, "sessions/ab.jsonl.broken-1")
				write(t, p, "sessions/a.jsonl.broken-x")
				write(t, p, "sessions/a.jsonl.bak")
			},
			gone: []string{"sessions/a.jsonl"},
			kept: []string{"sessions/ab.jsonl.broken-1", "sessions/a.jsonl.broken-x", "sessions/a.jsonl.bak"},
		},
		{
			name:     "unknown session keeps a list named like it",
			build:    func(t *testing.T, p storage.ProjectPaths) { write(t, p, "tasks/a/1.json") },
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
				seed(t, p, "a")
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
				write(t, p, "sessions/a.jsonl.torn-5")
				write(t, p, "tasks/a/1.json")
			},
			gone: []string{"sessions/a.jsonl.torn-5", "tasks/a"},
		},
		{
			name:  "dry run",
			build: func(t *testing.T, p storage.ProjectPaths) { seed(t, p, "a"); write(t, p, "sessions/a.jsonl.broken-2") },
			opts:  datahome.DeleteOptions{DryRun: true},
			kept:  []string{"sessions/a.jsonl", "sessions/a.context", "tasks/a", "sessions/a.jsonl.broken-2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := layout(t)
			tt.build(t, p)
			if err := os.MkdirAll(p.SessionsDir, 0o700); err != nil {
				t.Fatal(err)
			}
			cp, err := session.NewFileCheckpointer(p.SessionsDir, session.FileOptions{})
			if err != nil {
				t.Fatal(err)
			}
			before := listTree(t, filepath.Dir(p.SessionsDir))
			got, err := datahome.DeleteSession(t.Context(), p, cp, "a", tt.opts)
			if tt.notFound {
				if !errors.Is(err, session.ErrNotFound) {
					t.Fatalf("err = %v, want ErrNotFound", err)
				}
				if after := listTree(t, filepath.Dir(p.SessionsDir)); !slices.Equal(before, after) {
					t.Errorf("a failed delete changed the project:\n before %q\n after  %q", before, after)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			root := filepath.Dir(p.SessionsDir)
			for _, rel := range tt.gone {
				if exists(t, filepath.Join(root, rel)) {
					t.Errorf("%s survived", rel)
				}
				if !slices.Contains(got, filepath.Join(root, rel)) {
					t.Errorf("%s is not in the returned list %q", rel, got)
				}
			}
			for _, rel := range tt.kept {
				if !exists(t, filepath.Join(root, rel)) {
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
func listTree(t *testing.T, root string) []string {
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

func TestDeleteThroughAMemoryCheckpointer(t *testing.T) {
	p := layout(t)
	cp := session.NewMemoryCheckpointer()
	if _, err := datahome.DeleteSession(t.Context(), p, cp, "m", datahome.DeleteOptions{}); !errors.Is(err, session.ErrNotFound) {
		t.Fatalf("unknown: %v", err)
	}
	if _, err := cp.Append(t.Context(), "m", seedEvents(), session.AnyHead); err != nil {
		t.Fatal(err)
	}
	if _, err := datahome.DeleteSession(t.Context(), p, cp, "m", datahome.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if h, _ := cp.Head(t.Context(), "m"); h != 0 {
		t.Errorf("head %d after delete", h)
	}
}

// The copy a torn tail leaves when the next append sets it aside goes with
// the session.
func TestDeleteRemovesTheTornTailCopy(t *testing.T) {
	p := layout(t)
	cp := seed(t, p, "a")
	log := filepath.Join(p.SessionsDir, "a.jsonl")
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"seq":2,"sessionId":"a","par`); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := cp.Append(t.Context(), "a", seedEvents(), session.AnyHead); err != nil {
		t.Fatal(err)
	}
	copies, _ := filepath.Glob(filepath.Join(p.SessionsDir, "a.jsonl.torn-*"))
	if len(copies) != 1 {
		t.Fatalf("torn copies %v, want one", copies)
	}
	if _, err := datahome.DeleteSession(t.Context(), p, cp, "a", datahome.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(p.SessionsDir, "a.*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}
