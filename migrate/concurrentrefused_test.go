package migrate_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A migration whose source the plan refuses, and which opened the
// destination alongside its plan (creating the root, locking it, marking
// it), does not break another migration to the same destination that
// waits for its lock meanwhile: the waiter takes the lock once the
// refused run has removed what it made, and completes its copy. The
// waiter's polls may fall where the refused run's removal finds the root
// busy, so the race is run a few times.
func TestARefusedRunDoesNotFailAMigrationWaitingForItsLock(t *testing.T) {
	for i := range 5 {
		t.Run(fmt.Sprint(i), refusedRunBesideAWaiter)
	}
}

func refusedRunBesideAWaiter(t *testing.T) {
	// Two sources of the same project (one workdir) in two homes, to
	// one missing destination home.
	bad := buildProject(t, t.TempDir(), workdir, aead(t, "k1", 1), "")
	good := buildProject(t, t.TempDir(), workdir, aead(t, "k1", 1), "")
	if err := os.Symlink("elsewhere", filepath.Join(bad.paths.SessionsDir, "link.jsonl")); err != nil {
		t.Fatal(err)
	}
	dstHome := filepath.Join(t.TempDir(), "new", "home")
	to := storage.Options{Home: dstHome, Codec: aead(t, "k2", 2)}
	badOpts := migrate.Options{From: migrate.Endpoint{Workdir: workdir, Storage: bad.opts}, To: migrate.Endpoint{Storage: to}}
	goodOpts := migrate.Options{From: migrate.Endpoint{Workdir: workdir, Storage: good.opts}, To: migrate.Endpoint{Storage: to}}

	// Both find the destination missing; the refused run locks and
	// marks it first, and its plan fails once the other waits for the
	// lock. Each wait gives up after a while, so that a run that goes
	// another way fails the test instead of hanging it.
	goodPlanning, badMarked, goodWaits := make(chan struct{}), make(chan struct{}), make(chan struct{})
	await := func(c chan struct{}) {
		select {
		case <-c:
		case <-time.After(10 * time.Second):
		}
	}
	migrate.OnStep(&badOpts, func(name string) {
		switch name {
		case "anchored":
			await(goodPlanning)
		case "marked":
			close(badMarked)
		case "planning":
			await(badMarked)
			await(goodWaits)
			time.Sleep(100 * time.Millisecond) // the other is in its lock's wait
		}
	})
	goodLocks := sync.OnceFunc(func() { close(goodWaits) })
	migrate.OnStep(&goodOpts, func(name string) {
		switch name {
		case "anchored": // again if the root went while it waited
			await(badMarked)
			goodLocks()
		case "planning":
			close(goodPlanning)
		}
	})
	badErr := make(chan error, 1)
	go func() {
		_, err := migrate.Run(t.Context(), badOpts)
		badErr <- err
	}()
	rep, err := migrate.Run(t.Context(), goodOpts)
	if err := <-badErr; !errors.Is(err, migrate.ErrSymlink) {
		t.Errorf("the refused run = %v, want ErrSymlink", err)
	}
	if err != nil {
		t.Fatalf("the migration that waited for the refused run's lock failed: %v", err)
	}
	if err := migrate.CheckComplete(rep.Destination.Root); err != nil {
		t.Error(err)
	}
}
