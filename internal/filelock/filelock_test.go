package filelock_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/storage"
)

const childEnv = "FILELOCK_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "counter":
		os.Exit(childCounter(os.Getenv("FILELOCK_TARGET"), 200, false))
	case "counter-park":
		os.Exit(childCounter(os.Getenv("FILELOCK_TARGET"), 200, true))
	case "hold":
		os.Exit(childHold(os.Getenv("FILELOCK_TARGET")))
	default:
		os.Exit(unixChild(os.Getenv(childEnv), os.Getenv("FILELOCK_TARGET")))
	}
}

// childCounter adds 1 to the number in target n times, each under the lock
// (taken with Options.Park if park is set), with a read-modify-write that
// loses updates unless the lock excludes.
func childCounter(target string, n int, park bool) int {
	ctx := context.Background()
	for i := 0; i < n; i++ {
		l, err := filelock.Acquire(ctx, target, filelock.Options{Timeout: time.Minute, Park: park})
		if err != nil {
			fmt.Fprintln(os.Stderr, "acquire:", err)
			return 1
		}
		l.ParkOnRelease()
		b, err := os.ReadFile(target)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintln(os.Stderr, "read:", err)
			return 1
		}
		v, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if err := os.WriteFile(target, []byte(strconv.Itoa(v+1)), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, "write:", err)
			return 1
		}
		if err := l.Release(); err != nil {
			fmt.Fprintln(os.Stderr, "release:", err)
			return 1
		}
	}
	return 0
}

// childHold takes the lock with a 1 s stale period, says so, and waits to be
// killed.
func childHold(target string) int {
	if _, err := filelock.Acquire(context.Background(), target, filelock.Options{Stale: time.Second}); err != nil {
		fmt.Fprintln(os.Stderr, "acquire:", err)
		return 1
	}
	fmt.Println("locked")
	select {}
}

// startHolder starts a child process that takes the lock of target (with a
// 1 s stale period) and holds it until killed, and waits until it has it.
func startHolder(t *testing.T, target string) *childtest.Child {
	t.Helper()
	return childtest.Start(t, "locked", childEnv+"=hold", "FILELOCK_TARGET="+target)
}

// child returns the test binary as a child process in mode on target, its
// standard error the test's.
func child(t *testing.T, mode, target string) *exec.Cmd {
	t.Helper()
	cmd := childtest.Command(t.Context(), childEnv+"="+mode, "FILELOCK_TARGET="+target)
	cmd.Stderr = os.Stderr
	return cmd
}

// Eight processes, half of them parking their lock directories (see
// IdleName) and half not, count to 1,600 under the lock.
func TestLockExcludesProcesses(t *testing.T) {
	target := filepath.Join(t.TempDir(), "counter")
	var cmds []*exec.Cmd
	for i := 0; i < 8; i++ {
		mode := "counter"
		if i%2 == 1 {
			mode = "counter-park"
		}
		cmd := child(t, mode, target)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("child: %v", err)
		}
	}
	b, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(b)); got != "1600" {
		t.Errorf("counter = %s, want 1600", got)
	}
	if _, err := os.Lstat(target + filelock.Suffix); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("lock directory left behind: %v", err)
	}
}

func TestKilledHolderIsTakenOverAfterStalePeriod(t *testing.T) {
	target := filepath.Join(t.TempDir(), "log.jsonl")
	holder := startHolder(t, target)

	// While the holder lives it refreshes the lock, so nobody takes it over.
	opts := filelock.Options{Stale: time.Second, Timeout: 2500 * time.Millisecond}
	if l, err := filelock.Acquire(t.Context(), target, opts); err == nil {
		l.Release()
		t.Fatal("took a live lock")
	} else {
		var se *storage.Error
		if !errors.As(err, &se) {
			t.Fatalf("busy lock: %v", err)
		}
	}

	if err := holder.Kill(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	l, err := filelock.Acquire(t.Context(), target, filelock.Options{Stale: time.Second, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("stale lock not taken over: %v", err)
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Errorf("takeover took %v", waited)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(filepath.Dir(target))
	for _, e := range ents {
		if strings.Contains(e.Name(), ".lock") && e.Name() != filelock.IdleName {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

func TestWaitingHonorsContext(t *testing.T) {
	target := filepath.Join(t.TempDir(), "x")
	l, err := filelock.Acquire(t.Context(), target, filelock.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = filelock.Acquire(ctx, target, filelock.Options{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want deadline exceeded", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Error("wait ignored the context")
	}
}

func TestLockExcludesGoroutines(t *testing.T) {
	target := filepath.Join(t.TempDir(), "x")
	var mu sync.Mutex
	inside, max := 0, 0
	var wg sync.WaitGroup
	for i := 0; i < 10; i++ {
		wg.Go(func() {
			for j := 0; j < 5; j++ {
				l, err := filelock.Acquire(t.Context(), target, filelock.Options{})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				inside++
				if inside > max {
					max = inside
				}
				mu.Unlock()
				time.Sleep(time.Millisecond)
				mu.Lock()
				inside--
				mu.Unlock()
				if err := l.Release(); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if max != 1 {
		t.Errorf("%d holders at once", max)
	}
}

func TestRemovedLockIsReportedCompromised(t *testing.T) {
	target := filepath.Join(t.TempDir(), "x")
	l, err := filelock.Acquire(t.Context(), target, filelock.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Check(); err != nil {
		t.Fatalf("fresh lock: %v", err)
	}
	if err := os.Remove(l.Path()); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(l.Path(), 0o700); err != nil { // someone else's lock now
		t.Fatal(err)
	}
	var se *storage.Error
	if err := l.Check(); !errors.As(err, &se) {
		t.Errorf("Check = %v", err)
	}
	if err := l.Release(); !errors.As(err, &se) {
		t.Errorf("Release = %v", err)
	}
	if _, err := os.Lstat(l.Path()); err != nil {
		t.Errorf("release removed another holder's lock: %v", err)
	}
}

func TestMissingParentIsAnError(t *testing.T) {
	_, err := filelock.Acquire(t.Context(), filepath.Join(t.TempDir(), "no", "such", "x"), filelock.Options{})
	var se *storage.Error
	if !errors.As(err, &se) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v", err)
	}
}

func TestShortRefreshPeriodsAreSafe(t *testing.T) {
	target := filepath.Join(t.TempDir(), "x")
	for i := 0; i < 50; i++ {
		l, err := filelock.Acquire(t.Context(), target, filelock.Options{Stale: 2 * time.Millisecond, Refresh: time.Nanosecond})
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
		if err := l.Release(); err != nil {
			t.Fatal(err)
		}
	}
}
