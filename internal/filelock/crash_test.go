//go:build unix

package filelock_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/filelock"
)

// unixChild runs the child processes of the tests that need Unix: mode
// "mix" (see childMix), "step" (see childStep), "foreign" (see
// childForeign) or "plain-holder" (see childPlainHolder).
func unixChild(mode, target string) int {
	switch mode {
	case "mix":
		return childMix(target)
	case "step":
		return childStep(target)
	case "foreign":
		return childForeign(target)
	case "plain-holder":
		return childPlainHolder(target)
	}
	fmt.Fprintln(os.Stderr, "unknown child mode", mode)
	return 2
}

// plainAcquire takes the lock of target the way the TypeScript SDK's
// lock (proper-lockfile) does, knowing nothing of parking: mkdir
// <target>.lock; if it exists and its mtime is older than stale, rmdir it
// (by path, after a stat: that library's own race) and mkdir once more;
// else retry with backoff from 5 ms to 100 ms until timeout.
func plainAcquire(target string, stale, timeout time.Duration) error {
	path := target + filelock.Suffix
	deadline := time.Now().Add(timeout)
	wait := 5 * time.Millisecond
	for {
		err := os.Mkdir(path, 0o700)
		if err == nil {
			return nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
		if st, err := os.Stat(path); err == nil && time.Since(st.ModTime()) > stale {
			if err := syscall.Rmdir(path); err == nil || errors.Is(err, fs.ErrNotExist) {
				if os.Mkdir(path, 0o700) == nil {
					return nil
				}
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("plain lock of %s: still locked after %v", target, timeout)
		}
		time.Sleep(wait)
		wait = min(2*wait, 100*time.Millisecond)
	}
}

// plainRelease releases a lock taken by plainAcquire as proper-lockfile
// does: rmdir by path, without checking whose it is.
func plainRelease(target string) error {
	return syscall.Rmdir(target + filelock.Suffix)
}

// childStep runs one lock scenario (FILELOCK_SCENARIO) on FILELOCK_TARGET
// with a 1 s stale period and kills itself with SIGKILL at the step
// FILELOCK_STEP; it exits 0 only if it never got there.
func childStep(target string) int {
	step, scenario := os.Getenv("FILELOCK_STEP"), os.Getenv("FILELOCK_SCENARIO")
	path := target + filelock.Suffix
	o := filelock.WithStepHook(filelock.Options{Stale: time.Second, Timeout: 500 * time.Millisecond, Park: true}, func(s string) {
		if s == "takeover:seen" && scenario == "replaced" {
			// Another process took the stale lock over and made a
			// fresh one, after this process saw it stale.
			_ = syscall.Rmdir(path)
			_ = os.Mkdir(path, 0o700)
		}
		if s == step {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
	})
	l, err := filelock.Acquire(context.Background(), target, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "acquire:", err)
		return 1
	}
	l.ParkOnRelease()
	if err := l.Release(); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		return 1
	}
	return 0
}

// A process killed at any step of taking, parking, releasing or taking
// over a lock leaves nothing that blocks the next lock for longer than the
// stale period, whoever takes it (a Go lock with or without parking, or a
// TypeScript SDK process), and nothing that a reader of the directory
// would take for a store's file or a live lock of a target: what stays is
// hidden and ends in ".lock".
func TestKilledAtEveryStepLeavesNothingThatBlocks(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("parking needs no-replace renames (Linux)")
	}
	for _, tc := range []struct {
		step, scenario string
		parked         bool // a directory is parked before the child starts
		liveLock       bool // the parent holds the lock while the child runs
		staleLock      bool // a stale lock is there before the child starts
	}{
		{step: "unpark:claimed", parked: true},
		{step: "unpark:stamped", parked: true},
		{step: "unpark:placed", parked: true},
		{step: "unpark:putback", parked: true, liveLock: true},
		{step: "acquire:made"},
		{step: "acquire:placed"},
		{step: "release:verified", parked: true},
		{step: "release:aside", parked: true},
		{step: "release:aside"},
		{step: "release:verified"},
		{step: "release:parked"},
		{step: "takeover:seen", staleLock: true},
		{step: "takeover:aside", staleLock: true},
		{step: "takeover:aside", staleLock: true, parked: true},
		{step: "takeover:giveback", scenario: "replaced", staleLock: true},
	} {
		name := tc.step
		if tc.parked {
			name += ",parked"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "s.jsonl")
			if err := os.WriteFile(target, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			o := filelock.Options{Stale: time.Second, Park: true}
			if tc.parked {
				l := acquire(t, target, o)
				l.ParkOnRelease()
				if err := l.Release(); err != nil {
					t.Fatal(err)
				}
				lstat(t, filepath.Join(dir, filelock.IdleName))
			}
			if tc.staleLock {
				plantStaleLock(t, target)
			}
			var live *filelock.Lock
			if tc.liveLock {
				live = acquire(t, target, filelock.Options{Stale: time.Second})
			}
			cmd := child(t, "step", target)
			cmd.Env = append(cmd.Env, "FILELOCK_STEP="+tc.step, "FILELOCK_SCENARIO="+tc.scenario)
			if err := cmd.Run(); !childtest.Killed(err) {
				t.Fatalf("child never reached %s: %v", tc.step, err)
			}
			if live != nil {
				if err := live.Release(); err != nil {
					t.Fatal(err)
				}
			}
			checkLeftovers(t, dir, true)

			// Every kind of locker gets the lock within the stale
			// period (and some slack for a loaded machine).
			start := time.Now()
			if err := plainAcquire(target, time.Second, 5*time.Second); err != nil {
				t.Fatal(err)
			}
			if err := plainRelease(target); err != nil {
				t.Fatal(err)
			}
			for _, park := range []bool{true, false} {
				l, err := filelock.Acquire(t.Context(), target, filelock.Options{Stale: time.Second, Timeout: 5 * time.Second, Park: park})
				if err != nil {
					t.Fatalf("park=%v: %v", park, err)
				}
				l.ParkOnRelease()
				if err := l.Release(); err != nil {
					t.Fatalf("park=%v: %v", park, err)
				}
			}
			if waited := time.Since(start); waited > 4*time.Second {
				t.Errorf("the lock was blocked for %v after the kill", waited)
			}
			checkLeftovers(t, dir, false)
		})
	}
}

