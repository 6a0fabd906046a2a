package migrate_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/lite-agent/lite-agent-go/internal/safefs/safefstest"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestSwappedDestinationProjectsNeverLeadsOutside is the race of
// internal/safefs's TestSwappedProjectsDirectoryNeverLeadsOutside, played
// on a migration's destination: another local user who can write in the
// destination home exchanges its projects/ with a symlink to a directory
// outside the home (renameat2 RENAME_EXCHANGE, in a tight loop) while
// migrations of one project into that home run one after another, each
// into a home of its own. The outside directory holds an empty directory
// named as the project, which is all a migration needs to go on there:
// the destination found empty, made (AnchorUnsynced) and anchored, and
// every directory and file of the copy made, written, stamped and removed
// again in it. Nothing outside may change but the migration's lock (made
// by path, see safefstest.TreeHash). The code that created the
// destination's directories with os.MkdirAll and then anchored the path,
// and made, stamped and removed the copy's directories and files at the
// paths Resolve returned, wrote there within a few attempts.
func TestSwappedDestinationProjectsNeverLeadsOutside(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	hash := src.paths.Hash
	outside := t.TempDir()
	if err := os.Mkdir(filepath.Join(outside, hash), 0o700); err != nil {
		t.Fatal(err)
	}
	want := safefstest.TreeHash(t, outside, true)

	// home returns the destination home of attempt i, its projects/ and
	// the link to outside it is exchanged with.
	base := t.TempDir()
	home := func(i int) (string, [2]string) {
		h := filepath.Join(base, fmt.Sprint(i))
		pair := [2]string{filepath.Join(h, storage.ProjectsDirName), filepath.Join(h, "swap")}
		if err := os.MkdirAll(pair[0], 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, pair[1]); err != nil {
			t.Fatal(err)
		}
		return h, pair
	}
	_, probe := home(-1)
	if err := unix.Renameat2(unix.AT_FDCWD, probe[0], unix.AT_FDCWD, probe[1], unix.RENAME_EXCHANGE); err != nil {
		t.Skipf("the file system cannot exchange names (%v)", err)
	}

	var cur atomic.Pointer[[2]string]
	cur.Store(&probe)
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		for !stop.Load() {
			p := cur.Load()
			_ = unix.Renameat2(unix.AT_FDCWD, p[0], unix.AT_FDCWD, p[1], unix.RENAME_EXCHANGE)
		}
	})
	defer func() {
		stop.Store(true)
		wg.Wait()
	}()

	const attempts = 3000
	deadline := time.Now().Add(10 * time.Second)
	done, copied := 0, 0
	var marked atomic.Int64 // told by the goroutine that opens the destination
	for i := 0; i < attempts && time.Now().Before(deadline); i++ {
		done++
		h, pair := home(i)
		cur.Store(&pair)
		opts := migrate.Options{
			From:    migrate.Endpoint{Workdir: workdir, Storage: src.opts},
			To:      migrate.Endpoint{Storage: storage.Options{Home: h}},
			Workers: 2,
		}
		migrate.OnStep(&opts, func(name string) {
			if name == "marked" {
				marked.Add(1)
			}
		})
		if _, err := migrate.Run(t.Context(), opts); err == nil {
			copied++
		}
		if got := safefstest.TreeHash(t, outside, true); got != want {
			t.Fatalf("attempt %d (%d marked, %d copied): the directory outside the destination home changed", i+1, marked.Load(), copied)
		}
	}
	stop.Store(true)
	wg.Wait()
	if marked.Load() == 0 {
		t.Fatalf("no attempt of %d marked its destination: the test proved nothing", done)
	}
	t.Logf("%d attempts, %d marked, %d copied whole; nothing outside changed", done, marked.Load(), copied)
}
