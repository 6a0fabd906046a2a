package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// unprivilegedChild prepares to run the CLI in a child process as a user
// a directory of mode 0 is closed to: as root, the user nobody (cred);
// otherwise the test's own user (cred nil). It returns a fresh directory
// that user can reach and the copy of the test binary in it to run.
func unprivilegedChild(t *testing.T) (dir, exe string, cred *syscall.Credential) {
	t.Helper()
	dir = t.TempDir()
	if os.Geteuid() == 0 {
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
		// t.TempDir makes the directory it is in for its owner only.
		for _, d := range []string{filepath.Dir(dir), dir} {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	bin, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	exe = filepath.Join(dir, "lite-agent.test")
	if err := os.WriteFile(exe, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, exe, cred
}

// TestUnreadableHomeIsNamed: a data home its user cannot read is named as
// such, with what to do, by every command that reads it, rather than as a
// system call on a path below it, a bad mcps.json, or no task lists at all
// (exit 0). The commands run in a child as a user the home is closed to:
// as root, the user nobody; otherwise the test's own user.
func TestUnreadableHomeIsNamed(t *testing.T) {
	isolateEnv(t)
	dir, exe, cred := unprivilegedChild(t)
	home, work := filepath.Join(dir, "home"), filepath.Join(dir, "work")
	for _, d := range []string{filepath.Join(home, "projects"), work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(home, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(home, 0o700) })
	for _, args := range [][]string{
		{"sessions", "list"},
		{"sessions", "show", "s1"},
		{"tasks", "list"},
		{"verify"},
		{"cleanup"},
		{"mcp", "list"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			b, _ := json.Marshal(append([]string{"--home", home}, args...))
			cmd := exec.Command(exe, "-test.run=^TestCLIChildProcess$")
			cmd.Dir = work
			cmd.Env = append(os.Environ(), "HOME="+dir, childEnvCLI+"="+string(b))
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("child: %v, want exit status %d", err, exitFailure)
			}
			r := result{code: ee.ExitCode(), stdout: stdout.String(), stderr: stderr.String()}
			if r.code != exitFailure {
				t.Errorf("code = %d, want %d", r.code, exitFailure)
			}
			wantOneErrorLine(t, r)
			want := "lite-agent: data home " + home + " cannot be read (permission denied): give --home a directory you can read, or fix its permissions\n"
			if r.stderr != want {
				t.Errorf("stderr = %q\nwant     %q", r.stderr, want)
			}
		})
	}
}
