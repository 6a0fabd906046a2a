//go:build unix

package filelock_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/storage"
)

// nobody is the user the child processes of TestOtherUsersDirectories run
// as.
const nobody = 65534

// childForeign runs, as another user than the owner of the lock
// directories it meets, the scenario FILELOCK_SCENARIO on target (see
// TestOtherUsersDirectories). It exits 0 if the lock behaved as the
// scenario expects, and says what went wrong otherwise.
func childForeign(target string) int {
	ctx := context.Background()
	o := filelock.Options{Stale: time.Second, Timeout: 500 * time.Millisecond}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(os.Stderr, format+"\n", args...)
		return 1
	}
	switch scenario := os.Getenv("FILELOCK_SCENARIO"); scenario {
	case "parked", "stale":
		o.Park = scenario == "parked"
		l, err := filelock.Acquire(ctx, target, o)
		if err != nil {
			return fail("acquire: %v", err)
		}
		l.ParkOnRelease()
		if err := l.Release(); err != nil {
			return fail("release: %v", err)
		}
	case "sticky":
		_, err := filelock.Acquire(ctx, target, o)
		var se *storage.Error
		if !errors.As(err, &se) || !errors.Is(err, fs.ErrPermission) {
			return fail("acquire = %v, want a *storage.Error matching fs.ErrPermission", err)
		}
	case "unstampable":
		o.Refresh = 50 * time.Millisecond
		l, err := filelock.Acquire(ctx, target, o)
		if err != nil {
			return fail("acquire: %v", err)
		}
		fmt.Println("locked")
		// The parent makes the lock directory another user's now.
		if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
			return fail("stdin: %v", err)
		}
		time.Sleep(200 * time.Millisecond) // a few refreshes
		err = l.Check()
		var se *storage.Error
		if !errors.As(err, &se) || !errors.Is(err, fs.ErrPermission) {
			return fail("check = %v, want a *storage.Error matching fs.ErrPermission", err)
		}
		if err := l.Release(); err == nil {
			return fail("release reported no loss")
		}
	case "unstampable-move":
		o.Refresh = time.Hour
		l, err := filelock.Acquire(ctx, target, o)
		if err != nil {
			return fail("acquire: %v", err)
		}
		fmt.Println("locked")
		if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
			return fail("stdin: %v", err)
		}
		// Old enough that Move stamps the moved lock, which fails.
		time.Sleep(400 * time.Millisecond)
		if err := l.Move(filepath.Join(filepath.Dir(target), "b.jsonl")); err == nil {
			return fail("move of an unstampable lock reported no loss")
		}
		if err := l.Check(); err == nil {
			return fail("check after a move that lost the lock = nil")
		}
		if err := l.Release(); err == nil {
			return fail("release reported no loss")
		}
	default:
		return fail("unknown scenario %q", scenario)
	}
	return 0
}

// Lock directories another user owns (a parked directory or a stale lock
// left by a process of another user, such as a TypeScript SDK process, or
// a held lock directory made another user's) cannot be stamped by this
// user: the stamp, through the descriptor, fails with EACCES where the
// other user's directory is not writable. Locking still works where it
// can (a parked directory that cannot be stamped is put back and a lock
// made instead; a stale lock is taken over without a stamp), fails with a
// clear error where it cannot (a stale lock in a sticky directory, which
// only its owner may move), and a holder that can no longer stamp its lock
// counts it lost, never held twice.
func TestOtherUsersDirectories(t *testing.T) {
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("runs children as another user: needs root (Linux)")
	}
	bin := runnableCopy(t)
	for _, tc := range []struct {
		scenario string
		mode     fs.FileMode // of the other user's directory
		sticky   bool        // the directory of targets is sticky, as /tmp is
	}{
		{scenario: "parked", mode: 0o700},
		{scenario: "parked", mode: 0o755},
		{scenario: "stale", mode: 0o700},
		{scenario: "sticky", mode: 0o700, sticky: true},
		{scenario: "unstampable", mode: 0o700},
		{scenario: "unstampable-move", mode: 0o700},
	} {
		t.Run(fmt.Sprintf("%s,%v", tc.scenario, tc.mode), func(t *testing.T) {
			dir := sharedDir(t, tc.sticky)
			target := filepath.Join(dir, "s.jsonl")
			if err := os.WriteFile(target, nil, 0o666); err != nil {
				t.Fatal(err)
			}
			idle := filepath.Join(dir, filelock.IdleName)
			switch tc.scenario {
			case "parked": // parked by one of root's processes
				l := acquire(t, target, filelock.Options{Park: true})
				l.ParkOnRelease()
				if err := l.Release(); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(idle, tc.mode); err != nil {
					t.Fatal(err)
				}
			case "stale", "sticky":
				plantStaleLock(t, target)
			}
			cmd := exec.Command(bin, "-test.run=^$")
			cmd.Env = append(os.Environ(), "FILELOCK_TEST_CHILD=foreign", "FILELOCK_TARGET="+target, "FILELOCK_SCENARIO="+tc.scenario)
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if strings.HasPrefix(tc.scenario, "unstampable") {
				runUnstampable(t, cmd, target)
			} else if err := cmd.Run(); err != nil {
				t.Fatalf("child: %v: %s", err, stderr.String())
			}
			if stderr.Len() > 0 {
				t.Errorf("child: %s", stderr.String())
			}
			switch tc.scenario {
			case "parked": // put back as it was
				if st, err := os.Lstat(idle); err != nil || st.Sys().(*syscall.Stat_t).Uid != 0 {
					t.Errorf("the parked directory is gone or not root's: %v", err)
				}
				checkLeftovers(t, dir, false)
			case "stale":
				checkLeftovers(t, dir, false)
			case "sticky":
				checkLeftovers(t, dir, true)
			}
		})
	}
}

// runUnstampable runs the child of the scenario "unstampable": once it
// holds the lock of target, its lock directory is made root's, and the
// child checks that it counts its lock lost. The directory then blocks the
// lock until it is stale, and no longer.
func runUnstampable(t *testing.T, cmd *exec.Cmd, target string) {
	t.Helper()
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "locked\n" {
		t.Fatalf("child said %q, %v", line, err)
	}
	if err := os.Chown(target+filelock.Suffix, 0, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(in, "go\n"); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v: %v", err, cmd.Stderr)
	}
	start := time.Now()
	l, err := filelock.Acquire(t.Context(), target, filelock.Options{Stale: time.Second, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited > 2*time.Second {
		t.Errorf("the lock was blocked for %v after its holder lost it", waited)
	}
	if err := l.Release(); err != nil {
		t.Error(err)
	}
}

// sharedDir returns a directory of targets that the user nobody may write
// in (sticky, as /tmp is, if sticky is set).
func sharedDir(t *testing.T, sticky bool) string {
	t.Helper()
	dir := t.TempDir()
	mode := fs.FileMode(0o777)
	if sticky {
		mode |= fs.ModeSticky
	}
	if err := os.Chmod(dir, mode); err != nil {
		t.Fatal(err)
	}
	// t.TempDir makes the directory it is in for its owner only.
	if err := os.Chmod(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runnableCopy returns a copy of this test binary that the user nobody may
// run (go test keeps it in a directory for its owner only).
func runnableCopy(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(sharedDir(t, false), "filelock.test")
	if err := os.WriteFile(bin, src, 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}
