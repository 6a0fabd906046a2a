package task

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// readOnlyTasksEnv names, in the child of TestFileStoreReadsOnAReadOnlyMount,
// the tasks directory it finds mounted read-only.
const readOnlyTasksEnv = "LITE_AGENT_TEST_READONLY_TASKS"

// runReadOnly runs the test named name again, in a child under bwrap that
// sees dir (and only it) mounted read-only, with readOnlyTasksEnv set to
// dir, and fails t with the child's output if it fails. It skips t, or
// fails it when CI is set, where bwrap is missing or cannot run.
func runReadOnly(t *testing.T, name, dir string) {
	t.Helper()
	tooltest.Need(t, tooltest.CanaryTools, "bwrap")
	if out, err := exec.Command("bwrap", "--bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "true").CombinedOutput(); err != nil {
		tooltest.Missing(t, "bwrap cannot run here: "+strings.TrimSpace(string(out)), "allow unprivileged user namespaces")
	}
	cmd := exec.Command("bwrap", "--bind", "/", "/", "--ro-bind", dir, dir, "--dev", "/dev", "--proc", "/proc",
		os.Args[0], "-test.run=^"+name+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), readOnlyTasksEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+name) {
		t.Fatalf("the child on the read-only mount: %v\n%s", err, out)
	}
}

// On a read-only mount the lock directory cannot be made, and nothing can
// write the list through it: a reader reads without the lock (Get, List,
// Render) instead of failing, while a write still fails, with the lock's
// error (EROFS).
func TestFileStoreReadsOnAReadOnlyMount(t *testing.T) {
	if dir := os.Getenv(readOnlyTasksEnv); dir != "" {
		if err := os.WriteFile(dir+"/probe", nil, 0o600); !errors.Is(err, syscall.EROFS) {
			t.Fatalf("the tasks directory is not read-only here: %v", err)
		}
		s := newFile(t, dir, "team", plain)
		ts, err := s.List(t.Context())
		if err != nil || len(ts) != 2 || ts[1].BlockedBy[0] != "1" {
			t.Fatalf("List on a read-only mount: %+v, %v", ts, err)
		}
		if got, ok, err := s.Get(t.Context(), "2"); err != nil || !ok || got.Subject != "two" {
			t.Errorf("Get on a read-only mount: %+v %v %v", got, ok, err)
		}
		if text, err := s.Render(t.Context(), RenderOptions{}); err != nil || !strings.Contains(text, "two") {
			t.Errorf("Render on a read-only mount: %q %v", text, err)
		}
		if _, err := s.Create(t.Context(), CreateInput{Subject: "three"}); !errors.Is(err, syscall.EROFS) {
			t.Errorf("Create on a read-only mount: %v, want EROFS", err)
		}
		if _, err := s.Update(t.Context(), "1", UpdateInput{Subject: ptr("x")}); !errors.Is(err, syscall.EROFS) {
			t.Errorf("Update on a read-only mount: %v, want EROFS", err)
		}
		return
	}
	dir := t.TempDir()
	s := newFile(t, dir, "team", plain)
	mustCreate(t, s, "one")
	mustCreate(t, s, "two")
	mustUpdate(t, s, "2", UpdateInput{AddBlockedBy: []string{"1"}})
	runReadOnly(t, "TestFileStoreReadsOnAReadOnlyMount", dir)
	if ts, err := s.List(t.Context()); err != nil || len(ts) != 2 || ts[0].Subject != "one" {
		t.Errorf("the list after the read-only child: %+v, %v", ts, err)
	}
}
