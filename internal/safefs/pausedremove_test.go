package safefs_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// removerEnv makes the test binary a process that removes the task list
// $SAFEFS_TEST_LIST of $SAFEFS_TEST_DIR with RemoveTreeUnless, saying
// "ready" once it holds the lock and has decided to remove the list, then
// waiting for stdin to close before it goes on.
const removerEnv = "SAFEFS_TEST_REMOVER"

func TestMain(m *testing.M) {
	if os.Getenv(removerEnv) != "" {
		os.Exit(runRemover())
	}
	if step := os.Getenv(exclusiveKillEnv); step != "" {
		os.Exit(runExclusiveWriter(step))
	}
	os.Exit(m.Run())
}

func runRemover() int {
	removed, err := safefs.RemoveTreeUnless(context.Background(), storage.KindTask, os.Getenv("SAFEFS_TEST_DIR"), os.Getenv("SAFEFS_TEST_LIST"), func(*safefs.Dir) bool {
		fmt.Println("ready")
		_, _ = io.Copy(io.Discard, os.Stdin)
		return false // not shared when it looked
	})
	fmt.Fprintln(os.Stderr, "removed:", removed, err)
	return 0
}

// A process that removes a tree holds its lock from its last look (keep,
// where a task list's shared mark is looked at) to the removal. Paused
// there (SIGSTOP) past the stale period, it loses the lock to a store that
// takes it over and writes: here another session marks the list shared
// and adds a task. Resumed, the remover must see that its lock is gone and
// leave the tree, not remove what was written under the new holder's lock.
func TestAPausedRemoverThatLostTheLockRemovesNothing(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := task.NewFileStore(dir, "list", storage.Encoding{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Create(ctx, task.CreateInput{Subject: "private"}); err != nil {
		t.Fatal(err)
	}

	child := childtest.Start(t, "ready", removerEnv+"=1", "SAFEFS_TEST_DIR="+dir, "SAFEFS_TEST_LIST=list")
	if err := child.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	// Paused past the stale period: its lock is as old as that, with no
	// refresh since (one that slips in only makes the store below wait
	// the stale period out).
	childtest.StaleLocks(t, dir)
	// Another session takes the list's lock over once it is stale (the
	// store waits for that), marks the list shared and writes to it.
	if err := st.MarkShared(); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Create(ctx, task.CreateInput{Subject: "written since"}); err != nil {
		t.Fatal(err)
	}
	if err := child.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if err := child.Release(); err != nil {
		t.Fatal(err)
	}
	ts, err := st.List(ctx)
	if err != nil || len(ts) != 2 {
		t.Errorf("the list after the paused removal: %d tasks, %v; want the 2 written", len(ts), err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "list", task.SharedMarker)); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	} else if err != nil {
		t.Error("the shared mark is gone")
	}
}
