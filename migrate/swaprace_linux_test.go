package migrate_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

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
// again in it, and the destination's locks taken (Dir.Lock). Nothing
// outside may change, lock directories included where Dir.Lock goes
// through the handle (see safefstest.LocksByPath). The code that created the
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
	want := safefstest.TreeHash(t, outside, safefstest.LocksByPath)

	// home returns the destination home of attempt i and its projects/,
	// which is exchanged with a link to outside while the attempt runs.
	base := t.TempDir()
	home := func(i int) (string, string) {
		h := filepath.Join(base, fmt.Sprint(i))
		projects := filepath.Join(h, storage.ProjectsDirName)
		if err := os.MkdirAll(projects, 0o700); err != nil {
			t.Fatal(err)
		}
		return h, projects
	}

	const attempts = 3000
	deadline := time.Now().Add(10 * time.Second)
	done, copied := 0, 0
	var marked atomic.Int64 // told by the goroutine that opens the destination
	for i := 0; i < attempts && time.Now().Before(deadline); i++ {
		done++
		h, projects := home(i)
		stop := safefstest.SwapWithLink(t, projects, outside)
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
		_, err := migrate.Run(t.Context(), opts)
		stop()
		if err == nil {
			copied++
		}
		if got := safefstest.TreeHash(t, outside, safefstest.LocksByPath); got != want {
			t.Fatalf("attempt %d (%d marked, %d copied): the directory outside the destination home changed", i+1, marked.Load(), copied)
		}
	}
	if marked.Load() == 0 {
		t.Fatalf("no attempt of %d marked its destination: the test proved nothing", done)
	}
	t.Logf("%d attempts, %d marked, %d copied whole; nothing outside changed", done, marked.Load(), copied)
}
