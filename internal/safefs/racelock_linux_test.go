//go:build !safefs_portable

package safefs_test

import (
	"context"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/internal/safefs/safefstest"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestSwappedProjectsDirectoryNeverLeadsALockOutside is the swap race of
// TestSwappedProjectsDirectoryNeverLeadsOutside on the lock directories:
// while projects/ is exchanged with a symlink to a directory outside the
// home laid out the same way (renameat2 RENAME_EXCHANGE, in a tight loop),
// Dir.Lock takes and releases locks in the anchored directory (parked
// and not), below it, and of the directory itself (beside it, in its
// parent), and RemoveTree takes its own. Nothing outside may change, lock
// directories and directories' times included, and every error must be a
// *storage.Error. With the locks taken by path (Resolve, then
// filelock.Acquire) the outside tree changed within the first few
// attempts.
func TestSwappedProjectsDirectoryNeverLeadsALockOutside(t *testing.T) {
	for _, each := range []bool{false, true} {
		name := "anchored before"
		if each {
			name = "anchored each time"
		}
		t.Run(name, func(t *testing.T) { lockSwapRace(t, each) })
	}
}

func lockSwapRace(t *testing.T, anchorEach bool) {
	sessions, outside, want, first, stop := swapRaceSetup(t)
	defer stop()
	typed := storageErrorsOnly(t)
	ctx := context.Background()
	// A short refresh period makes the held locks refresh (and look at
	// their directories) while the swaps go on.
	opts := filelock.Options{Timeout: 200 * time.Millisecond, Stale: 40 * time.Millisecond}
	parked := opts
	parked.Park = true
	const attempts = 1000
	deadline := time.Now().Add(10 * time.Second)
	done, locked := 0, 0
	for i := 0; i < attempts && time.Now().Before(deadline); i++ {
		done++
		d, err := first, error(nil)
		if anchorEach {
			d, err = safefs.Anchor(sessions)
			typed("anchor", err)
		}
		if err == nil {
			for _, c := range []struct {
				rel  string
				opts filelock.Options
			}{
				{"s.jsonl", parked},
				{"n.json", opts},
				{"", opts},
				{"x.context/index.jsonl", opts},
			} {
				l, err := d.Lock(ctx, c.rel, c.opts)
				typed("lock "+c.rel, err)
				if err != nil {
					continue
				}
				locked++
				l.ParkOnRelease()
				if i%8 == 0 {
					time.Sleep(25 * time.Millisecond) // a refresh or two
				}
				typed("check "+c.rel, l.Check())
				typed("release "+c.rel, l.Release())
			}
		}
		typed("remove tree", safefs.RemoveTree(ctx, storage.KindArchive, sessions, "a.context"))
		if got := safefstest.TreeHash(t, outside, false); got != want {
			t.Fatalf("attempt %d (%d locks taken): the directory outside the home changed", i+1, locked)
		}
	}
	stop()
	if locked == 0 {
		t.Fatalf("no lock of %d attempts was taken: the test proved nothing", done)
	}
	t.Logf("%d attempts, %d locks taken; nothing outside changed", done, locked)
}