// checkLeftovers fails the test if dir holds anything but the target
// s.jsonl and hidden directories whose name ends in ".lock" (the parked
// directory, a claim), or, if lockOK, the lock directory of s.jsonl.
func checkLeftovers(t *testing.T, dir string, lockOK bool) {
	t.Helper()
	if lockOK {
		checkLeftoversOf(t, dir, "s.jsonl", "s.jsonl"+filelock.Suffix)
	} else {
		checkLeftoversOf(t, dir, "s.jsonl")
	}
}

// checkLeftoversOf fails the test if dir holds anything but the names
// given and hidden directories whose name ends in ".lock".
func checkLeftoversOf(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		n := e.Name()
		switch {
		case slices.Contains(names, n):
		case strings.HasPrefix(n, ".") && strings.HasSuffix(n, filelock.Suffix) && e.IsDir():
		default:
			t.Errorf("left behind: %s (%v)", n, e.Type())
		}
	}
}

// A waiter that saw a stale lock made of the parked directory, which its
// holder then parked and another process took again (the same inode, now
// a fresh lock), does not take the fresh lock over: the takeover compares
// the stamp too, and gives the lock back.
func TestTakeOverSparesAFreshLockOfTheSameDirectory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("parking needs no-replace renames (Linux)")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	path, idle := target+filelock.Suffix, filepath.Join(dir, filelock.IdleName)
	l := acquire(t, target, filelock.Options{Park: true})
	l.ParkOnRelease()
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	// A slow holder's lock, made of the parked directory, looks stale.
	if err := os.Rename(idle, path); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	parked := lockDir(t, target)
	var fresh *filelock.Lock
	o := filelock.WithStepHook(filelock.Options{Stale: time.Second, Timeout: 300 * time.Millisecond}, func(step string) {
		if step != "takeover:seen" || fresh != nil {
			return
		}
		// The slow holder releases (parks) its lock, and another
		// process takes the parked directory as its lock.
		if err := os.Rename(path, idle); err != nil {
			t.Error(err)
		}
		fresh = acquire(t, target, filelock.Options{Park: true})
	})
	if l, err := filelock.Acquire(t.Context(), target, o); err == nil {
		_ = l.Release()
		t.Fatal("took a fresh lock")
	}
	if fresh == nil {
		t.Fatal("the takeover step was never reached")
	}
	if !os.SameFile(lockDir(t, target), parked) {
		t.Error("the fresh lock is not the parked directory")
	}
	if err := fresh.Check(); err != nil {
		t.Errorf("the fresh lock was taken over: %v", err)
	}
	if err := fresh.Release(); err != nil {
		t.Error(err)
	}
}

// A waiter that saw a stale lock, which another process replaced with a
// fresh lock meanwhile, never leaves the lock's place empty while it finds
// out: a third process cannot lock then, and the fresh lock's holder keeps
// it. (Moving the lock aside to look at it let a third process lock
// while the fresh holder, which had checked its lock just before, went on
// writing: two writers.)
func TestTakeOverNeverLeavesTheLockPlaceEmpty(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs renameat2 (Linux)")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "s.jsonl")
	path := plantStaleLock(t, target)
	var fresh *filelock.Lock
	thirdLocked := false
	o := filelock.WithStepHook(filelock.Options{Stale: time.Second, Timeout: 200 * time.Millisecond}, func(step string) {
		switch {
		case step == "takeover:seen" && fresh == nil:
			// Another waiter took the stale lock over and locked.
			_ = syscall.Rmdir(path)
			fresh = acquire(t, target, filelock.Options{})
		case step == "takeover:aside":
			// A third process tries to lock.
			if os.Mkdir(path, 0o700) == nil {
				thirdLocked = true
			}
		}
	})
	if l, err := filelock.Acquire(t.Context(), target, o); err == nil {
		_ = l.Release()
		t.Fatal("took a fresh lock")
	}
	if fresh == nil {
		t.Fatal("the takeover step was never reached")
	}
	if thirdLocked {
		t.Error("a third process locked while the waiter looked at the lock it took")
	}
	if err := fresh.Check(); err != nil {
		t.Errorf("the fresh lock was lost: %v", err)
	}
	if err := fresh.Release(); err != nil {
		t.Error(err)
	}
	checkLeftovers(t, dir, thirdLocked)
}
