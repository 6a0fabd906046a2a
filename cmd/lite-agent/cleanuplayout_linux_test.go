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

// TestCleanupRefusesAnUnreadableProject: a project directory cleanup
// cannot list is named, exit 1, and nothing is removed, not even the old
// log of a readable project beside it. cleanup runs in a child as a user
// the directory is closed to.
func TestCleanupRefusesAnUnreadableProject(t *testing.T) {
	isolateEnv(t)
	dir, exe, cred := unprivilegedChild(t)
	home := filepath.Join(dir, "home")
	log := filepath.Join(home, "projects", "aaaaaaaaaaaaaaaa", "sessions", "s1.jsonl")
	closed := filepath.Join(home, "projects", "bbbbbbbbbbbbbbbb")
	oldFile(t, log)
	if err := os.MkdirAll(filepath.Join(closed, "sessions"), 0o700); err != nil {
		t.Fatal(err)
	}
	// Everything open to the child's user but the closed project.
	err := filepath.Walk(home, func(path string, info os.FileInfo, err error) error {
		if err == nil {
			err = os.Chmod(path, 0o777)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(closed, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(closed, 0o700) })

	b, _ := json.Marshal([]string{"--home", home, "cleanup"})
	cmd := exec.Command(exe, "-test.run=^TestCLIChildProcess$")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, childEnvCLI+"="+string(b))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitFailure {
		t.Fatalf("child: %v (stdout %q, stderr %q), want exit status %d", err, stdout.String(), stderr.String(), exitFailure)
	}
	r := result{code: ee.ExitCode(), stdout: stdout.String(), stderr: stderr.String()}
	wantOneErrorLine(t, r)
	for _, want := range []string{closed + " is unreadable (permission denied)", "removed nothing"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr %q does not say %q", r.stderr, want)
		}
	}
	if _, err := os.Lstat(log); err != nil {
		t.Errorf("the readable project's old log went: %v", err)
	}
}
