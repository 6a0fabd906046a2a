package builtin_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// protectedEnv lays out a workspace whose project config, git hooks and
// data home (<ws>/.data, inside the workspace to be reachable) are
// protected as the agent protects them:
//
//	.acme/permissions.json  .acme/hooks.json  .acme/agents/a.md
//	.acme/skills/s/SKILL.md  .acme/notes.md (not protected)
//	.git/config  .git/hooks/pre-commit  .git/HEAD (not protected)
//	.data/sessions/x.jsonl
//	sub/file.txt
//	cfglink -> .acme         hooklink -> .git/hooks
//	permlink -> .acme/permissions.json
//	hardperm: a hard link to .acme/permissions.json
//
// and returns it with the protected list and a link to the workspace.
func protectedEnv(t *testing.T) (e *fileEnv, wsLink string) {
	t.Helper()
	parent := t.TempDir()
	ws := filepath.Join(parent, "ws")
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{
		Workdir: ws,
		Storage: storage.Options{Namespace: "acme", Home: filepath.Join(ws, ".data")},
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel, content := range map[string]string{
		".acme/permissions.json":  `{"version":1,"rules":[]}`,
		".acme/hooks.json":        `{}`,
		".acme/agents/a.md":       "agent",
		".acme/skills/s/SKILL.md": "skill",
		".acme/notes.md":          "notes",
		".git/config":             "[core]",
		".git/hooks/pre-commit":   "#!/bin/sh",
		".git/HEAD":               "ref: refs/heads/main",
		".data/sessions/x.jsonl":  "{}",
		"sub/file.txt":            "file",
	} {
		writeFile(t, filepath.Join(ws, rel), content)
	}
	symlink(t, ".acme", filepath.Join(ws, "cfglink"))
	symlink(t, ".git/hooks", filepath.Join(ws, "hooklink"))
	symlink(t, ".acme/permissions.json", filepath.Join(ws, "permlink"))
	if err := os.Link(filepath.Join(ws, ".acme/permissions.json"), filepath.Join(ws, "hardperm")); err != nil {
		t.Fatal(err)
	}
	wsLink = filepath.Join(parent, "wslink")
	symlink(t, ws, wsLink)
	e = newFileEnv(t, builtin.FileOptions{Workdir: wsLink, Protected: paths.ProtectedPaths()})
	e.dir = ws
	return e, wsLink
}

func TestProtectedPathsAreRefused(t *testing.T) {
	const (
		protected = "Error: Protected path: "
		symlinked = "Error: Symlink paths are not allowed for "
	)
	tests := []struct {
		name string
		tool string
		path func(e *fileEnv, wsLink string) string
		want string // the start of the error result
	}{
		{"WritePermissions", "write_file", rel(".acme/permissions.json"), protected},
		{"WriteHooks", "write_file", rel(".acme/hooks.json"), protected},
		{"CreateMCPs", "write_file", rel(".acme/mcps.json"), protected},
		{"CreateAgent", "write_file", rel(".acme/agents/evil.md"), protected},
		{"CreateSkillDir", "write_file", rel(".acme/skills/new/SKILL.md"), protected},
		{"WriteGitHook", "write_file", rel(".git/hooks/pre-commit"), protected},
		{"CreateGitHook", "write_file", rel(".git/hooks/post-checkout"), protected},
		{"WriteGitConfig", "write_file", rel(".git/config"), protected},
		{"WriteDataHome", "write_file", rel(".data/sessions/x.jsonl"), protected},
		{"CreateInDataHome", "write_file", rel(".data/agents/new.md"), protected},
		{"DotDot", "write_file", rel("sub/../.acme/permissions.json"), protected},
		{"DotDotDeep", "write_file", rel("sub/./../sub/../.git/hooks/pre-push"), protected},
		{"DotSlashes", "write_file", rel("./.acme//permissions.json"), protected},
		{"Absolute", "write_file", abs(".acme/permissions.json"), protected},
		{"AbsoluteThroughWorkdirLink", "write_file", func(e *fileEnv, wsLink string) string {
			return filepath.Join(wsLink, ".acme/hooks.json")
		}, protected},
		{"CaseVariant", "write_file", rel(".ACME/Permissions.JSON"), protected},
		{"CaseVariantGitHooks", "write_file", rel(".Git/Hooks/pre-commit"), protected},
		{"HardLinkToPermissions", "write_file", rel("hardperm"), protected},
		{"SymlinkToFile", "write_file", rel("permlink"), symlinked},
		{"SymlinkToDir", "write_file", rel("cfglink/permissions.json"), symlinked},
		{"SymlinkToHooksDir", "write_file", rel("hooklink/pre-commit"), symlinked},
		{"EditPermissions", "edit_file", rel(".acme/permissions.json"), protected},
		{"EditHardLink", "edit_file", rel("hardperm"), protected},
		{"EditThroughSymlink", "edit_file", rel("cfglink/hooks.json"), symlinked},
		{"DeletePermissions", "delete_file", rel(".acme/permissions.json"), protected},
		{"DeleteAgent", "delete_file", rel(".acme/agents/a.md"), protected},
		{"DeleteSkill", "delete_file", rel(".acme/skills/s/SKILL.md"), protected},
		{"DeleteGitConfig", "delete_file", abs(".git/config"), protected},
		{"DeleteCaseVariant", "delete_file", rel(".acme/AGENTS/a.md"), protected},
		{"DeleteThroughSymlink", "delete_file", rel("cfglink/agents/a.md"), symlinked},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, wsLink := protectedEnv(t)
			before := treeHash(t, e.dir)
			p := tt.path(e, wsLink)
			res := call(t, e.tool(t, tt.tool), toolInput(tt.tool, p, "{"))
			if !res.IsError || !strings.HasPrefix(res.Content, tt.want) {
				t.Errorf("%s(%q) = %q, want an error starting %q", tt.tool, p, res.Content, tt.want)
			}
			if tt.want == protected && !strings.Contains(res.Content, p) {
				t.Errorf("the message does not name the path %q: %q", p, res.Content)
			}
			if after := treeHash(t, e.dir); after != before {
				t.Errorf("%s(%q) changed the workspace:\nbefore:\n%s\nafter:\n%s", tt.tool, p, before, after)
			}
			if n := len(e.rec.all()); n != 0 {
				t.Errorf("%d snapshots recorded for a refused change", n)
			}
		})
	}
}

