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
	"github.com/lite-agent/lite-agent-go/storage"
)

// acquire takes the lock of target or fails the test.
func acquire(t *testing.T, target string, o filelock.Options) *filelock.Lock {
	t.Helper()
	l, err := filelock.Acquire(t.Context(), target, o)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// held reports whether another acquirer, with o, finds target locked.
func held(t *testing.T, target string, o filelock.Options) bool {
	t.Helper()
	o.Timeout = 100 * time.Millisecond
	l, err := filelock.Acquire(t.Context(), target, o)
	if err != nil {
		return true
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	return false
}

func skipWithoutMove(t testing.TB) {
	if runtime.GOOS != "linux" {
		t.Skip("Move needs renameat2")
	}
}

// lockDir returns the lock directory of target, which must exist.
func lockDir(t *testing.T, target string) fs.FileInfo {
	t.Helper()
	st, err := os.Lstat(target + filelock.Suffix)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// stillHeld checks that l, which guards target, still holds it (for itself
// and for another acquirer with o), and releases it.
func stillHeld(t *testing.T, l *filelock.Lock, target string, o filelock.Options) {
	t.Helper()
	if err := l.Check(); err != nil {
		t.Fatal(err)
	}
	if !held(t, target, o) {
		t.Errorf("the lock of %s is not held", target)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
}

func TestMoveHandsTheLockToTheNextTarget(t *testing.T) {
	skipWithoutMove(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	l := acquire(t, a, filelock.Options{})
	elsewhere := filepath.Join(t.TempDir(), "c.jsonl")
	var se *storage.Error
	if err := l.Move(elsewhere); !errors.As(err, &se) {
		t.Errorf("Move to another directory = %v, want a *storage.Error", err)
	}
	if err := l.Move(b); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(a + filelock.Suffix); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the old lock directory is still there: %v", err)
	}
	if st, err := os.Lstat(b + filelock.Suffix); err != nil || !st.IsDir() {
		t.Fatalf("no lock directory for the new target: %v", err)
	}
	if l.Path() != b+filelock.Suffix {
		t.Errorf("Path() = %q", l.Path())
	}
	if held(t, a, filelock.Options{}) {
		t.Error("the old target is still locked")
	}
	if !held(t, b, filelock.Options{}) {
		t.Error("the new target is not locked")
	}
	if err := l.Check(); err != nil {
		t.Error(err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(b + filelock.Suffix); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Release left the moved lock: %v", err)
	}
	if err := l.Move(a); err == nil {
		t.Error("a released lock moved")
	}
}

func TestMoveOntoAHeldLockLeavesBothAlone(t *testing.T) {
	skipWithoutMove(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")

	// b is held by another process.
	startHolder(t, b)
	theirs := lockDir(t, b)

	l := acquire(t, a, filelock.Options{})
	err := l.Move(b)
	var se *storage.Error
	if !errors.Is(err, fs.ErrExist) || !errors.As(err, &se) || se.File != b+filelock.Suffix {
		t.Fatalf("Move onto a held lock = %v, want a *storage.Error naming it, matching fs.ErrExist", err)
	}
	if err := l.Check(); err != nil {
		t.Errorf("the lock is no longer held after the refused move: %v", err)
	}
	if !held(t, a, filelock.Options{}) {
		t.Error("the refused move unlocked the old target")
	}
	now, err := os.Lstat(b + filelock.Suffix)
	if err != nil || !os.SameFile(now, theirs) {
		t.Errorf("the other process's lock was touched: %v", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
}

func TestMovedLockIsStampedAndKeptFresh(t *testing.T) {
	skipWithoutMove(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	// Refreshes every 100 ms: stale after 400 ms without them.
	o := filelock.Options{Stale: 400 * time.Millisecond, Refresh: 100 * time.Millisecond}
	// Never refreshes within the test.
	o2 := filelock.Options{Stale: 400 * time.Millisecond, Refresh: time.Hour}

	// A lock whose last stamp is 300 ms old, moved: without a new stamp
	// the next acquirer would take it over within 100 ms.
	old := acquire(t, a, o2)
	time.Sleep(300 * time.Millisecond)
	if err := old.Move(b); err != nil {
		t.Fatal(err)
	}
	if age := time.Since(lockDir(t, b).ModTime()); age > 200*time.Millisecond {
		t.Errorf("the moved lock is %v old", age)
	}
	if !held(t, b, o2) {
		t.Error("the moved lock was taken over as stale")
	}
	_ = old.Release()

	// Refreshing follows the move.
	moved := acquire(t, a, o)
	if err := moved.Move(b); err != nil {
		t.Fatal(err)
	}
	time.Sleep(600 * time.Millisecond) // stale by now, had refreshing stopped at the move
	stillHeld(t, moved, b, o)
}

// A lock stamped moments ago moves without a new stamp, and stays held and
// checkable under its new name.
func TestRecentlyStampedLockMovesUnstamped(t *testing.T) {
	skipWithoutMove(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	o := filelock.Options{Stale: 10 * time.Second}
	l := acquire(t, a, o)
	before := lockDir(t, a).ModTime()
	// A stamp now would differ from mkdir's by more than the timestamp
	// granularity.
	time.Sleep(20 * time.Millisecond)
	if err := l.Move(b); err != nil {
		t.Fatal(err)
	}
	if after := lockDir(t, b).ModTime(); !after.Equal(before) {
		t.Errorf("the moved lock was stamped: mtime %v, was %v", after, before)
	}
	stillHeld(t, l, b, o)
}

func TestMoveOfARemovedLockIsCompromised(t *testing.T) {
	skipWithoutMove(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	l := acquire(t, a, filelock.Options{})
	if err := os.Remove(a + filelock.Suffix); err != nil {
		t.Fatal(err)
	}
	err := l.Move(b)
	var se *storage.Error
	if !errors.As(err, &se) {
		t.Fatalf("Move of a removed lock = %v, want *storage.Error", err)
	}
	if _, err := os.Lstat(b + filelock.Suffix); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Move of a removed lock made one: %v", err)
	}
}
