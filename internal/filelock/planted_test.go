//go:build unix

package filelock_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
)

// A non-empty directory planted under the parked name becomes a lock like
// the parked directory it looks like. When its release cannot park it
// again (another directory was parked meanwhile) it cannot be removed
// either: the release still frees the lock, by setting the directory
// aside under a hidden name ending in ".lock", and loses nothing in it.
// (It used to fail and leave the target locked until the stale period,
// after which a takeover removed the directory with its contents.)
func TestPlantedNonEmptyParkedDirectoryIsReleased(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("parking needs no-replace renames (Linux)")
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	for _, target := range []string{a, b} {
		if err := os.WriteFile(target, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	idle := filepath.Join(dir, filelock.IdleName)
	if err := os.Mkdir(idle, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(idle, "keep"), []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	o := filelock.Options{Park: true}
	la := acquire(t, a, o) // the planted directory
	lb := acquire(t, b, o) // made by mkdir
	lb.ParkOnRelease()
	if err := lb.Release(); err != nil { // parked: the place is taken
		t.Fatal(err)
	}
	if err := la.Release(); err != nil {
		t.Errorf("release: %v", err)
	}
	if _, err := os.Lstat(la.Path()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a is still locked: %v", err)
	}
	found := 0
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if b, err := os.ReadFile(filepath.Join(dir, e.Name(), "keep")); err == nil && string(b) == "keep" {
			found++
		}
	}
	if found != 1 {
		t.Errorf("the planted file is in %d directories, want 1", found)
	}
	checkLeftoversOf(t, dir, "a.jsonl", "b.jsonl")
}

// A waiter tries the parked directory once, not at every retry while the
// lock is held: taking it, stamping it and putting it back cost a stamp
// and three renames a retry, and a removal whenever the holder parked its
// own directory meanwhile.
func TestWaiterLeavesTheParkedDirectoryAlone(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("parking needs no-replace renames (Linux)")
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	for _, target := range []string{a, b} {
		if err := os.WriteFile(target, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	o := filelock.Options{Park: true}
	lb := acquire(t, b, o)
	lb.ParkOnRelease()
	la := acquire(t, a, o)
	if err := lb.Release(); err != nil {
		t.Fatal(err)
	}
	claims := 0
	w := filelock.WithStepHook(filelock.Options{Park: true, Timeout: 150 * time.Millisecond}, func(step string) {
		if step == "unpark:claimed" {
			claims++
		}
	})
	if _, err := filelock.Acquire(t.Context(), a, w); err == nil {
		t.Fatal("took a held lock")
	}
	if claims > 1 {
		t.Errorf("the waiter took the parked directory %d times", claims)
	}
	if err := la.Release(); err != nil {
		t.Fatal(err)
	}
}