func TestUnprotectedNeighboursStayWritable(t *testing.T) {
	tests := []struct{ tool, path string }{
		{"write_file", ".acme/notes.md"},
		{"write_file", ".acme/new.txt"},
		{"write_file", ".git/HEAD"},
		{"write_file", ".gitignore"},
		{"write_file", ".acme-old/permissions.json"},
		{"write_file", "sub/.acme/permissions.json"},
		{"write_file", "permissions.json"},
		{"edit_file", "sub/file.txt"},
		{"delete_file", ".acme/notes.md"},
		{"delete_file", "permlink"}, // the link itself, not what it points to
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.path, func(t *testing.T) {
			e, _ := protectedEnv(t)
			res := call(t, e.tool(t, tt.tool), toolInput(tt.tool, tt.path, "file"))
			if res.IsError && !(tt.path == "permlink" && strings.Contains(res.Content, "Symlink")) {
				t.Errorf("%s(%q) = %q, want success", tt.tool, tt.path, res.Content)
			}
			if got := readFile(t, filepath.Join(e.dir, ".acme/permissions.json")); got != `{"version":1,"rules":[]}` {
				t.Errorf("permissions.json changed to %q", got)
			}
		})
	}
}

func TestProtectedConfigThatDoesNotExistYet(t *testing.T) {
	ws := t.TempDir()
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: ws, Storage: storage.Options{Namespace: "acme", Home: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	tools, err := builtin.FileTools(builtin.FileOptions{Workdir: ws, Protected: paths.ProtectedPaths()})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{".acme/permissions.json", ".ACME/hooks.json", ".acme/skills/x/SKILL.md", ".git/config", ".git/hooks/pre-commit"} {
		res := call(t, byName(t, tools, "write_file"), map[string]any{"path": p, "content": "x"})
		if !res.IsError || !strings.HasPrefix(res.Content, "Error: Protected path: ") {
			t.Errorf("write_file(%q) = %q, want a protected path error", p, res.Content)
		}
	}
	entries, err := os.ReadDir(ws)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("refused writes left %d entries in the workspace, such as %s", len(entries), entries[0].Name())
	}
}

