//go:build linux

package builtin_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// TestChangesThroughSwappedDirectoryNeverReachConfig swaps the workspace
// directory "a" with a symbolic link "b" to the project config directory
// .lite-agent, atomically with renameat2(RENAME_EXCHANGE), in a tight loop,
// while the mutating tools change a/permissions.json over and over. Whatever
// the interleaving, the protected .lite-agent/permissions.json must keep its
// content and inode, and no temporary file may be left anywhere. The case
// without a protected list shows that opening without following links holds
// on its own.
func TestChangesThroughSwappedDirectoryNeverReachConfig(t *testing.T) {
	const original = `{"version":1,"rules":[{"tool":"bash","action":"deny"}]}`
	type step struct {
		tool  string
		input map[string]any
	}
	write := step{"write_file", map[string]any{"path": "a/permissions.json", "content": `{"version":1,"rules":[]}`}}
	tests := []struct {
		name    string
		protect bool
		steps   []step // the last one must succeed at least once
	}{
		{"Write", true, []step{write}},
		{"WriteUnprotected", false, []step{write}},
		{"Edit", true, []step{
			{"edit_file", map[string]any{"path": "a/permissions.json", "old_text": "allow", "new_text": "deny"}},
			{"edit_file", map[string]any{"path": "a/permissions.json", "old_text": "deny", "new_text": "allow"}},
		}},
		{"Delete", true, []step{write, {"delete_file", map[string]any{"path": "a/permissions.json"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := filepath.Join(t.TempDir(), "ws")
			cfg := filepath.Join(ws, ".lite-agent")
			perms := filepath.Join(cfg, "permissions.json")
			a, b := filepath.Join(ws, "a"), filepath.Join(ws, "b")
			for _, d := range []string{cfg, a} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			writeFile(t, perms, original)
			writeFile(t, filepath.Join(a, "permissions.json"), original)
			ino := inode(t, perms)
			symlink(t, ".lite-agent", b)
			if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
				t.Skipf("renameat2(RENAME_EXCHANGE) is not supported on this file system: %v", err)
			}
			opts := builtin.FileOptions{Workdir: ws}
			if tt.protect {
				opts.Protected = []string{perms}
			}
			tools, err := builtin.FileTools(opts)
			if err != nil {
				t.Fatal(err)
			}
			byTool := map[string]tool.Tool{}
			for _, s := range tt.steps {
				byTool[s.tool] = byName(t, tools, s.tool)
			}

			var stop atomic.Bool
			var swaps atomic.Int64
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				for !stop.Load() {
					if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
						t.Errorf("swap: %v", err)
						return
					}
					swaps.Add(1)
				}
			}()
			var calls, succeeded, reached int
			for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
				for i, s := range tt.steps {
					res := call(t, byTool[s.tool], s.input)
					calls++
					if i == len(tt.steps)-1 && !res.IsError && !strings.HasPrefix(res.Content, "Error:") {
						succeeded++
					}
				}
				if got, err := os.ReadFile(perms); err != nil || string(got) != original || inode(t, perms) != ino {
					reached++
					writeFile(t, perms, original)
					ino = inode(t, perms)
				}
			}
			stop.Store(true)
			wg.Wait()
			t.Logf("%d swaps, %d calls, %d of the last step succeeded, %d reached %s", swaps.Load(), calls, succeeded, reached, perms)
			if reached > 0 {
				t.Errorf("the tools changed the protected %s %d times in %d calls", perms, reached, calls)
			}
			if succeeded == 0 {
				t.Errorf("no call succeeded in %d: the test exercised nothing", calls)
			}
			if temps := tempFiles(t, ws); len(temps) > 0 {
				t.Errorf("%d temporary files left, such as %s", len(temps), temps[0])
			}
		})
	}
}

// inode returns the inode number of p, or 0 when p does not exist.
func inode(t *testing.T, p string) uint64 {
	t.Helper()
	info, err := os.Lstat(p)
	if err != nil {
		return 0
	}
	return info.Sys().(*syscall.Stat_t).Ino
}
