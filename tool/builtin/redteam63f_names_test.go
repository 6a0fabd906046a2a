package builtin_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// TestRuleNamesAgainstSpellings (redteam63f): a policy that allows the file
// and search tools but denies reading .env and changing secrets/, behind
// the workspace resolver and the gate as an agent has them. The model
// spells those paths every way a name can be bent: trailing slashes and
// dots, "//", "..", after a symbolic link, absolute through a linked
// workdir, NUL bytes, invalid UTF-8, PATH_MAX and longer. No spelling may
// return the secret or change secrets/.
func TestRuleNamesAgainstSpellings(t *testing.T) {
	top := t.TempDir()
	real := filepath.Join(top, "real")
	if err := os.MkdirAll(filepath.Join(real, "secrets"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(real, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(top, "linked")
	symlink(t, real, linked)
	writeFile(t, filepath.Join(real, ".env"), "SECRET=1")
	writeFile(t, filepath.Join(real, "secrets", "key"), "KEY")
	symlink(t, "..", filepath.Join(real, "sub", "up"))
	policy, files := gatedFileTools(t, linked)
	readable := func(ctx context.Context, session, p string) (bool, error) {
		in, _ := json.Marshal(map[string]string{"path": p})
		v, err := policy.Check(ctx, permission.Call{Name: "read_file", Input: in})
		return err == nil && v.Decision == permission.Allow, err
	}
	search, err := builtin.SearchTools(builtin.FileOptions{Workdir: linked}, builtin.SearchOptions{Readable: readable})
	if err != nil {
		t.Fatal(err)
	}
	tools := append(files, permission.NewGate(permission.GateOptions{Policy: policy}).WrapAll(search)...)

	long := strings.Repeat("a/", 2100) + "../"
	envs := []string{".env", "./.env", ".env/", ".env/.", "//.env", ".//.env", "sub/../.env", "sub/up/.env",
		"sub/up/sub/up/.env", linked + "/.env", real + "/.env", linked + "//.env", real + "/sub/up/.env",
		".env\x00", ".env\x00x", "\x00.env", ".e\xffnv", strings.Repeat("./", 2100) + ".env",
		strings.Repeat("sub/../", 600) + ".env", strings.Repeat("sub/up/", 600) + ".env", long + ".env",
		".env ", " .env", ".env\n", ".env\t", "\u2024env", ".ENV"}
	secrets := []string{"secrets/key", "./secrets/key", "secrets//key", "secrets/./key", "sub/../secrets/key",
		"sub/up/secrets/key", linked + "/secrets/key", real + "/secrets/key", "secrets/key/", "secrets/key/.",
		"secrets/new", "secrets/./new", "sub/up/secrets/new", "secrets\x00/new", "secrets/new\x00",
		strings.Repeat("./", 2100) + "secrets/new", "secrets/", "secrets"}
	var calls, leaks int
	run := func(name string, input map[string]any) string {
		t.Helper()
		raw, err := json.Marshal(input)
		if err != nil {
			t.Fatal(err)
		}
		tl := byName(t, tools, name)
		res, err := tl.Call(context.Background(), nil, raw)
		calls++
		if err != nil {
			return "Error: " + err.Error()
		}
		return res.Content
	}
	for _, p := range envs {
		for _, s := range []struct {
			tool  string
			input map[string]any
		}{
			{"read_file", map[string]any{"path": p}},
			{"grep", map[string]any{"pattern": "SECRET", "path": p}},
			{"grep", map[string]any{"pattern": "SECRET", "path": filepath.Dir(p)}},
			{"glob", map[string]any{"pattern": filepath.Base(p)}},
			{"list_dir", map[string]any{"path": filepath.Dir(p)}},
		} {
			out := run(s.tool, s.input)
			if strings.Contains(out, "SECRET=1") || s.tool != "read_file" && strings.Contains(out, ".env") && !strings.Contains(out, "Error") && !strings.Contains(out, "left out") {
				leaks++
				t.Errorf("%s %q: %q", s.tool, s.input, out)
			}
		}
	}
	for _, p := range secrets {
		out := run("read_file", map[string]any{"path": p})
		if strings.Contains(out, "KEY") {
			leaks++
			t.Errorf("read_file %q: %q", p, out)
		}
		run("write_file", map[string]any{"path": p, "content": "changed"})
		run("edit_file", map[string]any{"path": p, "old_text": "KEY", "new_text": "changed"})
		run("delete_file", map[string]any{"path": p})
	}
	if got := readFile(t, filepath.Join(real, "secrets", "key")); got != "KEY" {
		leaks++
		t.Errorf("secrets/key is now %q", got)
	}
	if entries, _ := os.ReadDir(filepath.Join(real, "secrets")); len(entries) != 1 {
		leaks++
		t.Errorf("secrets/ holds %d entries, want 1", len(entries))
	}
	t.Logf("%d calls, %d got through", calls, leaks)
}

// TestSearchPatternsStayInside (redteam63f): glob patterns and grep's
// include that climb out with "..", an absolute path, a brace group or a
// class that spells "..": none lists or reads the file beside the
// workspace.
func TestSearchPatternsStayInside(t *testing.T) {
	top := t.TempDir()
	ws := filepath.Join(top, "ws")
	if err := os.MkdirAll(filepath.Join(ws, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(top, "outside.txt"), "OUTSIDE")
	writeFile(t, filepath.Join(ws, "sub", "in.txt"), "inside")
	tools, err := builtin.SearchTools(builtin.FileOptions{Workdir: ws}, builtin.SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ tool, in string }{
		{"glob", `{"pattern":"../*"}`}, {"glob", `{"pattern":"**/../../*"}`}, {"glob", `{"pattern":"sub/../../*"}`},
		{"glob", `{"pattern":"/` + top[1:] + `/*"}`}, {"glob", `{"pattern":"*","path":".."}`}, {"glob", `{"pattern":"{..,sub}/*"}`},
		{"grep", `{"pattern":"OUTSIDE","include":"../*"}`}, {"grep", `{"pattern":"OUTSIDE","include":"{../outside.txt,x}"}`},
		{"grep", `{"pattern":"OUTSIDE","path":"sub/../.."}`}, {"grep", `{"pattern":"OUTSIDE","include":"/` + top[1:] + `/*"}`},
		{"list_dir", `{"path":"sub/../.."}`}, {"glob", `{"pattern":"[.][.]/*"}`}, {"glob", `{"pattern":".?/*"}`},
	} {
		res := call(t, byName(t, tools, c.tool), c.in)
		if strings.Contains(res.Content, "OUTSIDE") || strings.Contains(res.Content, "outside.txt") {
			t.Errorf("%s %s: %q", c.tool, c.in, res.Content)
		}
	}
}

// gatedFileTools returns the policy of an agent working in ws, which
// allows every tool but denies reading .env and reading or changing
// secrets/, resolved by the workspace resolver, and the file tools of ws
// behind a gate on it, as an agent has them.
func gatedFileTools(t *testing.T, ws string) (permission.Policy, []tool.Tool) {
	t.Helper()
	policy, err := permission.New(permission.Options{
		Rules: []permission.Rule{
			{ID: "env", Tool: []string{"read_file", "grep", "glob", "list_dir"}, Effect: permission.Deny,
				When: map[string]permission.Condition{"path": permission.Glob("**/.env")}},
			{ID: "secrets", Tool: []string{"read_file", "write_file", "edit_file", "delete_file"}, Effect: permission.Deny,
				When: map[string]permission.Condition{"path": permission.Glob("secrets/**")}},
		},
		Allow:   []string{"*"},
		Workdir: ws,
	})
	if err != nil {
		t.Fatal(err)
	}
	policy, err = permission.Workspace(policy, permission.WorkspaceOptions{Workdir: ws})
	if err != nil {
		t.Fatal(err)
	}
	files, err := builtin.FileTools(builtin.FileOptions{Workdir: ws})
	if err != nil {
		t.Fatal(err)
	}
	return policy, permission.NewGate(permission.GateOptions{Policy: policy}).WrapAll(files)
}
