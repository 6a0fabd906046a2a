package migrate_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/safefs/safefstest"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestClearStaleLockNeverLeadsOutside races ClearStaleLock (cleanup's
// removal of the lock a killed migration left) against projects/ of the
// home exchanged with a link to a directory outside that holds a stale
// lock of its own under the same names. The lock in the home is planted
// stale again before each attempt; the one outside must stay, and every
// error must be a *storage.Error or a *migrate.LockHeldError. Taken by
// path (filelock.Acquire), the takeover and release removed the lock
// outside.
func TestClearStaleLockNeverLeadsOutside(t *testing.T) {
	if safefstest.LocksByPath {
		t.Skip("this build takes locks by path (safefs_portable, as on Windows)")
	}
	home, outside := t.TempDir(), t.TempDir()
	const hash = "0123456789abcdef"
	projects := filepath.Join(home, storage.ProjectsDirName)
	root := filepath.Join(projects, hash)
	old := time.Now().Add(-time.Hour)
	plant := func(dir string) {
		t.Helper()
		p := filepath.Join(dir, migrate.LockName)
		if err := os.MkdirAll(p, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	plant(root)
	plant(filepath.Join(outside, hash))
	want := safefstest.TreeHash(t, outside, false)
	stop := safefstest.SwapWithLink(t, projects, outside)
	defer stop()

	const attempts = 2000
	deadline := time.Now().Add(6 * time.Second)
	done, cleared := 0, 0
	for i := 0; i < attempts && time.Now().Before(deadline); i++ {
		done++
		// Planted through the path of the real directory, which is in
		// place or swapped to the link's name: whichever, the lock in
		// the home is stale again.
		for _, d := range []string{root, filepath.Join(home, ".swap-"+storage.ProjectsDirName, hash)} {
			if fi, err := os.Lstat(filepath.Dir(d)); err == nil && fi.IsDir() {
				_ = os.Mkdir(filepath.Join(d, migrate.LockName), 0o700)
				_ = os.Chtimes(filepath.Join(d, migrate.LockName), old, old)
			}
		}
		_, err := migrate.ClearStaleLock(t.Context(), root, false)
		var se *storage.Error
		var he *migrate.LockHeldError
		switch {
		case err == nil:
			cleared++
		case !errors.As(err, &se) && !errors.As(err, &he):
			t.Fatalf("attempt %d: error %v (%T) is neither a *storage.Error nor a *migrate.LockHeldError", i+1, err, err)
		}
		if got := safefstest.TreeHash(t, outside, false); got != want {
			t.Fatalf("attempt %d (%d cleared): the directory outside the home changed", i+1, cleared)
		}
	}
	stop()
	if cleared == 0 {
		t.Fatalf("no attempt of %d cleared the lock: the test proved nothing", done)
	}
	t.Logf("%d attempts, %d cleared; nothing outside changed", done, cleared)
}
