package filelock_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
)

// takeOverAt returns step hook options that, at the named step of the
// hooked lock, age that lock's directory past the stale period (what a
// stall of its process there looks like to others) and take it over with
// a second lock, which it returns through *taker.
func takeOverAt(t *testing.T, target, at string, taker **filelock.Lock) filelock.Options {
	t.Helper()
	o := filelock.Options{Stale: time.Second, Timeout: time.Second}
	return filelock.WithStepHook(o, func(step string) {
		if step != at || *taker != nil {
			return
		}
		old := time.Now().Add(-time.Minute)
		if err := os.Chtimes(target+filelock.Suffix, old, old); err != nil {
			t.Error(err)
			return
		}
		l, err := filelock.Acquire(t.Context(), target, o)
		if err != nil {
			t.Errorf("taking over at %s: %v", at, err)
			return
		}
		*taker = l
	})
}

// A process that stalls between placing its new lock directory and
// recording which directory it placed, for longer than the stale period,
// finds its lock taken over: it must not then record the taker's
// directory as its own, or both hold the lock (and either one's release
// removes the other's). The sweep met this in the retention tests.
func TestAcquireDoesNotAdoptATakersLock(t *testing.T) {
	target := filepath.Join(t.TempDir(), "s.jsonl")
	var taker *filelock.Lock
	o := takeOverAt(t, target, "acquire:placed", &taker)
	l, err := filelock.Acquire(t.Context(), target, o)
	if err != nil {
		t.Fatal(err)
	}
	if taker == nil {
		t.Fatal("the step acquire:placed was never reached")
	}
	if l.Check() == nil && taker.Check() == nil {
		t.Fatal("two holders of one lock: the stalled acquirer took the taker's directory for its own")
	}
	_ = l.Release()
	if err := taker.Check(); err != nil {
		t.Errorf("the taker's lock after the stalled one's release: %v", err)
	}
	if err := taker.Release(); err != nil {
		t.Error(err)
	}
}

// A holder that stalls between checking its lock and removing it at
// release, for longer than the stale period, finds its lock taken over:
// its release must leave the taker's lock in place.
func TestReleaseSparesATakersLock(t *testing.T) {
	target := filepath.Join(t.TempDir(), "s.jsonl")
	var taker *filelock.Lock
	o := takeOverAt(t, target, "release:verified", &taker)
	l, err := filelock.Acquire(t.Context(), target, o)
	if err != nil {
		t.Fatal(err)
	}
	_ = l.Release()
	if taker == nil {
		t.Fatal("the step release:verified was never reached")
	}
	if err := taker.Check(); err != nil {
		t.Errorf("the taker's lock after the stalled holder's release: %v", err)
	}
	if err := taker.Release(); err != nil {
		t.Error(err)
	}
}

// stallAt returns step hook options that, at the named step, check that
// dir holds a directory whose name has the given prefix and ends in
// ".lock" (the new lock directory the hooked process has not placed yet)
// and stall the process past the stale period (1 s here).
func stallAt(t *testing.T, dir, at, prefix string, park bool) filelock.Options {
	t.Helper()
	o := filelock.Options{Stale: time.Second, Timeout: time.Second, Park: park}
	return filelock.WithStepHook(o, func(step string) {
		if step != at {
			return
		}
		names, err := filepath.Glob(filepath.Join(dir, prefix+"*"+filelock.Suffix))
		if err != nil || len(names) == 0 {
			t.Errorf("at %s: no %s*%s directory: %v", at, prefix, filelock.Suffix, err)
			return
		}
		// A real stall: the directory's stamp stays as it was made, as
		// the process recorded it, and grows old. (Aging the stamp instead
		// would change what the process recorded behind its back, which
		// nothing can do to a directory under a name only it knows.)
		time.Sleep(o.Stale + 100*time.Millisecond)
	})
}

