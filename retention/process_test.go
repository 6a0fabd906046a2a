package retention_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/retention"
)

// lockTargetEnv makes the test binary a child that holds the store lock of
// the named file until its stdin closes.
const lockTargetEnv = "RETENTION_TEST_LOCK_TARGET"

// stopSweepEnv makes the test binary a child that sweeps the named home
// and, after its first removal and before releasing that entry's lock,
// prints "removed <path>" and waits to be killed.
const stopSweepEnv = "RETENTION_TEST_SWEEP_STOPPED"

func TestMain(m *testing.M) {
	if target := os.Getenv(lockTargetEnv); target != "" {
		os.Exit(holdLock(target))
	}
	if home := os.Getenv(stopSweepEnv); home != "" {
		os.Exit(sweepUntilKilled(home))
	}
	os.Exit(m.Run())
}

func holdLock(target string) int {
	l, err := filelock.Acquire(context.Background(), target, filelock.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("locked")
	_, _ = io.Copy(io.Discard, os.Stdin)
	if err := l.Release(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func sweepUntilKilled(home string) int {
	_, err := retention.SweepStoppingBeforeRelease(context.Background(), home, func(path string) {
		fmt.Println("removed " + path)
		select {} // until killed
	})
	fmt.Fprintln(os.Stderr, "the sweep removed nothing:", err)
	return 1
}

func TestLogLockedByAnotherProcessSurvives(t *testing.T) {
	tr := newTree(t)
	log := tr.file(p1+"/sessions/live.jsonl", 100, 400*day)
	release := lockInChild(t, log)

	rep := tr.sweep(retention.Options{LimitBytes: true})
	tr.mustExist(p1 + "/sessions/live.jsonl")
	equal(t, "skipped", tr.skipped(rep), []string{
		"lock " + p1 + "/sessions/live.jsonl.lock",
		"locked " + p1 + "/sessions/live.jsonl",
	})

	// Once the holder releases the lock, the old log goes.
	if err := release(); err != nil {
		t.Fatalf("child: %v", err)
	}
	rep = tr.sweep(retention.Options{LimitBytes: true})
	tr.mustNotExist(p1 + "/sessions/live.jsonl")
	equal(t, "removed", tr.removed(rep), []string{"age " + p1 + "/sessions/live.jsonl"})
}

// lockInChild starts a child process (this test binary) that takes the
// session store's lock of target and holds it; release makes the child let
// go and waits for it to end.
func lockInChild(t *testing.T, target string) (release func() error) {
	t.Helper()
	return childtest.Start(t, "locked", lockTargetEnv+"="+target).Release
}
