//go:build unix

// Package childtest runs the test binary again as a child process, for
// the crash and multi-process tests of the stores. The child does the job
// its environment names (the test package's TestMain looks). Start is for
// a child that says a first line on its standard output once it is where
// the test wants it, and waits for its standard input to close before it
// goes on (or to be killed); Command is for the others, which the test
// starts, reads and waits for itself.
package childtest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"
)

// FirstLineTimeout is how long Start waits for the child's first line
// before it kills the child and fails the test.
const FirstLineTimeout = 2 * time.Minute

// Command returns the test binary as a child process, not started yet:
// run with no test of its own (-test.run=^$), env added to its
// environment, killed if ctx is done before it ends. Its standard input,
// output and error are not set (see exec.Cmd).
func Command(ctx context.Context, env ...string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	cmd := exec.CommandContext(ctx, exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

// Killed reports whether err, from running or waiting for a child, says
// that the child was killed by SIGKILL: what a crash test's child does to
// itself at the step the test is about.
func Killed(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// A Child is the test binary run again as a child process.
type Child struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	once  sync.Once
	err   error
}

// Start runs the test binary as Command makes it, its standard error the
// test's, and waits for its first line, failing t unless that is want
// (or if it does not come within FirstLineTimeout). When the test ends,
// the child is continued if stopped, killed and waited for.
func Start(t testing.TB, want string, env ...string) *Child {
	t.Helper()
	cmd := Command(context.Background(), env...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &Child{cmd: cmd, stdin: stdin}
	t.Cleanup(func() {
		_ = c.Signal(syscall.SIGCONT)
		_ = cmd.Process.Kill()
		_ = c.wait()
	})
	// A child that never says its line is killed, which ends the read.
	timer := time.AfterFunc(FirstLineTimeout, func() { _ = cmd.Process.Kill() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if !timer.Stop() {
		t.Fatalf("child said %q in %v; want %q", line, FirstLineTimeout, want)
	}
	if err != nil || line != want+"\n" {
		t.Fatalf("child said %q, %v; want %q", line, err, want)
	}
	return c
}

// Signal sends sig to the child (SIGSTOP pauses it, SIGCONT resumes it).
func (c *Child) Signal(sig os.Signal) error { return c.cmd.Process.Signal(sig) }

// Release closes the child's standard input, which lets it go on, and
// waits for it to end.
func (c *Child) Release() error {
	if err := c.stdin.Close(); err != nil {
		return err
	}
	return c.wait()
}

// Kill kills the child (SIGKILL), as a crash would, and waits for it to
// end. It returns an error if the child had ended before, on its own.
func (c *Child) Kill() error {
	if err := c.cmd.Process.Kill(); err != nil {
		return err
	}
	if err := c.wait(); !Killed(err) {
		return fmt.Errorf("the child was not killed: it ended on its own (%v)", c.cmd.ProcessState)
	}
	return nil
}

// wait waits for the child to end, once.
func (c *Child) wait() error {
	c.once.Do(func() { c.err = c.cmd.Wait() })
	return c.err
}
