//go:build unix

package filelock_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/storage"
)

// openDirFd opens dir for MoveAt and closes it when the test ends.
func openDirFd(t testing.TB, dir string) int {
	t.Helper()
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = unix.Close(fd) })
	return fd
}

// moveAtSetup returns a new directory open as fd, two targets a and b in
// it, and a lock of a.
func moveAtSetup(t *testing.T) (fd int, a, b string, l *filelock.Lock) {
	t.Helper()
	skipWithoutMove(t)
	dir := t.TempDir()
	a, b = filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	return openDirFd(t, dir), a, b, acquire(t, a, filelock.Options{})
}

func TestMoveAtHandsTheLockToTheNextTarget(t *testing.T) {
	fd, a, b, l := moveAtSetup(t)
	if err := l.MoveAt(fd, b); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(a + filelock.Suffix); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the old lock directory is still there: %v", err)
	}
	if l.Path() != b+filelock.Suffix {
		t.Errorf("Path() = %q", l.Path())
	}
	if held(t, a, filelock.Options{}) {
		t.Error("the old target is still locked")
	}
	// And on again, back to a: the lock keeps following.
	if err := l.MoveAt(fd, a); err != nil {
		t.Fatal(err)
	}
	if held(t, b, filelock.Options{}) {
		t.Error("b is still locked")
	}
	stillHeld(t, l, a, filelock.Options{})
	if err := l.MoveAt(fd, b); err == nil {
		t.Error("a released lock moved")
	}
}

func TestMoveAtOntoAHeldLockLeavesBothAlone(t *testing.T) {
	fd, a, b, l := moveAtSetup(t)
	startHolder(t, b)
	theirs := lockDir(t, b)
	err := l.MoveAt(fd, b)
	var se *storage.Error
	if !errors.Is(err, fs.ErrExist) || !errors.As(err, &se) || se.File != b+filelock.Suffix {
		t.Fatalf("MoveAt onto a held lock = %v, want a *storage.Error naming it, matching fs.ErrExist", err)
	}
	if now, err := os.Lstat(b + filelock.Suffix); err != nil || !os.SameFile(now, theirs) {
		t.Errorf("the other process's lock was touched: %v", err)
	}
	stillHeld(t, l, a, filelock.Options{})
}

func TestMoveAtOfARemovedLockIsCompromised(t *testing.T) {
	fd, a, b, l := moveAtSetup(t)
	if err := os.Remove(a + filelock.Suffix); err != nil {
		t.Fatal(err)
	}
	var se *storage.Error
	if err := l.MoveAt(fd, b); !errors.As(err, &se) {
		t.Fatalf("MoveAt of a removed lock = %v, want *storage.Error", err)
	}
	if _, err := os.Lstat(b + filelock.Suffix); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("MoveAt of a removed lock made one: %v", err)
	}
}

// The directory of the lock is moved away while its holder keeps it open,
// and a new one takes its path: MoveAt moves the lock where the descriptor
// is (where the holder reads its targets from), never into the directory
// now at the path, and the lock, no longer at its path, is found
// compromised there.
func TestMoveAtFollowsTheOpenDirectoryNotItsPath(t *testing.T) {
	skipWithoutMove(t)
	parent := t.TempDir()
	dir := filepath.Join(parent, "sessions")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	fd := openDirFd(t, dir)
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	l := acquire(t, a, filelock.Options{})
	moved := filepath.Join(parent, "moved")
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := l.MoveAt(fd, b); err != nil {
		t.Fatalf("MoveAt in the open directory: %v", err)
	}
	if st, err := os.Lstat(filepath.Join(moved, "b.jsonl"+filelock.Suffix)); err != nil || !st.IsDir() {
		t.Errorf("the lock is not in the open directory: %v", err)
	}
	if _, err := os.Lstat(b + filelock.Suffix); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the lock went into the directory now at the path: %v", err)
	}
	var se *storage.Error
	if err := l.Check(); !errors.As(err, &se) || !strings.Contains(se.Message, "compromised") {
		t.Errorf("Check of a lock no longer at its path = %v, want it compromised", err)
	}
	_ = l.Release()
}

// BenchmarkMove moves one lock from target to target in a directory seven
// levels deep, as a migration carries its source lock from session log to
// session log, by path (Move) and relative to the open directory
// (MoveAt): the same system calls, the latter resolving one name each.
//
//	go test ./internal/filelock -run '^$' -bench 'Move$' -benchtime 20000x
func BenchmarkMove(b *testing.B) {
	skipWithoutMove(b)
	dir := b.TempDir()
	for _, c := range []string{"home", "projects", "0123456789abcdef", "sessions"} {
		dir = filepath.Join(dir, c)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	fd := openDirFd(b, dir)
	for _, tc := range []struct {
		name string
		move func(l *filelock.Lock, target string) error
	}{
		{"by=path", (*filelock.Lock).Move},
		{"by=dirfd", func(l *filelock.Lock, target string) error { return l.MoveAt(fd, target) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			l, err := filelock.Acquire(b.Context(), filepath.Join(dir, tc.name+"-0"), filelock.Options{})
			if err != nil {
				b.Fatal(err)
			}
			i := 0
			for b.Loop() {
				i++
				if err := tc.move(l, filepath.Join(dir, fmt.Sprintf("%s-%d", tc.name, i&1))); err != nil {
					b.Fatal(err)
				}
			}
			if err := l.Release(); err != nil {
				b.Fatal(err)
			}
		})
	}
}
