package migrate_test

import (
	"errors"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A migration paused (SIGSTOP) for longer than the destination lock's
// stale period loses the lock to a rerun, which clears what the paused one
// wrote, writes its own marker and copies. When the paused migration
// resumes, its next write fails (its file is the rerun's now, or its
// directory is gone) and it gives up, removing what it made: it must not
// remove the marker, which is the rerun's. Without the marker the
// destination the rerun is still writing passes for a finished copy
// (CheckComplete, verify, the retention sweep), and if the rerun is killed
// then, a partial copy is all there is.
func TestAPausedMigrationThatLostTheLockKeepsTheRerunsMarker(t *testing.T) {
	// The paused migration copied two files: its next one is a session
	// log, created in a directory the rerun removed and made again.
	testPausedMigration(t, 2)
}

// A paused migration that lost the lock must not write into the rerun's
// destination either: resumed before an archive (written by path, into the
// rerun's new directories), it would put its own files where the rerun
// then fails to create them, and the rerun, giving up, would leave them
// behind without a marker, a partial copy passing for a finished one.
func TestAPausedMigrationThatLostTheLockWritesNothingMore(t *testing.T) {
	testPausedMigration(t, 1)
}

// testPausedMigration pauses a migration after it copied after files, runs
// a rerun that takes its lock over, and resumes it once the rerun copied as
// many: the rerun must keep its marker and succeed.
func testPausedMigration(t *testing.T, after int) {
	src := buildProject(t, t.TempDir(), workdir, aead(t, "k1", 1), "")
	dstHome := t.TempDir()
	dst := resolve(t, workdir, storage.Options{Home: dstHome})
	root := dst.ProjectDir()

	child := childtest.Start(t, "ready", childEnv+"=1", "MIGRATE_FROM="+src.home, "MIGRATE_TO="+dstHome, "MIGRATE_AFTER="+strconv.Itoa(after))
	// Paused mid-migration: its lock is no longer refreshed.
	if err := child.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	// Paused past the stale period: its lock is as old as that, with no
	// refresh since (one that slips in only makes the rerun wait the
	// stale period out).
	childtest.StaleLocks(t, dstHome)

	to := aead(t, "k2", 2)
	var once sync.Once
	markerDuringRerun := errors.New("not looked at")
	_, err := migrate.Run(t.Context(), migrate.Options{
		From:             migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:               migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: to}},
		Workers:          1,
		ProgressInterval: -1,
		Progress: func(p migrate.Progress) {
			if p.Files < after {
				return
			}
			once.Do(func() {
				// The paused migration resumes and goes on from where it
				// stopped, into the rerun's destination.
				_ = child.Signal(syscall.SIGCONT)
				done := make(chan struct{})
				go func() { _ = child.Release(); close(done) }()
				select {
				case <-done:
				case <-time.After(30 * time.Second):
					t.Error("the resumed migration did not end")
				}
				markerDuringRerun = migrate.CheckComplete(root)
			})
		},
	})
	if !errors.Is(markerDuringRerun, migrate.ErrIncomplete) {
		t.Errorf("while the rerun was copying, after the paused migration gave up: CheckComplete = %v, want ErrIncomplete (%s kept)", markerDuringRerun, filepath.Join(root, migrate.MarkerName))
	}
	if err != nil {
		t.Fatalf("rerun: %v", err)
	}
	if err := migrate.CheckComplete(root); err != nil {
		t.Error(err)
	}
	equalContents(t, read(t, src, dst, storage.Encoding{Codec: to, ProjectID: dst.Hash}), read(t, src, src.paths, src.enc()))
}
