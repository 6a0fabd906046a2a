package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// readOnlyHomeEnv names, in the child of TestTasksListOnAReadOnlyHome, the
// data home it finds mounted read-only.
const readOnlyHomeEnv = "LITE_AGENT_TEST_READONLY_HOME"

// A data home on a read-only mount (a backup, a container's :ro volume)
// is inspected with tasks list: it lists the tasks, where it failed with
// "cannot create lock" because the list's lock directory cannot be made.
// The child runs under bwrap, which mounts the home read-only.
func TestTasksListOnAReadOnlyHome(t *testing.T) {
	if home := os.Getenv(readOnlyHomeEnv); home != "" {
		if err := os.WriteFile(filepath.Join(home, "probe"), nil, 0o600); !errors.Is(err, syscall.EROFS) {
			t.Fatalf("the home is not read-only here: %v", err)
		}
		base := []string{"--home", home, "--workdir", "/srv/app"}
		r := runCLI(t, append(base, "tasks", "list")...)
		if r.code != 0 || !strings.Contains(r.stdout, "Write tests") || !strings.Contains(r.stdout, "Shared work") {
			t.Errorf("tasks list of a read-only home: %d %q %q", r.code, r.stdout, r.stderr)
		}
		r = runCLI(t, append(base, "tasks", "list", "--json", "--list", "shared")...)
		if r.code != 0 || !strings.Contains(r.stdout, `"Shared work"`) {
			t.Errorf("tasks list --json --list shared of a read-only home: %d %q %q", r.code, r.stdout, r.stderr)
		}
		return
	}
	isolateEnv(t)
	home, _ := referenceHome(t)
	tooltest.Need(t, tooltest.CanaryTools, "bwrap")
	if out, err := exec.Command("bwrap", "--bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "true").CombinedOutput(); err != nil {
		tooltest.Missing(t, "bwrap cannot run here: "+strings.TrimSpace(string(out)), "allow unprivileged user namespaces")
	}
	cmd := exec.Command("bwrap", "--bind", "/", "/", "--ro-bind", home, home, "--dev", "/dev", "--proc", "/proc",
		os.Args[0], "-test.run=^TestTasksListOnAReadOnlyHome$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), readOnlyHomeEnv+"="+home)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestTasksListOnAReadOnlyHome") {
		t.Fatalf("the child on the read-only home: %v\n%s", err, out)
	}
}
