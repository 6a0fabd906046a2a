//go:build unix

package filelock_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
)

// openDir opens dir for AcquireAt.
func openDir(t *testing.T, dir string) *os.File {
	t.Helper()
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestAcquireAtFollowsTheRules takes, refreshes, parks and releases a lock
// relative to an open directory, and takes over a stale one there: the
// same names and steps as Acquire's, which excludes it.
func TestAcquireAtFollowsTheRules(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "s.jsonl")
	d := openDir(t, dir)
	o := filelock.Options{Stale: 400 * time.Millisecond, Timeout: 50 * time.Millisecond, Park: true}
	l, err := filelock.AcquireAt(t.Context(), d, "s.jsonl", o)
	if err != nil {
		t.Fatal(err)
	}
	if l.Path() != filelock.Path(target) {
		t.Errorf("Path() = %q, want %q", l.Path(), filelock.Path(target))
	}
	if _, err := filelock.Acquire(t.Context(), target, o); err == nil {
		t.Fatal("Acquire took a lock AcquireAt holds")
	}
	if _, err := filelock.AcquireAt(t.Context(), d, "s.jsonl", o); err == nil {
		t.Fatal("AcquireAt took a lock it holds")
	}
	time.Sleep(500 * time.Millisecond) // past the stale period: refreshed meanwhile
	if err := l.Check(); err != nil {
		t.Fatalf("lock not kept fresh: %v", err)
	}
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	l.ParkOnRelease()
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, filelock.IdleName)); err != nil {
		t.Fatalf("released lock not parked: %v", err)
	}
	// The parked directory is taken again, and a lock left stale is taken
	// over.
	l, err = filelock.AcquireAt(t.Context(), d, "s.jsonl", o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, filelock.IdleName)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("parked directory not taken: %v", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, "t.json.lock")
	if err := os.Mkdir(stale, 0o700); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	l, err = filelock.AcquireAt(t.Context(), d, "t.json", o)
	if err != nil {
		t.Fatalf("stale lock not taken over: %v", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() != "s.jsonl" && e.Name() != filelock.IdleName {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	if _, err := filelock.AcquireAt(t.Context(), d, "a/b", o); err == nil {
		t.Error("AcquireAt took a lock of a path")
	}
}

// TestAcquireAtStaysInItsDirectory moves the directory of a held lock
// away and puts another one under its name: refreshing, Check and
// Release act on the lock where the directory went, and nothing is made,
// renamed or removed in the new one.
func TestAcquireAtStaysInItsDirectory(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "d")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	d := openDir(t, dir)
	o := filelock.Options{Stale: 400 * time.Millisecond}
	l, err := filelock.AcquireAt(t.Context(), d, "s.jsonl", o)
	if err != nil {
		t.Fatal(err)
	}
	d.Close() // the lock keeps its own descriptor
	moved := filepath.Join(base, "moved")
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	if err := l.Check(); err != nil {
		t.Fatalf("lock lost when its directory moved: %v", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, moved} {
		if ents, _ := os.ReadDir(p); len(ents) != 0 {
			t.Errorf("%s holds %v after the release", p, ents)
		}
	}
}