// A process that stalls, for longer than the stale period, after making
// or stamping its new lock directory and before placing it, places a
// directory that looks stale at once: Acquire must not return that lock
// as it is, or the next process takes it over while the first, which
// refreshes it only after the refresh period, holds it too.
func TestAcquireDoesNotReturnAStaleLock(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs renameat2 (Linux)")
	}
	for _, tc := range []struct {
		step, prefix    string
		parked, staleIn bool
	}{
		{step: "acquire:made", prefix: ".stale-"},
		{step: "unpark:stamped", prefix: ".claim-", parked: true},
		{step: "takeover:seen", prefix: ".stale-", staleIn: true},
	} {
		t.Run(tc.step, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "s.jsonl")
			if err := os.WriteFile(target, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			if tc.parked {
				l := acquire(t, target, filelock.Options{Park: true})
				l.ParkOnRelease()
				if err := l.Release(); err != nil {
					t.Fatal(err)
				}
			}
			if tc.staleIn {
				// Taken out of the glob by its name.
				plantStaleLock(t, target)
			}
			l := acquire(t, target, stallAt(t, dir, tc.step, tc.prefix, tc.parked))
			if held(t, target, filelock.Options{Stale: time.Second}) {
				if err := l.Check(); err != nil {
					t.Errorf("Check: %v", err)
				}
			} else {
				t.Error("the lock Acquire returned was taken over at once as stale")
			}
			_ = l.Release()
		})
	}
}

// A holder that stalls between checking its lock and releasing it, for
// longer than the stale period, finds its lock taken over, and may find in
// its place a newer lock whose directory has the inode number its own had
// (file systems such as ext4 hand a freed inode number to the next
// directory made): its release must leave that lock alone too.
func TestReleaseSparesALockThatReusedItsInode(t *testing.T) {
	target := filepath.Join(t.TempDir(), "s.jsonl")
	var other *filelock.Lock
	reached := false
	hooked := reuseInodeAt(t, target, "release:verified", &reached, &other)
	l := acquire(t, target, hooked)
	err := l.Release()
	if !reached {
		t.Fatal("the step release:verified was never reached")
	}
	if other == nil {
		t.Fatal("no newer lock was taken")
	}
	if err == nil {
		t.Error("the stalled holder's release reported no loss")
	}
	if err := other.Check(); err != nil {
		t.Errorf("the newer lock after the stalled holder's release: %v", err)
	}
	if err := other.Release(); err != nil {
		t.Error(err)
	}
}

// reuseInodeAt returns step hook options that, at the named step of the
// hooked lock of target, age that lock past the stale period, take it over
// and release it (its directory is removed, as far as its name goes), and
// then lock target again until the new lock's directory has the inode
// number the hooked lock's had, or 100 times, returning the last lock
// through *other. Before holders kept their directory open, ext4 handed
// the number out again within a few tries.
func reuseInodeAt(t *testing.T, target, at string, reached *bool, other **filelock.Lock) filelock.Options {
	t.Helper()
	dir, path := filepath.Dir(target), target+filelock.Suffix
	o := filelock.Options{Stale: time.Second, Timeout: time.Second}
	return filelock.WithStepHook(o, func(step string) {
		if step != at || *reached {
			return
		}
		*reached = true
		ours := lockDir(t, target)
		old := time.Now().Add(-time.Minute)
		if err := os.Chtimes(path, old, old); err != nil {
			t.Error(err)
			return
		}
		taker, err := filelock.Acquire(t.Context(), target, o) // removes ours
		if err != nil {
			t.Error(err)
			return
		}
		if err := taker.Release(); err != nil {
			t.Error(err)
			return
		}
		time.Sleep(20 * time.Millisecond) // stamps differ, as after a real stall
		for i := range 100 {
			l, err := filelock.Acquire(t.Context(), target, o)
			if err != nil {
				t.Error(err)
				return
			}
			if os.SameFile(lockDir(t, target), ours) || i == 99 {
				if i == 99 {
					// A holder's directory keeps its number while held
					// (see Lock); the newer lock is another's all the same.
					t.Log("no newer lock got the inode number of the stalled holder's directory")
				}
				*other = l
				return
			}
			if err := l.Release(); err != nil {
				t.Error(err)
				return
			}
			// Keep the inode number just freed taken.
			if err := os.Mkdir(filepath.Join(dir, fmt.Sprintf("fill%d", i)), 0o700); err != nil {
				t.Error(err)
				return
			}
		}
	})
}

