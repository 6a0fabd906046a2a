package permission_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// A relative HomeDir is made absolute when the gate or policy is built,
// against the process's working directory then, as Workdir is: ~ names
// <cwd>/rel, wherever a bash line runs and whatever the workdir. Used as
// given, ~/f in a bash line was rel/f in the command's directory (the
// workdir), a file inside the workdir that the gate let the line write,
// and ~ in a rule named a directory below the workdir too.
func TestRelativeHomeDirIsMadeAbsoluteAtConstruction(t *testing.T) {
	cwd, wd := t.TempDir(), t.TempDir()
	t.Chdir(cwd)
	home := filepath.Join(cwd, "rel")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	allow := permission.PolicyFunc(func(context.Context, permission.Call) (permission.Verdict, error) {
		return permission.Verdict{Decision: permission.Allow}, nil
	})
	t.Run("gate", func(t *testing.T) {
		g := permission.NewGate(permission.GateOptions{Policy: allow, Workdir: wd, HomeDir: "rel"})
		in, _ := json.Marshal(map[string]string{"command": "echo x > ~/f"})
		out, err := g.Authorize(t.Context(), permission.Call{Name: "bash", Input: in})
		if err != nil {
			t.Fatal(err)
		}
		if out.Decision == permission.Allow {
			t.Errorf("echo x > ~/f with HomeDir rel: allowed (%s), want it to write %s, outside the workdir", out.Verdict.Reason, filepath.Join(home, "f"))
		}
	})
	rules := []permission.Rule{permission.FilePath("~/**", permission.Deny)}
	check := func(t *testing.T, p permission.Policy) {
		t.Helper()
		for path, want := range map[string]permission.Decision{
			filepath.Join(home, "f"):      permission.Deny,
			filepath.Join(wd, "rel", "f"): permission.Allow,
		} {
			in, _ := json.Marshal(map[string]string{"path": path, "content": "x"})
			v, err := p.Check(t.Context(), permission.Call{Name: "write_file", Input: in})
			if err != nil {
				t.Fatal(err)
			}
			if v.Decision != want {
				t.Errorf("write_file %s under a rule for ~/** with HomeDir rel: %s (%s), want %s", path, v.Decision, v.Reason, want)
			}
		}
	}
	t.Run("policy", func(t *testing.T) {
		p, err := permission.New(permission.Options{Rules: rules, Default: permission.Allow, Workdir: wd, HomeDir: "rel"})
		if err != nil {
			t.Fatal(err)
		}
		check(t, p)
	})
	t.Run("workspace", func(t *testing.T) {
		p, err := permission.New(permission.Options{Rules: rules, Default: permission.Allow, Workdir: wd, HomeDir: "rel"})
		if err != nil {
			t.Fatal(err)
		}
		w, err := permission.Workspace(p, permission.WorkspaceOptions{Workdir: wd, HomeDir: "rel"})
		if err != nil {
			t.Fatal(err)
		}
		check(t, w)
	})
	t.Run("file policy", func(t *testing.T) {
		fp, err := permission.NewFilePolicy(permission.FileOptions{Workdir: wd, HomeDir: "rel", Inline: rules, Default: permission.Allow})
		if err != nil {
			t.Fatal(err)
		}
		check(t, fp)
	})
}
