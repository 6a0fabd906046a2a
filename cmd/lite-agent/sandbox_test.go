package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/sandbox"
	"github.com/lite-agent/lite-agent-go/sandbox/sandboxtest"
)

func TestSandboxFlagRejectsUnknownValues(t *testing.T) {
	isolateEnv(t)
	fakeAPI(t, textReply("hi"))
	r := runCLI(t, "--home", t.TempDir(), "--workdir", t.TempDir(), "run", "--sandbox", "docker", "hello")
	if r.code != 2 || !strings.Contains(r.stderr, "--sandbox") {
		t.Errorf("code %d stderr %q", r.code, r.stderr)
	}
}

func TestSandboxBwrapThatCannotStartIsAnError(t *testing.T) {
	isolateEnv(t)
	srv := fakeAPI(t, textReply("hi"))
	t.Setenv("PATH", t.TempDir()) // no bwrap
	r := runCLI(t, "--home", t.TempDir(), "--workdir", t.TempDir(), "run", "--sandbox", "bwrap", "hello")
	if r.code != 1 || !strings.Contains(r.stderr, "bwrap") {
		t.Errorf("code %d stderr %q", r.code, r.stderr)
	}
	wantOneErrorLine(t, r)
	if len(srv.bodies) != 0 {
		t.Error("the model was called without the sandbox the user asked for")
	}
}

func TestSandboxAutoWithoutBwrapSaysSoOnce(t *testing.T) {
	isolateEnv(t)
	fakeAPI(t, textReply("hi"))
	t.Setenv("PATH", t.TempDir()) // no bwrap
	r := runCLI(t, "--home", t.TempDir(), "--workdir", t.TempDir(), "run", "hello")
	if r.code != 0 || r.stdout != "hi\n" {
		t.Fatalf("code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if n := strings.Count(r.stderr, "notice: commands run without a sandbox"); n != 1 {
		t.Errorf("%d notices in %q, want 1", n, r.stderr)
	}
	r = runCLI(t, "--home", t.TempDir(), "--workdir", t.TempDir(), "run", "--sandbox", "off", "hello")
	if strings.Contains(r.stderr, "notice") {
		t.Errorf("--sandbox off: stderr %q", r.stderr)
	}
}

func TestRunContainsBashInTheSandboxByDefault(t *testing.T) {
	isolateEnv(t)
	work, outside := t.TempDir(), t.TempDir()
	sandboxtest.Bubblewrap(t, sandbox.Options{Workdir: work}) // skips without bubblewrap
	target := filepath.Join(outside, "escaped")
	// The gate asks before a line that writes outside the workdir (and
	// nobody answers here); a program of the workdir's runs under
	// --allow bash, and the sandbox is what contains it.
	if err := os.WriteFile(filepath.Join(work, "w.sh"), []byte("#!/bin/sh\necho x > "+target+"; echo in > in.txt\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	fakeAPI(t,
		toolReply("toolu_1", "bash", `{"command":"./w.sh"}`),
		textReply("done"),
	)
	r := runCLI(t, "--home", t.TempDir(), "--workdir", work, "run", "--allow", "bash", "write")
	if r.code != 0 || strings.Contains(r.stderr, "notice") {
		t.Fatalf("code %d stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(target); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("bash wrote outside the workdir: %v", err)
	}

	// --sandbox-write opens one more directory.
	fakeAPI(t,
		toolReply("toolu_2", "bash", `{"command":"./w.sh"}`),
		textReply("done"),
	)
	r = runCLI(t, "--home", t.TempDir(), "--workdir", work, "run", "--allow", "bash", "--sandbox-write", outside, "write")
	if r.code != 0 {
		t.Fatalf("--sandbox-write: code %d stderr %q", r.code, r.stderr)
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "x\n" {
		t.Errorf("--sandbox-write: %q, %v", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(work, "in.txt")); err != nil || string(b) != "in\n" {
		t.Errorf("bash did not write the workdir: %q, %v", b, err)
	}
}