func TestProtectedPathsMustBeAbsolute(t *testing.T) {
	_, err := builtin.FileTools(builtin.FileOptions{Workdir: t.TempDir(), Protected: []string{".acme/permissions.json"}})
	if err == nil || !strings.Contains(err.Error(), "not an absolute path") {
		t.Fatalf("FileTools with a relative protected path: %v", err)
	}
}

func rel(p string) func(*fileEnv, string) string {
	return func(*fileEnv, string) string { return p }
}

func abs(p string) func(*fileEnv, string) string {
	return func(e *fileEnv, _ string) string { return e.path(p) }
}

// toolInput returns an input for a mutating tool: write_file writes
// "pwned", edit_file replaces old with it, delete_file deletes.
func toolInput(name, p, old string) map[string]any {
	switch name {
	case "write_file":
		return map[string]any{"path": p, "content": "pwned"}
	case "edit_file":
		return map[string]any{"path": p, "old_text": old, "new_text": "pwned"}
	default:
		return map[string]any{"path": p}
	}
}

// TestSwapDuringCallIsNotFollowed swaps the file's directory for a link to
// the config directory at a fixed point of the call, while the snapshot is
// recorded, and checks that the write lands in the directory that was
// opened, or fails, and leaves no temporary file.
func TestSwapDuringCallIsNotFollowed(t *testing.T) {
	tests := []struct {
		name    string
		swap    func(t *testing.T, ws string)
		wantErr bool
		landed  string // where the new content must be, when no error
	}{
		{"DirBecomesLink", func(t *testing.T, ws string) {
			if err := os.Rename(filepath.Join(ws, "a"), filepath.Join(ws, "moved")); err != nil {
				t.Fatal(err)
			}
			symlink(t, ".acme", filepath.Join(ws, "a"))
		}, false, "moved/permissions.json"},
		{"FileBecomesDir", func(t *testing.T, ws string) {
			if err := os.Remove(filepath.Join(ws, "a", "permissions.json")); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(filepath.Join(ws, "a", "permissions.json"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, true, ""},
		{"FileBecomesLink", func(t *testing.T, ws string) {
			if err := os.Remove(filepath.Join(ws, "a", "permissions.json")); err != nil {
				t.Fatal(err)
			}
			symlink(t, "../.acme/permissions.json", filepath.Join(ws, "a", "permissions.json"))
		}, false, "a/permissions.json"},
	}
	for _, tt := range tests {
		for _, name := range []string{"write_file", "edit_file"} {
			t.Run(tt.name+"/"+name, func(t *testing.T) {
				e := newFileEnv(t, builtin.FileOptions{})
				const original = `{"version":1,"rules":[]}`
				writeFile(t, e.path(".acme/permissions.json"), original)
				writeFile(t, e.path("a/permissions.json"), original)
				tools, err := builtin.FileTools(builtin.FileOptions{Workdir: e.dir, Snapshots: e.rec, Protected: []string{e.path(".acme/permissions.json")}})
				if err != nil {
					t.Fatal(err)
				}
				e.rec.onEvent = func(session.FileSnapshotEvent) { tt.swap(t, e.dir) }
				res := call(t, byName(t, tools, name), toolInput(name, "a/permissions.json", original))
				if tt.wantErr != res.IsError {
					t.Errorf("%s = %q, want an error: %t", name, res.Content, tt.wantErr)
				}
				if !tt.wantErr {
					if got := readFile(t, e.path(tt.landed)); got != "pwned" {
						t.Errorf("%s holds %q, want the new content", tt.landed, got)
					}
				}
				if got := readFile(t, e.path(".acme/permissions.json")); got != original {
					t.Errorf("the protected file now holds %q", got)
				}
				if temps := tempFiles(t, e.dir); len(temps) > 0 {
					t.Errorf("temporary files left: %q", temps)
				}
			})
		}
	}
}

// tempFiles returns the temporary files of the file tools below dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	var temps []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasSuffix(d.Name(), ".tmp") {
			temps = append(temps, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return temps
}
