//go:build linux

package bash_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/sandbox"
	"github.com/lite-agent/lite-agent-go/sandbox/sandboxtest"
	"github.com/lite-agent/lite-agent-go/tool/builtin/bash"
)

// plantLine makes the repository sub whose core.fsmonitor would run a
// program when git ran there outside the sandbox.
const plantLine = `git init -q sub && printf '[core]\n\tfsmonitor = "touch ran; false"\n' >> sub/.git/config && echo planted`

// The sandbox's check after a foreground command reaches the model as the
// call's error result, the check's message followed by the command's
// output; the repository is moved aside.
func TestSandboxCheckErrorIsTheForegroundResult(t *testing.T) {
	tooltest.Need(t, tooltest.CanaryTools, "git")
	wd := t.TempDir()
	sb := sandboxtest.Bubblewrap(t, sandbox.Options{Workdir: wd})
	b, _ := newBash(t, bash.Options{Workdir: wd, Sandbox: sb})
	res := call(t, b, map[string]any{"command": plantLine})
	want := "Error: sandbox: a command left git repositories that would run programs outside the sandbox"
	if !res.IsError || !strings.HasPrefix(res.Content, want) || !strings.Contains(res.Content, "moved sub/.git (core.fsmonitor) to sub/.git.lite-agent-quarantine-1") ||
		!strings.HasSuffix(res.Content, "\nplanted") {
		t.Fatalf("result %+v, want the check's error followed by the output", res)
	}
	if _, err := os.Lstat(filepath.Join(wd, "sub", ".git.lite-agent-quarantine-1")); err != nil {
		t.Errorf("quarantined repository: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(wd, "sub", ".git")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("sub/.git still there: %v", err)
	}
	// A command that plants nothing gets its ordinary result.
	if res := call(t, b, map[string]any{"command": "git init -q plain && echo ok"}); res.Content != "ok" || res.IsError {
		t.Errorf("plain git init: %+v", res)
	}
}

// In the background the check's error is in the completion (SandboxErr,
// and the end of Content, whose status is then "error") and in
// BashOutput's last read.
func TestSandboxCheckErrorIsInTheBackgroundCompletion(t *testing.T) {
	tooltest.Need(t, tooltest.CanaryTools, "git")
	wd := t.TempDir()
	sb := sandboxtest.Bubblewrap(t, sandbox.Options{Workdir: wd})
	finished := make(chan bash.Completion, 1)
	bg, err := bash.NewBackground(bash.BackgroundOptions{OnExit: func(c bash.Completion) { finished <- c }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bg.Close() })
	b, _ := newBash(t, bash.Options{Workdir: wd, Sandbox: sb, Background: bg})
	res := call(t, b, map[string]any{"command": plantLine, "run_in_background": true})
	id := strings.TrimSuffix(strings.TrimPrefix(strings.Fields(res.Content)[0], "[background:"), "]")
	var c bash.Completion
	select {
	case c = <-finished:
	case <-time.After(30 * time.Second):
		t.Fatal("no completion")
	}
	var rce *sandbox.RepoCheckError
	if !errors.As(c.SandboxErr, &rce) || len(rce.Moved) != 1 || rce.Moved[0].Path != "sub/.git" {
		t.Fatalf("SandboxErr = %v, want a *sandbox.RepoCheckError moving sub/.git", c.SandboxErr)
	}
	if !strings.Contains(c.Content, "Error: sandbox:") || c.Status() != "error" {
		t.Errorf("completion %q, status %s", c.Content, c.Status())
	}
	out := call(t, byName(t, bash.BackgroundTools(bg), "BashOutput"), map[string]any{"id": id})
	if !strings.Contains(out.Content, "[process exited]\nError: sandbox:") {
		t.Errorf("BashOutput = %q", out.Content)
	}
}
