package retention

import (
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
func TestReleaseSparesALockTakenOverDuringRemoval(t *testing.T) {
	now := time.Now()
	home := t.TempDir()
	sessions := filepath.Join(home, "projects", "aaaaaaaaaaaaaaaa", "sessions")
	dir := filepath.Join(sessions, "s.context")
	if err := os.MkdirAll(filepath.Join(dir, "notes"), 0o700); err != nil {
		t.Fatal(err)
	}
	for i := range 8000 {
		if err := os.WriteFile(filepath.Join(dir, "notes", fmt.Sprintf("%064x.md", i)), []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := now.Add(-40 * 24 * time.Hour)
	_ = filepath.Walk(dir, func(p string, _ os.FileInfo, _ error) error { return os.Chtimes(p, old, old) })
	lockPath := dir + filelock.Suffix
	got := make(chan *filelock.Lock, 1)
	_, err := Sweep(t.Context(), Options{
		Home: home, now: func() time.Time { return now },
		beforeRemove: func(p string) {
			if p != dir {
				return
			}
			go func() {
				// Wait for the sweep's lock, age it as 10 s would, take it over.
				for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
					if _, err := os.Lstat(lockPath); err == nil {
						break
					}
				}
				ages := now.Add(-time.Minute)
				_ = os.Chtimes(lockPath, ages, ages)
				l, err := filelock.Acquire(t.Context(), dir, filelock.Options{Timeout: 5 * time.Second})
				if err != nil {
					t.Error(err)
				}
				got <- l
			}()
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
	_ = filepath.Walk(dir, func(p string, _ os.FileInfo, _ error) error { return os.Chtimes(p, old, old) })
	_ = os.Chtimes(dir+filelock.Suffix, killed, killed)
	rep, err := Sweep(t.Context(), Options{Home: home, now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(dir); err == nil {
		t.Errorf("the half-removed archive is still there; skipped: %+v", rep.Skipped)
	}
}
