package bash_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/sandbox"
	"github.com/lite-agent/lite-agent-go/sandbox/sandboxtest"
	"github.com/lite-agent/lite-agent-go/tool/builtin/bash"
)

// sleepers returns how many processes run "sleep token".
func sleepers(token string) int {
	n := 0
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), "sleep\x00"+token) {
			n++
		}
	}
	return n
}

// eventually polls cond every 20ms until it holds or 20s pass.
func eventually(cond func() bool) bool {
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return false
}

// uniqueSleep returns a sleep duration that names this test's processes.
func uniqueSleep() string {
	return fmt.Sprintf("%d.%06d", 4000+os.Getpid()%1000, time.Now().UnixNano()%1_000_000)
}

func TestSandboxedBashCannotWriteOutsideTheWorkdir(t *testing.T) {
	wd, outside := t.TempDir(), t.TempDir()
	target := filepath.Join(outside, "escaped")
	command := "echo inside > in.txt; echo x > " + target + " && echo wrote"

	// Without the sandbox the write succeeds, so the test can tell.
	plain, _ := newBash(t, bash.Options{Workdir: wd})
	if res := call(t, plain, map[string]any{"command": command}); res.Content != "wrote" {
		t.Fatalf("unsandboxed: %q", res.Content)
	}
	os.Remove(target)

	sb := sandboxtest.Bubblewrap(t, sandbox.Options{Workdir: wd})
	b, _ := newBash(t, bash.Options{Workdir: wd, Sandbox: sb})
	if res := call(t, b, map[string]any{"command": command}); strings.Contains(res.Content, "wrote") {
		t.Errorf("sandboxed: %q", res.Content)
	}
	if _, err := os.Stat(target); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the sandboxed command wrote outside the workdir: %v", err)
	}
	if got, err := os.ReadFile(filepath.Join(wd, "in.txt")); err != nil || string(got) != "inside\n" {
		t.Errorf("workdir write: %q, %v", got, err)
	}
}

func TestSandboxedBackgroundCommandIsContained(t *testing.T) {
	wd, outside := t.TempDir(), t.TempDir()
	target := filepath.Join(outside, "escaped")
	sb := sandboxtest.Bubblewrap(t, sandbox.Options{Workdir: wd})
	finished := make(chan bash.Completion, 1)
	bg, err := bash.NewBackground(bash.BackgroundOptions{OnExit: func(c bash.Completion) { finished <- c }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bg.Close() })
	b, _ := newBash(t, bash.Options{Workdir: wd, Background: bg, Sandbox: sb})
	res := call(t, b, map[string]any{"command": "echo x > " + target + "; echo done > bg.txt", "run_in_background": true})
	if res.IsError {
		t.Fatal(res.Content)
	}
	select {
	case <-finished:
	case <-time.After(time.Minute):
		t.Fatal("the background command did not finish")
	}
	if _, err := os.Stat(target); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the background command wrote outside the workdir: %v", err)
	}
	if got, err := os.ReadFile(filepath.Join(wd, "bg.txt")); err != nil || string(got) != "done\n" {
		t.Errorf("background workdir write: %q, %v", got, err)
	}
}

func TestSandboxedBashTimeoutAndAbortKillTheTree(t *testing.T) {
	wd := t.TempDir()
	sb := sandboxtest.Bubblewrap(t, sandbox.Options{Workdir: wd})
	for _, how := range []string{"timeout", "abort"} {
		t.Run(how, func(t *testing.T) {
			token := uniqueSleep()
			opts := bash.Options{Workdir: wd, Sandbox: sb}
			if how == "timeout" {
				opts.Timeout = 2 * time.Second
			}
			b, _ := newBash(t, opts)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			// A child, a daemon that left the session, and the shell's own wait.
			ch := goCall(ctx, b, fmt.Sprintf(`{"command":"sleep %[1]s & setsid sleep %[1]s & sleep %[1]s"}`, token))
			if !eventually(func() bool { return sleepers(token) == 3 }) {
				t.Fatalf("the sleeps did not start: %d", sleepers(token))
			}
			if how == "abort" {
				cancel()
			}
			r := <-ch
			switch how {
			case "timeout":
				if !strings.Contains(r.res.Content, "timed out") {
					t.Errorf("result %q, %v", r.res.Content, r.err)
				}
			case "abort":
				if !errors.Is(r.err, context.Canceled) {
					t.Errorf("err = %v", r.err)
				}
			}
			if !eventually(func() bool { return sleepers(token) == 0 }) {
				t.Errorf("%d sandboxed processes outlived the %s", sleepers(token), how)
			}
		})
	}
}

func TestBashDoesNotRunWhatTheSandboxCannotWrap(t *testing.T) {
	wd := t.TempDir()
	sb := sandboxtest.Bubblewrap(t, sandbox.Options{Workdir: wd})
	b, _ := newBash(t, bash.Options{Workdir: wd, Sandbox: sb})
	// A workdir that is gone cannot be bound.
	if err := os.Remove(wd); err != nil {
		t.Fatal(err)
	}
	r := <-goCall(t.Context(), b, `{"command":"echo ran"}`)
	if !r.res.IsError || !strings.Contains(r.res.Content, "sandbox: workdir") {
		t.Fatalf("got %q, %v; want the sandbox's error", r.res.Content, r.err)
	}
}
