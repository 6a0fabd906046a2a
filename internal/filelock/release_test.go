package filelock_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
)

// BenchmarkAcquireRelease measures taking and releasing an uncontended lock,
// what every store operation outside a held session pays, with and
// without parking.
//
//	go test ./internal/filelock -run '^$' -bench AcquireRelease -benchtime 2000x
func BenchmarkAcquireRelease(b *testing.B) {
	for _, park := range []bool{false, true} {
		b.Run(fmt.Sprintf("park=%v", park), func(b *testing.B) {
			target := filepath.Join(b.TempDir(), "s.jsonl")
			for b.Loop() {
				l, err := filelock.Acquire(b.Context(), target, filelock.Options{Park: park})
				if err != nil {
					b.Fatal(err)
				}
				if err := l.Release(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func lstat(t *testing.T, path string) fs.FileInfo {
	t.Helper()
	st, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// A released lock directory is parked under IdleName and becomes the next
// lock of its directory, stamped fresh before it appears, so that the next
// lock allocates and frees no inode; only one is parked at a time.
func TestReleasedLockIsParkedForTheNextLock(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("parking needs no-replace renames (Linux)")
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	idle := filepath.Join(dir, filelock.IdleName)
	for _, target := range []string{a, b} {
		if err := os.WriteFile(target, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}

	la, err := filelock.Acquire(t.Context(), a, filelock.Options{Park: true})
	if err != nil {
		t.Fatal(err)
	}
	held := lstat(t, la.Path())
	if err := la.Release(); err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(lstat(t, idle), held) {
		t.Fatal("the parked directory is not the released lock's")
	}
	// However old the parked directory's stamp, the lock it becomes is
	// fresh: nobody may take it over as stale.
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(idle, old, old); err != nil {
		t.Fatal(err)
	}
	lb, err := filelock.Acquire(t.Context(), b, filelock.Options{Park: true})
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(lstat(t, lb.Path()), held) {
		t.Error("the lock of b is not the parked directory")
	}
	st, err := os.Lstat(lb.Path())
	if err != nil {
		t.Fatal(err)
	}
	if age := time.Since(st.ModTime()); age > time.Minute {
		t.Errorf("unparked lock is %v old", age)
	}
	if _, err := os.Lstat(idle); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("parked directory still there while its directory is b's lock: %v", err)
	}
	if err := lb.Check(); err != nil {
		t.Errorf("Check: %v", err)
	}

	// Two locks at once: one is made by mkdir; at release the first parks,
	// the second finds the place taken and removes its own directory.
	la, err = filelock.Acquire(t.Context(), a, filelock.Options{Park: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := lb.Release(); err != nil {
		t.Fatal(err)
	}
	if err := la.Release(); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if want := []string{filelock.IdleName, "a.jsonl", "b.jsonl"}; !slices.Equal(names, want) {
		t.Errorf("directory holds %q, want %q", names, want)
	}

	// A lock that outlives its target (a delete's) takes the parked
	// directory and leaves nothing behind.
	lc, err := filelock.Acquire(t.Context(), a, filelock.Options{Park: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	if err := lc.Release(); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 || ents[0].Name() != "b.jsonl" {
		t.Errorf("after the delete's lock the directory holds %v, want only b.jsonl", ents)
	}
}

// Whatever sits under IdleName that is not a directory is never taken as
// a lock and never removed: locks are made by mkdir instead.
func TestParkedPlaceHoldingAFileIsLeftAlone(t *testing.T) {
	dir := t.TempDir()
	idle := filepath.Join(dir, filelock.IdleName)
	for _, tc := range []struct {
		name  string
		plant func() error
	}{
		{"file", func() error { return os.WriteFile(idle, []byte("keep"), 0o600) }},
		{"symlink to a directory", func() error { return os.Symlink(dir, idle) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_ = os.Remove(idle)
			if err := tc.plant(); err != nil {
				t.Fatal(err)
			}
			before, err := os.Lstat(idle)
			if err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(dir, "s.jsonl")
			l, err := filelock.Acquire(t.Context(), target, filelock.Options{Park: true})
			if err != nil {
				t.Fatal(err)
			}
			st, err := os.Lstat(l.Path())
			if err != nil || !st.IsDir() {
				t.Fatalf("lock path: %v, %v", st, err)
			}
			if err := l.Release(); err != nil {
				t.Fatal(err)
			}
			after, err := os.Lstat(idle)
			if err != nil || !os.SameFile(before, after) {
				t.Errorf("what was planted under %s is gone or replaced: %v", filelock.IdleName, err)
			}
			if _, err := os.Lstat(l.Path()); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("lock directory after release: %v", err)
			}
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if strings.HasPrefix(e.Name(), ".claim-") {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
}
