package retention

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
)

// A removal that outlasts the stale period (simulated here by ageing the
// sweep's lock directory) lets a store take the sweep's lock over. The
// sweep's release must then not remove the store's live lock: a third
// process could take it while the store still writes.
//
// The store takes the lock over while the sweep removes the archive; if
// the removal ends first, the sweep waits before its release until the
// takeover is done, so that the release always comes after it (a few
// hundred notes are enough, not thousands to outlast the takeover).
func TestReleaseSparesALockTakenOverDuringRemoval(t *testing.T) {
	now := time.Now()
	home := t.TempDir()
	sessions := filepath.Join(home, "projects", "aaaaaaaaaaaaaaaa", "sessions")
	dir := filepath.Join(sessions, "s.context")
	bulkNotes(t, dir, 4*checkEvery)
	ageTree(t, dir, now.Add(-40*24*time.Hour))
	lockPath := dir + filelock.Suffix
	got := make(chan *filelock.Lock, 1)
	taken := make(chan struct{})
	_, err := Sweep(t.Context(), Options{
		Home: home, now: func() time.Time { return now },
		afterLock: func(p string) {
			if p != dir {
				return
			}
			go func() {
				defer close(taken)
				// Age the sweep's lock as 10 s would, take it over.
				ages := now.Add(-time.Minute)
				_ = os.Chtimes(lockPath, ages, ages)
				l, err := filelock.Acquire(t.Context(), dir, filelock.Options{Timeout: 5 * time.Second})
				if err != nil {
					t.Error(err)
				}
				got <- l
			}()
		},
		beforeRelease: func(p string) {
			if p == dir {
				<-taken
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	l := <-got
	if l == nil {
		t.Fatal("no lock")
	}
	if _, err := os.Lstat(lockPath); err != nil {
		t.Errorf("the store's live lock %s was removed by the sweep's release: %v", lockPath, err)
	}
	if err := l.Check(); err != nil {
		t.Errorf("store lock after the sweep: %v", err)
	}
	_ = l.Release()
}

// A sweep killed while removing an archive leaves what it had not removed
// yet and its lock directory <entry>.lock, which nothing refreshes or
// removes. Once that lock is stale the next sweep takes it over, as a
// store would, and finishes the removal, instead of skipping the
// half-removed archive as locked for ever.
func TestRemovalLeftByAKilledSweepIsFinished(t *testing.T) {
	now := time.Now()
	home := t.TempDir()
	sessions := filepath.Join(home, "projects", "aaaaaaaaaaaaaaaa", "sessions")
	dir := filepath.Join(sessions, "s.context")
	if err := os.MkdirAll(filepath.Join(dir, "notes"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes", "b.md"), []byte("left"), 0o600); err != nil {
		t.Fatal(err)
	}
	// What the killed sweep left: the rest of the archive, and its lock,
	// as old as the kill (an hour ago).
	if err := os.Mkdir(dir+filelock.Suffix, 0o700); err != nil {
		t.Fatal(err)
	}
	old, killed := now.Add(-40*24*time.Hour), now.Add(-time.Hour)
	ageTree(t, dir, old)
	_ = os.Chtimes(dir+filelock.Suffix, killed, killed)
	rep, err := Sweep(t.Context(), Options{Home: home, now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(dir); err == nil {
		t.Errorf("the half-removed archive is still there; skipped: %+v", rep.Skipped)
	}
}

// A lock directory left unrefreshed for longer than the stale period (by
// a killed store or sweep) protects nothing: the stores take it over, and
// so does the sweep, which removes the old entry and leaves no lock. A dry
// run reports the same removal and leaves the lock alone.
func TestStaleLockIsTakenOver(t *testing.T) {
	for _, dry := range []bool{false, true} {
		t.Run(fmt.Sprintf("DryRun=%v", dry), func(t *testing.T) {
			now := time.Now()
			home := t.TempDir()
			sessions := filepath.Join(home, "projects", "aaaaaaaaaaaaaaaa", "sessions")
			if err := os.MkdirAll(sessions, 0o700); err != nil {
				t.Fatal(err)
			}
			log, live := filepath.Join(sessions, "old.jsonl"), filepath.Join(sessions, "live.jsonl")
			for _, p := range []string{log, live} {
				if err := os.WriteFile(p, []byte("{}\n"), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Mkdir(p+filelock.Suffix, 0o700); err != nil {
					t.Fatal(err)
				}
			}
			old, stale := now.Add(-40*24*time.Hour), now.Add(-filelock.DefaultStale-time.Minute)
			for _, p := range []string{log, live} {
				if err := os.Chtimes(p, old, old); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Chtimes(log+filelock.Suffix, stale, stale); err != nil {
				t.Fatal(err)
			}
			rep, err := Sweep(t.Context(), Options{Home: home, DryRun: dry, now: func() time.Time { return now }})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Removed) != 1 || rep.Removed[0].Path != log {
				t.Errorf("removed %+v, want only %s; skipped %+v", rep.Removed, log, rep.Skipped)
			}
			want := map[string]bool{log: dry, log + filelock.Suffix: dry, live: true, live + filelock.Suffix: true}
			for p, there := range want {
				if _, err := os.Lstat(p); (err == nil) != there {
					t.Errorf("%s: there %v, want %v", p, err == nil, there)
				}
			}
		})
	}
}

// A lock taken over by a store during the removal (the sweep stalled past
// the stale period) stops the removal: the entry stays for the store, the
// sweep reports it as locked with the reason, and leaves the store's lock.
func TestRemovalStopsWhenItsLockIsTakenOver(t *testing.T) {
	now := time.Now()
	home := t.TempDir()
	dir := filepath.Join(home, "projects", "aaaaaaaaaaaaaaaa", "sessions", "s.context")
	note := filepath.Join(dir, "notes", "a.md")
	if err := os.MkdirAll(filepath.Dir(note), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(note, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := now.Add(-40 * 24 * time.Hour)
	ageTree(t, dir, old)
	var store *filelock.Lock
	rep, err := Sweep(t.Context(), Options{
		Home: home, now: func() time.Time { return now },
		afterLock: func(p string) {
			ages := now.Add(-time.Minute)
			if err := os.Chtimes(dir+filelock.Suffix, ages, ages); err != nil {
				t.Error(err)
			}
			l, err := filelock.Acquire(t.Context(), dir, filelock.Options{Timeout: 5 * time.Second})
			if err != nil {
				t.Error(err)
			}
			store = l
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if store == nil {
		t.Fatal("the store took no lock")
	}
	defer store.Release()
	if len(rep.Removed) != 0 || len(rep.Skipped) != 1 || rep.Skipped[0].Path != dir ||
		rep.Skipped[0].Reason != SkipLocked || rep.Skipped[0].Err == nil {
		t.Errorf("removed %+v, skipped %+v; want %s skipped as locked, with the reason", rep.Removed, rep.Skipped, dir)
	}
	if _, err := os.Lstat(note); err != nil {
		t.Errorf("the entry was removed under the store's lock: %v", err)
	}
	if err := store.Check(); err != nil {
		t.Errorf("store lock after the sweep: %v", err)
	}
}

// removeTree stops at the first failed check and leaves the rest, the
// directory with it.
func TestRemoveTreeStopsAtAFailedCheck(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "d")
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	for i := range 3 * checkEvery {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d", i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r, err := os.OpenRoot(base)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	st, err := r.Lstat("d")
	if err != nil {
		t.Fatal(err)
	}
	lost := errors.New("lost")
	calls := 0
	err = removeTree(r, "d", st, func() error {
		if calls++; calls > 1 {
			return lost
		}
		return nil
	})
	if !errors.Is(err, lost) {
		t.Fatalf("removeTree: %v, want the check's error", err)
	}
	left, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("the directory went: %v", err)
	}
	if n := len(left); n == 0 || n > 2*checkEvery+2 {
		t.Errorf("%d entries left of %d", n, 3*checkEvery+1)
	}
	if err := removeTree(r, "d", st, func() error { return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(dir); err == nil {
		t.Error("a removal with its lock held left the directory")
	}
}