// The same for a move: a holder stalled between checking its lock and
// renaming it to the next target's name must not carry off a newer lock
// that reused its directory's inode number, leaving that lock's target
// free while its holder writes.
func TestMoveSparesALockThatReusedItsInode(t *testing.T) {
	skipWithoutMove(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	var other *filelock.Lock
	reached := false
	l := acquire(t, a, reuseInodeAt(t, a, "move:verified", &reached, &other))
	err := l.Move(b)
	if !reached {
		t.Fatal("the step move:verified was never reached")
	}
	if other == nil {
		t.Fatal("no newer lock was taken")
	}
	if err == nil {
		t.Error("the stalled holder's move reported no loss")
		_ = l.Release()
	}
	if err := other.Check(); err != nil {
		t.Errorf("the newer lock after the stalled holder's move: %v", err)
	}
	if err := other.Release(); err != nil {
		t.Error(err)
	}
	if _, err := os.Lstat(b + filelock.Suffix); err == nil {
		t.Error("b is locked by nobody")
	}
}

// A waiter makes a lock directory of its own only when the lock looks
// free: on the first attempt, and after a wait only once the lock is gone.
// Making one on every retry while the lock is held costs a mkdir and an
// rmdir each time, what parking exists to save.
func TestWaiterMakesNoDirectoryWhileTheLockIsHeld(t *testing.T) {
	target := filepath.Join(t.TempDir(), "s.jsonl")
	held, err := filelock.Acquire(t.Context(), target, filelock.Options{})
	if err != nil {
		t.Fatal(err)
	}
	made := 0
	o := filelock.WithStepHook(filelock.Options{Timeout: 300 * time.Millisecond, MaxWait: 10 * time.Millisecond}, func(step string) {
		if step == "acquire:made" {
			made++
		}
	})
	if _, err := filelock.Acquire(t.Context(), target, o); err == nil {
		t.Fatal("acquired a held lock")
	}
	if made != 1 {
		t.Errorf("the waiter made %d lock directories while the lock was held, want 1", made)
	}
	if err := held.Release(); err != nil {
		t.Fatal(err)
	}
}

// A stale lock directory that holds something (nothing this package puts
// there, but something may have been) is taken over all the same, and
// what it held is kept, set aside under a hidden name ending in ".lock"
// that readers skip, as Release keeps what a lock it releases holds.
func TestTakeOverKeepsWhatAStaleLockHolds(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "s.jsonl")
	path := target + filelock.Suffix
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path, "note"), []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	l, err := filelock.Acquire(t.Context(), target, filelock.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	kept, _ := filepath.Glob(filepath.Join(dir, ".stale-*.lock", "note"))
	if len(kept) != 1 {
		t.Fatalf("what the stale lock held is gone: %v", kept)
	}
	if data, err := os.ReadFile(kept[0]); err != nil || string(data) != "keep" {
		t.Errorf("kept note: %q, %v", data, err)
	}
	if !filelock.Leftover(filepath.Base(filepath.Dir(kept[0]))) {
		t.Errorf("%s is not a name readers skip", filepath.Dir(kept[0]))
	}
}

// A process stalled for the stale period right after placing its new lock
// directory (acquire:placed) or swapping it in for a stale lock
// (takeover:aside), whose lock was taken over and removed meanwhile, must
// not take a newer lock that got its directory's inode number for its
// own.
func TestAcquireDoesNotAdoptALockThatReusedItsInode(t *testing.T) {
	for _, tc := range []struct {
		step  string
		stale bool // a stale lock is there to take over
	}{
		{step: "acquire:placed"},
		{step: "takeover:aside", stale: true},
	} {
		t.Run(tc.step, func(t *testing.T) {
			target := filepath.Join(t.TempDir(), "s.jsonl")
			if tc.stale {
				plantStaleLock(t, target)
			}
			var other *filelock.Lock
			reached := false
			hooked := reuseInodeAt(t, target, tc.step, &reached, &other)
			l, err := filelock.Acquire(t.Context(), target, hooked)
			if !reached {
				t.Fatalf("the step %s was never reached", tc.step)
			}
			if other == nil {
				t.Fatal("no newer lock was taken")
			}
			if err == nil && l.Check() == nil && other.Check() == nil {
				t.Error("two holders: the stalled process took the newer lock for its own")
			}
			if err == nil {
				_ = l.Release()
			}
			if err := other.Release(); err != nil {
				t.Error(err)
			}
		})
	}
}

