//go:build unix

package builtin_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// TestWhatTheApprovalCoversIsWhatIsRead (files65): the approval handler
// runs between the gate's check of ok.txt and read_file's open, so it can
// put a symbolic link in ok.txt's place deterministically. A link to a
// denied file, or to one the policy asks about, is refused by the check
// of what was opened; a link to an allowed file is read; an untouched
// ok.txt is read as approved.
func TestWhatTheApprovalCoversIsWhatIsRead(t *testing.T) {
	cases := []struct {
		name, target string // "" leaves ok.txt a plain file
		want         string // the content read, or "" for a refusal
	}{
		{"untouched", "", "approved ok"},
		{"linkToDenied", ".env", ""},
		{"linkToAsked", "k.pem", ""},
		{"linkToAllowed", "docs/a.md", "doc a"},
	}
	failures := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws := t.TempDir()
			if err := os.MkdirAll(filepath.Join(ws, "docs"), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(ws, ".env"), "SECRET=env")
			writeFile(t, filepath.Join(ws, "k.pem"), "SECRET=pem")
			writeFile(t, filepath.Join(ws, "docs", "a.md"), "doc a")
			writeFile(t, filepath.Join(ws, "ok.txt"), "approved ok")
			policy, err := permission.New(permission.Options{
				Rules: []permission.Rule{
					{ID: "env", Tool: []string{"read_file"}, Effect: permission.Deny,
						When: map[string]permission.Condition{"path": permission.Glob("**/.env")}},
					{ID: "ask", Tool: []string{"read_file"}, Effect: permission.Ask,
						When: map[string]permission.Condition{"path": permission.Glob("{ok.txt,*.pem}")}},
				},
				Allow:   []string{"*"},
				Workdir: ws,
			})
			if err != nil {
				t.Fatal(err)
			}
			if policy, err = permission.Workspace(policy, permission.WorkspaceOptions{Workdir: ws}); err != nil {
				t.Fatal(err)
			}
			approve := func(ctx context.Context, req permission.ApprovalRequest) (permission.Decision, error) {
				if c.target != "" {
					if err := os.Remove(filepath.Join(ws, "ok.txt")); err != nil {
						return permission.Deny, err
					}
					if err := os.Symlink(c.target, filepath.Join(ws, "ok.txt")); err != nil {
						return permission.Deny, err
					}
				}
				return permission.Allow, nil
			}
			gate := permission.NewGate(permission.GateOptions{Policy: policy, Approve: approve, Queue: permission.NewApprovalQueue()})
			files, err := builtin.FileTools(builtin.FileOptions{Workdir: ws})
			if err != nil {
				t.Fatal(err)
			}
			res := call(t, gate.Wrap(byName(t, files, "read_file")), map[string]any{"path": "ok.txt"})
			switch {
			case c.want != "" && (res.IsError || res.Content != c.want):
				failures++
				t.Errorf("read_file ok.txt: %q, want %q", res.Content, c.want)
			case c.want == "" && (!res.IsError || strings.Contains(res.Content, "SECRET") || !strings.Contains(res.Content, "blocked by policy")):
				failures++
				t.Errorf("read_file ok.txt (now a link to %s): %q, want it blocked", c.target, res.Content)
			}
		})
	}
	t.Logf("%d failures", failures)
}
