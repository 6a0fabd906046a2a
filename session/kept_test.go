package session_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/session"
)

func TestCheckKeptSaysWhatBecameOfALog(t *testing.T) {
	const id = "s1"
	first := []byte(`{"type":"meta"}` + "\n")
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		check func(error) bool
	}{
		{"in place", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, id+".jsonl"), string(first)+`{"type":"user"}`+"\n")
		}, func(err error) bool { return err == nil }},
		{"set aside by a delete", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, id+".jsonl.deleting"), string(first))
		}, func(err error) bool {
			var de *session.DeletingError
			return errors.As(err, &de) && de.SessionID == id && de.Type == 0
		}},
		{"a directory where a delete sets the log aside", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, id+".jsonl"), string(first))
			if err := os.Mkdir(filepath.Join(dir, id+".jsonl.deleting"), 0o700); err != nil {
				t.Fatal(err)
			}
		}, func(err error) bool {
			var de *session.DeletingError
			return errors.As(err, &de) && de.Type&fs.ModeDir != 0
		}},
		{"gone", func(t *testing.T, dir string) {}, func(err error) bool {
			var nf *session.NotFoundError
			return errors.As(err, &nf) && nf.SessionID == id
		}},
		{"a new session of the id", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, id+".jsonl"), `{"type":"meta","x":1}`+"\n")
		}, func(err error) bool {
			var nf *session.NotFoundError
			return errors.As(err, &nf)
		}},
		{"a symlink at the log's name", func(t *testing.T, dir string) {
			target := filepath.Join(t.TempDir(), "log")
			write(t, target, string(first))
			if err := os.Symlink(target, filepath.Join(dir, id+".jsonl")); err != nil {
				t.Fatal(err)
			}
		}, func(err error) bool { return errors.Is(err, safefs.ErrNotRegular) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.setup(t, dir)
			ents, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			types := map[string]fs.FileMode{}
			for _, e := range ents {
				types[e.Name()] = e.Type()
			}
			err = session.CheckKept(session.PathDir(dir), types, id, first)
			if !tt.check(err) {
				t.Fatalf("CheckKept = %v", err)
			}
		})
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}
