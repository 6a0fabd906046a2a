package liteagent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/permission"
)

// TestSearchToolsAreBuiltInAllowedAndConfined runs glob, grep and list_dir
// through an agent: they need no approval under the default policy, and a
// read deny rule hides the files it covers from all three.
func TestSearchToolsAreBuiltInAllowedAndConfined(t *testing.T) {
	for name, tc := range map[string]struct {
		policy func() (permission.Policy, error)
		want   []string
	}{
		"default policy": {
			policy: func() (permission.Policy, error) { return nil, nil },
			want: []string{
				"src/main.go\nsecrets/key.txt",
				"secrets/key.txt:1: token needle\nsrc/main.go:2: // needle",
				"secrets/ (dir)\nsrc/ (dir)",
			},
		},
		"read deny rule": {
			policy: func() (permission.Policy, error) {
				return permission.New(permission.Options{Rules: []permission.Rule{permission.FilePath("secrets/**", permission.Deny)}})
			},
			want: []string{
				"src/main.go\n(1 matching files withheld: the permission policy does not allow reading them.)",
				"src/main.go:2: // needle\n(1 files not searched: the permission policy does not allow reading them.)",
				"src/ (dir)\n(1 entries withheld: the permission policy does not allow reading them.)",
			},
		},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			for rel, content := range map[string]string{"src/main.go": "package main\n// needle\n", "secrets/key.txt": "token needle\n"} {
				p := filepath.Join(f.workdir, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// Make the order of glob's newest-first result certain.
			old := time.Now().Add(-time.Hour)
			if err := os.Chtimes(filepath.Join(f.workdir, "secrets", "key.txt"), old, old); err != nil {
				t.Fatal(err)
			}
			opts := f.options(nil)
			opts.OnApproval = nil // nothing may need an approval
			policy, err := tc.policy()
			if err != nil {
				t.Fatal(err)
			}
			opts.Permission = policy
			a := f.agent(t, opts)
			f.p.Reply(modeltest.ToolCalls(
				call("g", "glob", `{"pattern":"**/*.{go,txt}"}`),
				call("s", "grep", `{"pattern":"needle"}`),
				call("l", "list_dir", `{}`),
			))
			f.p.Reply(modeltest.Text("done"))
			if _, err := a.Send(t.Context(), "look around"); err != nil {
				t.Fatal(err)
			}
			reqs := f.p.Requests()
			if !strings.Contains(reqs[0].System, "Use glob, grep and list_dir to find files") {
				t.Errorf("the system prompt does not point at the search tools:\n%s", reqs[0].System)
			}
			last := reqs[1].Messages[len(reqs[1].Messages)-1]
			if len(last.Blocks) != 3 {
				t.Fatalf("tool results %+v", last.Blocks)
			}
			for i, b := range last.Blocks {
				if b.IsError || b.Content != tc.want[i] {
					t.Errorf("result %d = %q (error %v), want %q", i, b.Content, b.IsError, tc.want[i])
				}
			}
			if strings.Contains(last.Blocks[1].Content, "token") != (name == "default policy") {
				t.Errorf("grep result %q", last.Blocks[1].Content)
			}
		})
	}
}
