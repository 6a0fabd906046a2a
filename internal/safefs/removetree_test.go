package safefs_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

func TestRemoveTree(t *testing.T) {
	tests := []struct {
		name    string
		build   func(t *testing.T, parent string) // makes parent/x
		wantErr bool
		gone    bool // parent/x is gone afterwards
	}{
		{"a tree", func(t *testing.T, parent string) { mkfile(t, filepath.Join(parent, "x", "sub", "f")) }, false, true},
		{"missing entry", func(t *testing.T, parent string) {}, false, true},
		{"symlink is refused and kept", func(t *testing.T, parent string) {
			decoy := t.TempDir()
			mkfile(t, filepath.Join(decoy, "keep"))
			if err := os.Symlink(decoy, filepath.Join(parent, "x")); err != nil {
				t.Fatal(err)
			}
		}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent := t.TempDir()
			tt.build(t, parent)
			err := safefs.RemoveTree(t.Context(), storage.KindArchive, parent, "x")
			var se *storage.Error
			if tt.wantErr != (err != nil) || err != nil && (!errors.As(err, &se) || se.Kind != storage.KindArchive) {
				t.Fatalf("RemoveTree = %v, want error %v (a *storage.Error of kind archive)", err, tt.wantErr)
			}
			if _, err := os.Lstat(filepath.Join(parent, "x")); (err != nil) != tt.gone {
				t.Errorf("parent/x gone = %v, want %v", err != nil, tt.gone)
			}
			if _, err := os.Lstat(filepath.Join(parent, "x.lock")); err == nil {
				t.Error("the lock was left behind")
			}
		})
	}
}

func TestRemoveTreeOfAMissingParentCreatesNothing(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "no", "such")
	if err := safefs.RemoveTree(t.Context(), storage.KindTask, parent, "x"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(parent); err == nil {
		t.Error("RemoveTree created the parent")
	}
}

// A store writing under the lock finishes before the tree goes: the
// removal waits for the lock, and gives up when its context ends.
func TestRemoveTreeWaitsForTheStoreLock(t *testing.T) {
	parent := t.TempDir()
	mkfile(t, filepath.Join(parent, "x", "f"))
	l, err := filelock.Acquire(t.Context(), filepath.Join(parent, "x"), filelock.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	if err := safefs.RemoveTree(ctx, storage.KindTask, parent, "x"); err == nil {
		t.Fatal("RemoveTree removed a locked tree")
	}
	if _, err := os.Stat(filepath.Join(parent, "x", "f")); err != nil {
		t.Fatalf("the locked tree was touched: %v", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if err := safefs.RemoveTree(t.Context(), storage.KindTask, parent, "x"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(parent, "x")); err == nil {
		t.Error("the tree survived once the lock was released")
	}
}

func mkfile(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
}