// plantStaleLock makes target's lock directory an hour old, as a killed
// holder leaves it, and returns its path.
func plantStaleLock(t *testing.T, target string) string {
	t.Helper()
	path := target + filelock.Suffix
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	return path
}

// refreshHooked returns o set to refresh every 50 ms, and a channel closed
// once a refresh has passed the step touch:verified (after o's own hook
// ran there) and is about to stamp the lock.
func refreshHooked(o filelock.Options) (filelock.Options, <-chan struct{}) {
	o.Refresh = 50 * time.Millisecond
	reached := make(chan struct{})
	var once sync.Once
	return filelock.ThenAtStep(o, func(step string) {
		if step == "touch:due" {
			once.Do(func() { close(reached) })
		}
	}), reached
}

// waitFor waits for ch, failing the test after 5 s.
func waitFor(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s never happened", what)
	}
}

// A holder whose refresh stalls between checking its lock and stamping
// it, for longer than the stale period, finds its lock taken over: its
// stamp must not land on the taker's lock, whose holder would then count
// it lost (and nobody would hold the lock), and it must count its own
// lock lost.
func TestRefreshStampsOnlyItsOwnLock(t *testing.T) {
	target := filepath.Join(t.TempDir(), "s.jsonl")
	var taker *filelock.Lock
	o, reached := refreshHooked(takeOverAt(t, target, "touch:due", &taker))
	l := acquire(t, target, o)
	waitFor(t, reached, "a refresh")
	// Check waits for the refresh to finish: both hold the lock's mutex.
	if l.Check() == nil {
		t.Error("the stalled holder still counts its lock held after it was taken over")
	}
	if taker == nil {
		t.Fatal("no taker")
	}
	if err := taker.Check(); err != nil {
		t.Errorf("the taker's lock after the stalled holder's refresh: %v", err)
	}
	_ = l.Release()
	if err := taker.Release(); err != nil {
		t.Error(err)
	}
}

// The same where a newer lock, taken after the taker released, has the
// inode number the stalled holder's directory had: the refresh must not
// take that lock for its own.
func TestRefreshDoesNotAdoptALockThatReusedItsInode(t *testing.T) {
	target := filepath.Join(t.TempDir(), "s.jsonl")
	var other *filelock.Lock
	hookRan := false
	o, reached := refreshHooked(reuseInodeAt(t, target, "touch:due", &hookRan, &other))
	l := acquire(t, target, o)
	waitFor(t, reached, "a refresh")
	held := l.Check() == nil
	if other == nil {
		t.Fatal("no newer lock was taken")
	}
	if held {
		t.Error("the stalled holder took the newer lock for its own")
	}
	if err := other.Check(); err != nil {
		t.Errorf("the newer lock after the stalled holder's refresh: %v", err)
	}
	_ = l.Release()
	if err := other.Release(); err != nil {
		t.Error(err)
	}
}

// While a lock is held, no other directory gets the inode number of its
// lock directory, even once that directory is removed behind the holder's
// back: the holder keeps it open. The checks of Release, Move and the
// refresh rely on that (a newer lock with the same number would pass for
// the holder's own).
func TestHeldDirectoryKeepsItsInodeNumber(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the directory is kept open on Linux")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "s.jsonl")
	l := acquire(t, target, filelock.Options{})
	ours := lockDir(t, target)
	if err := os.Remove(target + filelock.Suffix); err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		p := filepath.Join(dir, fmt.Sprintf("d%d", i))
		if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Lstat(p); err != nil || os.SameFile(st, ours) {
			t.Fatalf("%s got the held lock directory's inode number (%v)", p, err)
		}
	}
	if err := l.Release(); err == nil {
		t.Error("releasing a removed lock reported no loss")
	}
}

// Every lock closes the directory it kept open, whichever way it was
// taken (made, parked, taken over) and however it ends (released, lost).
func TestLocksCloseTheirDirectories(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts /proc/self/fd")
	}
	open := func() int {
		names, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(names)
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	o := filelock.Options{Park: true, Stale: time.Second, Timeout: 2 * time.Second}
	before := open()
	for range 20 {
		l := acquire(t, target, o) // parked after the first round
		l.ParkOnRelease()
		if err := l.Release(); err != nil {
			t.Fatal(err)
		}
		plantStaleLock(t, target)
		l = acquire(t, target, o) // taken over
		if err := os.Remove(target + filelock.Suffix); err != nil {
			t.Fatal(err)
		}
		if err := l.Release(); err == nil {
			t.Fatal("releasing a removed lock reported no loss")
		}
	}
	// Closing is not left to the garbage collector's finalizers.
	if after := open(); after > before {
		t.Errorf("%d descriptors open before, %d after 60 locks", before, after)
	}
}

