package pathmatch_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
)

// ResolveFrom follows /proc/<process>/cwd to the directory it is given,
// also through a link to it, and /proc/<process>/root to /; Resolve
// follows the calling process's own.
func TestResolveFromProcSelf(t *testing.T) {
	dir := t.TempDir()
	cwd := filepath.Join(dir, "work")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/proc/self/cwd/..", filepath.Join(cwd, "up")); err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"/proc/self/cwd/../home/x":                  filepath.Join(dir, "home", "x"),
		"/proc/thread-self/cwd/y":                   filepath.Join(cwd, "y"),
		"/proc/self/task/1/cwd/y":                   filepath.Join(cwd, "y"),
		"/proc/self/root/proc/self/cwd/../home/x":   filepath.Join(dir, "home", "x"),
		"/proc/123/root" + filepath.Join(dir, "z"):  filepath.Join(dir, "z"),
		filepath.Join(cwd, "up", "home", "x"):       filepath.Join(dir, "home", "x"),
		filepath.Join(cwd, "up", "work", "up", "w"): filepath.Join(dir, "w"),
	} {
		if got := pathmatch.ResolveFrom(in, cwd); got != want {
			t.Errorf("ResolveFrom(%q, %q) = %q, want %q", in, cwd, got, want)
		}
	}
	if got := pathmatch.ResolveFrom("/proc/self/cwd/x", ""); got != pathmatch.Resolve("/proc/self/cwd/x") {
		t.Errorf("ResolveFrom with no cwd = %q, want Resolve's %q", got, pathmatch.Resolve("/proc/self/cwd/x"))
	}
}
