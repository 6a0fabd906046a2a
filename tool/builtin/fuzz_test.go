package builtin_test

import (
	"path"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// FuzzFileToolPaths checks, for any path and content a model might send,
// that the file tools neither panic nor fail as the runtime, never change
// anything outside the workspace, record snapshots only of workspace
// paths, and that what write_file reports written reads back.
func FuzzFileToolPaths(f *testing.F) {
	f.Fuzz(func(t *testing.T, p, content string) {
		e := pathFixture(t, builtin.FileOptions{})
		outside := treeHash(t, e.outside)
		write := call(t, e.tool(t, "write_file"), map[string]any{"path": p, "content": content})
		check := func(name string, content string) {
			if strings.Contains(content, "panicked") {
				t.Fatalf("%s panicked: %s", name, content)
			}
		}
		check("write_file", write.Content)
		if !write.IsError && utf8.ValidString(content) && len(content) <= builtin.ArchiveThreshold {
			read := call(t, e.tool(t, "read_file"), map[string]any{"path": p})
			if read.Content != content {
				t.Errorf("wrote %q to %q, read back %q", content, p, read.Content)
			}
		}
		edit := call(t, e.tool(t, "edit_file"), map[string]any{"path": p, "old_text": content, "new_text": "edited"})
		check("edit_file", edit.Content)
		del := call(t, e.tool(t, "delete_file"), map[string]any{"path": p})
		check("delete_file", del.Content)
		read := call(t, e.tool(t, "read_file"), map[string]any{"path": p})
		check("read_file", read.Content)
		if got := treeHash(t, e.outside); got != outside {
			t.Fatalf("path %q changed the outside directory:\nbefore:\n%s\nafter:\n%s", p, outside, got)
		}
		for _, ev := range e.rec.all() {
			if strings.HasPrefix(ev.Path, "/") || ev.Path == ".." || strings.HasPrefix(ev.Path, "../") || path.Clean(ev.Path) != ev.Path {
				t.Errorf("snapshot of %q for path %q", ev.Path, p)
			}
		}
	})
}