// A process stalled in a takeover, after swapping its new lock directory
// in and for less than the stale period, places a lock whose stamp is no
// longer recent and stamps it fresh (see TestAcquireDoesNotReturnAStaleLock).
// If a late taker of the same stale lock, which saw it stale before the
// swap, has the new lock swapped out for a moment just then, the process
// must wait for the look to end, as a holder does (see verifyLocked), and
// hold its lock: given up, the lock is swapped back with nobody holding
// it, and blocks every process, this one too, until it is stale.
func TestAcquireOutlastsALateTakersLook(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs exchanges (Linux)")
	}
	target := filepath.Join(t.TempDir(), "s.jsonl")
	plantStaleLock(t, target)
	const stale = time.Second
	seen, goOn, aside := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var lateSeen, lateAside, ourSeen, ourAside sync.Once
	late := filelock.WithStepHook(filelock.Options{Stale: stale, Timeout: 200 * time.Millisecond}, func(step string) {
		switch step {
		case "takeover:seen": // saw the planted lock stale: stalls
			lateSeen.Do(func() {
				close(seen)
				<-goOn
			})
		case "takeover:aside": // has the new lock swapped out: looks
			lateAside.Do(func() {
				close(aside)
				time.Sleep(5 * time.Millisecond)
			})
		}
	})
	lateDone := make(chan struct{})
	var lateErr error
	o := filelock.WithStepHook(filelock.Options{Stale: stale, Timeout: stale / 2}, func(step string) {
		switch step {
		case "takeover:seen":
			ourSeen.Do(func() {
				go func() {
					defer close(lateDone)
					var l *filelock.Lock
					if l, lateErr = filelock.Acquire(t.Context(), target, late); lateErr == nil {
						_ = l.Release()
					}
				}()
				<-seen
			})
		case "takeover:aside":
			ourAside.Do(func() {
				// Past a quarter of the stale period: the lock is
				// stamped fresh before it is returned.
				time.Sleep(stale/4 + 50*time.Millisecond)
				close(goOn)
				<-aside
			})
		}
	})
	start := time.Now()
	l, err := filelock.Acquire(t.Context(), target, o)
	<-lateDone
	if err != nil {
		t.Fatalf("Acquire after %v: %v", time.Since(start), err)
	}
	if lateErr == nil {
		t.Error("the late taker got the lock too")
	}
	if err := l.Check(); err != nil {
		t.Errorf("Check: %v", err)
	}
	if !held(t, target, filelock.Options{Stale: stale}) {
		t.Error("the lock Acquire returned is not held")
	}
	if err := l.Release(); err != nil {
		t.Error(err)
	}
}

// A parked directory keeps its inode from holder to holder, and a holder
// keeps its directory open until its release ends: the next holder, which
// takes the directory while the last one still has it open, holds the
// lock all the same, and keeps it once the last one has closed it.
func TestParkedDirectoryTakenWhileItsLastHolderHasItOpen(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("parking needs no-replace renames (Linux)")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var next *filelock.Lock
	o := filelock.WithStepHook(filelock.Options{Park: true}, func(step string) {
		if step == "release:parked" && next == nil {
			next = acquire(t, target, filelock.Options{Park: true})
		}
	})
	l := acquire(t, target, o)
	ours := lockDir(t, target)
	l.ParkOnRelease()
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if next == nil {
		t.Fatal("the step release:parked was never reached")
	}
	if !os.SameFile(lockDir(t, target), ours) {
		t.Error("the next lock is not the parked directory")
	}
	if err := next.Check(); err != nil {
		t.Errorf("the next holder's lock: %v", err)
	}
	if !held(t, target, filelock.Options{}) {
		t.Error("the next holder's lock is not held")
	}
	next.ParkOnRelease()
	if err := next.Release(); err != nil {
		t.Error(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, filelock.IdleName)); err != nil {
		t.Errorf("the directory was not parked again: %v", err)
	}
}
