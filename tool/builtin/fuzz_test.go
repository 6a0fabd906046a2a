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
// anything outside the workspace nor any protected path (the project's
// .acme config and .git/hooks, .git/config), record snapshots only of
// workspace paths, and that what write_file reports written reads back.
func FuzzFileToolPaths(f *testing.F) {
	f.Fuzz(func(t *testing.T, p, content string) {
		e := pathFixture(t, builtin.FileOptions{})
		e = protectConfig(t, e)
		outside := treeHash(t, e.outside)
		config := treeHash(t, e.path(".acme")) + treeHash(t, e.path(".git"))
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
		if got := treeHash(t, e.path(".acme")) + treeHash(t, e.path(".git")); got != config {
			t.Fatalf("path %q changed a protected path:\nbefore:\n%s\nafter:\n%s", p, config, got)
		}
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

// protectConfig adds a project config and a git directory to e's
// workspace and rebuilds its tools with them protected.
func protectConfig(t *testing.T, e *fileEnv) *fileEnv {
	t.Helper()
	writeFile(t, e.path(".acme/permissions.json"), `{"version":1,"rules":[]}`)
	writeFile(t, e.path(".acme/agents/a.md"), "agent")
	writeFile(t, e.path(".git/config"), "[core]")
	writeFile(t, e.path(".git/hooks/pre-commit"), "#!/bin/sh")
	protected := []string{
		e.path(".acme/permissions.json"), e.path(".acme/hooks.json"), e.path(".acme/mcps.json"),
		e.path(".acme/agents"), e.path(".acme/skills"), e.path(".git/hooks"), e.path(".git/config"),
	}
	tools, err := builtin.FileTools(builtin.FileOptions{Workdir: e.dir, Snapshots: e.rec, Protected: protected})
	if err != nil {
		t.Fatal(err)
	}
	e.tools = tools
	return e
}
