//go:build unix

package liteagent_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/permission"
)

// The agent's gate knows the environment its bash tool gives a line
// (Options.Bash.Env, or the process's): a plain pip install is allowed by
// an allowing policy when that PATH finds the pip of a virtual environment
// of the workdir (an activated .venv), and asks (denied with no approver)
// otherwise.
func TestAgentGateKnowsTheBashEnvironment(t *testing.T) {
	for _, c := range []struct {
		name      string
		activated bool
		process   bool
	}{{"activated in Options.Bash.Env", true, false}, {"activated in the process", true, true}, {"not activated", false, false}} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			python := filepath.Join(t.TempDir(), "python3.12")
			exe, err := os.ReadFile("/bin/true")
			if err != nil {
				t.Skip(err)
			}
			env := filepath.Join(f.workdir, ".venv")
			for name, content := range map[string]string{
				"pyvenv.cfg": "home = " + filepath.Dir(python) + "\n",
				"bin/pip":    "#!" + filepath.Join(env, "bin", "python3") + "\n",
			} {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(env, name)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(env, name), []byte(content), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(python, exe, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(python, filepath.Join(env, "bin", "python3")); err != nil {
				t.Fatal(err)
			}
			path := "PATH=/usr/bin:/bin"
			if c.activated {
				path = "PATH=" + filepath.Join(env, "bin") + ":/usr/bin:/bin"
			}
			opts := f.options(nil)
			opts.OnApproval = nil
			opts.Permission = permission.PolicyFunc(func(context.Context, permission.Call) (permission.Verdict, error) {
				return permission.Verdict{Decision: permission.Allow}, nil
			})
			if c.process {
				t.Setenv("PATH", path[len("PATH="):])
			} else {
				opts.Bash.Env = []string{path, "HOME=" + f.home}
			}
			a := f.agent(t, opts)
			f.p.Reply(modeltest.ToolCalls(call("b", "bash", `{"command":"pip install -r requirements.txt"}`)))
			f.p.Reply(modeltest.Text("ok"))
			for _, err := range a.Run(t.Context(), "go") {
				if err != nil {
					t.Fatal(err)
				}
			}
			msgs := f.p.Requests()[1].Messages
			res := msgs[len(msgs)-1].Blocks[0].Content
			if allowed := res == "(no output)"; allowed != c.activated {
				t.Errorf("allowed %v, want %v: %q", allowed, c.activated, res)
			}
		})
	}
}
