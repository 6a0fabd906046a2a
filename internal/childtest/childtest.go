//go:build unix

// Package childtest runs the test binary again as a child process, for
// the crash and multi-process tests of the stores. The child does the job
// its environment names (the test package's TestMain looks), says a first
// line on its standard output once it is where the test wants it, and
// waits for its standard input to close before it goes on.
package childtest

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
)

// A Child is the test binary run again as a child process.
type Child struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	once  sync.Once
	err   error
}

// Start runs the test binary with no test of its own (-test.run=^$) and
// env added to its environment, its standard error the test's, and waits
// for its first line, failing t unless that is want. When the test ends,
// the child is continued if stopped, killed and waited for.
func Start(t testing.TB, want string, env ...string) *Child {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
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
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != want+"\n" {
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

// wait waits for the child to end, once.
func (c *Child) wait() error {
	c.once.Do(func() { c.err = c.cmd.Wait() })
	return c.err
}
