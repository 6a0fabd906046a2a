package hook_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/sandbox"
	"github.com/lite-agent/lite-agent-go/sandbox/sandboxtest"
)

func TestSandboxedHookIsContained(t *testing.T) {
	wd, outside := t.TempDir(), t.TempDir()
	target := filepath.Join(outside, "escaped")
	cfg := hook.Config{Hooks: fileHooks(t, hook.LayerProject, "/p/hooks.json",
		commandHooks(hook.EventRunStart, "echo x > '"+target+"'", "echo ran > inside"))}

	// Without a sandbox the hook writes outside the workdir, so the test can tell.
	plain := newRunner(t, cfg, hook.Options{Permit: allow, Workdir: wd})
	if o := plain.Fire(t.Context(), hook.RunStart{Identity: identity()}); len(o.Diagnostics) != 0 || !exists(target) {
		t.Fatalf("unsandboxed: %+v, wrote %t", o.Diagnostics, exists(target))
	}
	os.Remove(target)
	os.Remove(filepath.Join(wd, "inside"))

	sb := sandboxtest.Bubblewrap(t, sandbox.Options{Workdir: wd})
	r := newRunner(t, cfg, hook.Options{Permit: allow, Workdir: wd, Sandbox: sb})
	o := r.Fire(t.Context(), hook.RunStart{Identity: identity()})
	if len(o.Diagnostics) != 1 || !strings.Contains(o.Diagnostics[0].Message, "exited with code") {
		t.Errorf("diagnostics = %+v, want the first hook to fail", o.Diagnostics)
	}
	if exists(target) {
		t.Error("the sandboxed hook wrote outside the workdir")
	}
	if got := readFile(t, filepath.Join(wd, "inside")); got != "ran\n" {
		t.Errorf("workdir write = %q", got)
	}
}

func TestSandboxedHookTimeoutKillsTheTree(t *testing.T) {
	wd := t.TempDir()
	token := fmt.Sprintf("%d.%06d", 5000+os.Getpid()%1000, time.Now().UnixNano()%1_000_000)
	content := fmt.Sprintf(`{"version":1,"hooks":{"run:start":[{"command":"sleep %[1]s & setsid sleep %[1]s & echo started > started; sleep %[1]s","timeoutMs":1500}]}}`, token)
	cfg := hook.Config{Hooks: fileHooks(t, hook.LayerProject, "/p/hooks.json", content)}
	sb := sandboxtest.Bubblewrap(t, sandbox.Options{Workdir: wd})
	r := newRunner(t, cfg, hook.Options{Permit: allow, Workdir: wd, Sandbox: sb})
	o := r.Fire(t.Context(), hook.RunStart{Identity: identity()})
	if len(o.Diagnostics) != 1 || !strings.Contains(o.Diagnostics[0].Message, "timed out") {
		t.Fatalf("diagnostics = %+v", o.Diagnostics)
	}
	if !exists(filepath.Join(wd, "started")) {
		t.Fatal("the hook's processes never started")
	}
	count := func() int {
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
	// SIGKILL went to the group before Fire returned; the kernel ends the
	// sandbox's PID namespace asynchronously.
	for deadline := time.Now().Add(20 * time.Second); count() != 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d sandboxed processes outlived the timeout", count())
		}
	}
}

// A sandboxed hook that leaves a repository whose core.fsmonitor would run
// outside the sandbox fails with the sandbox check's error, and the
// repository is moved aside.
func TestSandboxedHookCheckErrorIsTheHooksFailure(t *testing.T) {
	tooltest.Need(t, tooltest.CanaryTools, "git")
	wd := t.TempDir()
	cfg := hook.Config{Hooks: fileHooks(t, hook.LayerProject, "/p/hooks.json",
		commandHooks(hook.EventRunStart, `git init -q sub && printf '[core]\n\tfsmonitor = x\n' >> sub/.git/config`))}
	sb := sandboxtest.Bubblewrap(t, sandbox.Options{Workdir: wd})
	r := newRunner(t, cfg, hook.Options{Permit: allow, Workdir: wd, Sandbox: sb})
	o := r.Fire(t.Context(), hook.RunStart{Identity: identity()})
	if len(o.Diagnostics) != 1 || !strings.Contains(o.Diagnostics[0].Message, "moved sub/.git (core.fsmonitor) to sub/.git.lite-agent-quarantine-1") {
		t.Errorf("diagnostics = %+v, want the check's error", o.Diagnostics)
	}
	if !exists(filepath.Join(wd, "sub", ".git.lite-agent-quarantine-1")) {
		t.Error("sub/.git was not moved aside")
	}
}
