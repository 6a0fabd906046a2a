//go:build unix

package childtest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// roleEnv names what the test binary does as a child.
const roleEnv = "CHILDTEST_ROLE"

func TestMain(m *testing.M) {
	if role := os.Getenv(roleEnv); role != "" {
		os.Exit(runRole(role))
	}
	os.Exit(m.Run())
}

// runRole is the test binary as the child in role: it says "ready" and
// then waits for its standard input to close ("wait") or to be killed
// ("hang"), or ends at once ("exit"); it kills itself ("crash") or fails
// ("fail").
func runRole(role string) int {
	if role == "crash" {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		sleepForever()
	}
	if role == "fail" {
		return 3
	}
	fmt.Println("ready")
	if role == "hang" {
		sleepForever()
	}
	if role == "wait" {
		_, _ = io.Copy(io.Discard, os.Stdin)
	}
	return 0
}

// sleepForever blocks until the process is killed. A bare select {}
// with no other goroutine is a deadlock the runtime may end the child for
// ("all goroutines are asleep"), so a "hang" child exited on its own
// before it was killed; a sleeping goroutine is never a deadlock.
func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}

func TestReleaseLetsTheChildEnd(t *testing.T) {
	c := Start(t, "ready", roleEnv+"=wait")
	if err := c.Release(); err != nil {
		t.Fatal(err)
	}
}

func TestKill(t *testing.T) {
	c := Start(t, "ready", roleEnv+"=hang")
	if err := c.Kill(); err != nil {
		t.Fatalf("Kill of a waiting child: %v", err)
	}
	// A child that ended on its own was not killed.
	c = Start(t, "ready", roleEnv+"=exit")
	waitZombie(t, c.cmd.Process.Pid)
	if err := c.Kill(); err == nil || !strings.Contains(err.Error(), "not killed") {
		t.Fatalf("Kill of a child that ended = %v, want not killed", err)
	}
}

// waitZombie waits until process pid has ended and is not waited for yet.
func waitZombie(t *testing.T, pid int) {
	t.Helper()
	for start := time.Now(); time.Since(start) < time.Minute; time.Sleep(5 * time.Millisecond) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			time.Sleep(time.Second) // no /proc: give it time
			return
		}
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) && b[i+2] == 'Z' {
			return
		}
	}
	t.Fatalf("process %d did not end", pid)
}

func TestKilled(t *testing.T) {
	for role, want := range map[string]bool{"crash": true, "fail": false, "exit": false} {
		out, err := Command(t.Context(), roleEnv+"="+role).CombinedOutput()
		if got := Killed(err); got != want {
			t.Errorf("Killed of the child %s (%v, %q) = %v", role, err, out, got)
		}
	}
	if Killed(nil) {
		t.Error("Killed(nil)")
	}
}

// fatalTB records a failure and ends the goroutine, as t.Fatal does.
type fatalTB struct {
	*testing.T
	msg string
}

func (f *fatalTB) Fatal(args ...any) { f.msg = fmt.Sprint(args...); runtime.Goexit() }

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func TestStartFailsOnAnotherLine(t *testing.T) {
	for _, tc := range []struct{ role, want string }{
		{"wait", "locked"}, // another line
		{"crash", "ready"}, // no line
	} {
		f := &fatalTB{T: t}
		done := make(chan struct{})
		go func() {
			defer close(done)
			Start(f, tc.want, roleEnv+"="+tc.role)
		}()
		<-done
		if !strings.Contains(f.msg, "child said") {
			t.Errorf("Start of the child %s wanting %q: failure %q", tc.role, tc.want, f.msg)
		}
	}
}
