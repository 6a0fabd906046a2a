//go:build linux

package postgres_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
)

// TestImportFilesRefusesAFIFOAsArchiveIndex imports a data home whose
// context archive index is a FIFO (or a symlink to a file outside the
// home): the import reads the index by name, and must neither wait for a
// writer of the FIFO forever nor read what the symlink points to. It fails
// with an error instead, and the files stay as they were.
func TestImportFilesRefusesAFIFOAsArchiveIndex(t *testing.T) {
	for _, kind := range []string{"fifo", "symlink"} {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			paths, enc, ctxDir := homeWithOneSession(t)
			if err := os.MkdirAll(filepath.Join(ctxDir, archive.NotesDir), 0o700); err != nil {
				t.Fatal(err)
			}
			index := filepath.Join(ctxDir, archive.IndexFile)
			if kind == "fifo" {
				if err := syscall.Mkfifo(index, 0o600); err != nil {
					t.Fatal(err)
				}
			} else {
				outside := filepath.Join(t.TempDir(), "secret.jsonl")
				if err := os.WriteFile(outside, []byte(`{"ref":"x","secret":"outside the home"}`+"\n"), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(outside, index); err != nil {
					t.Fatal(err)
				}
			}
			p := project(t, enc)
			done := make(chan error, 1)
			go func() {
				_, err := p.ImportFiles(ctx, paths)
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil {
					t.Errorf("ImportFiles imported an archive index that is a %s", kind)
				}
			case <-time.After(5 * time.Second):
				// Release every open of the FIFO by the import before failing.
				for {
					if w, err := os.OpenFile(index, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
						w.Close()
					}
					select {
					case <-done:
						t.Fatal("ImportFiles waited on the FIFO at the archive index")
					case <-time.After(50 * time.Millisecond):
					}
				}
			}
			if st, err := os.Lstat(index); err != nil || st.Mode().IsRegular() {
				t.Errorf("the index after the import: %v, %v", st, err)
			}
		})
	}
}
