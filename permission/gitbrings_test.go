//go:build linux

package permission_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// gitIdentity lets git commit in a test's repository.
var gitIdentity = []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}

// gitIn runs git args in dir and returns its trimmed output.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	c := exec.Command("git", args...)
	c.Dir = dir
	c.Env = append(os.Environ(), gitIdentity...)
	c.Env = append(c.Env, "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// gitBringsRepo makes in wd a repository whose main branch has no
// .lite-agent (the project's protected configuration directory) but
// evil/.lite-agent/hooks.json, whose branch B adds .lite-agent/hooks.json,
// and which holds a commit no ref or reflog reaches that adds it too; it
// returns that commit's name. With clean, nothing of the history holds a
// .lite-agent at all, and B adds a plain file.
func gitBringsRepo(t *testing.T, wd string, clean bool) string {
	t.Helper()
	write := func(rel, content string) {
		p := filepath.Join(wd, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitIn(t, wd, "init", "-q", "-b", "main")
	write("README", "hello\n")
	if !clean {
		write("evil/.lite-agent/hooks.json", `{"hooks":{}}`)
	}
	gitIn(t, wd, "add", "-A")
	gitIn(t, wd, "commit", "-q", "-m", "main")
	gitIn(t, wd, "checkout", "-q", "-b", "B")
	if clean {
		write("b.txt", "b\n")
	} else {
		write(".lite-agent/hooks.json", `{"hooks":{}}`)
	}
	gitIn(t, wd, "add", "-A")
	gitIn(t, wd, "commit", "-q", "-m", "B")
	gitIn(t, wd, "checkout", "-q", "main")
	// The hidden commit: on a branch that is then deleted, its reflogs
	// expired.
	gitIn(t, wd, "checkout", "-q", "-b", "gone")
	write(".lite-agent/permissions.json", `{"rules":[]}`)
	write("gone.txt", "x\n")
	if clean {
		if err := os.RemoveAll(filepath.Join(wd, ".lite-agent")); err != nil {
			t.Fatal(err)
		}
	}
	gitIn(t, wd, "add", "-A")
	gitIn(t, wd, "commit", "-q", "-m", "gone")
	hidden := gitIn(t, wd, "rev-parse", "HEAD")
	gitIn(t, wd, "checkout", "-q", "main")
	gitIn(t, wd, "branch", "-q", "-D", "gone")
	gitIn(t, wd, "reflog", "expire", "--expire=now", "--all")
	return hidden
}

// TestGitMayBringAProtectedPath checks that a git command that writes the
// worktree from commits asks when the project's protected configuration
// directory, absent from the worktree, is in the history it may write
// from, and that each line really creates it when run; git checkout B
// -- .lite-agent/hooks.json was allowed, the protected path being judged
// by its existence alone (round rt132files). Where nothing in the history
// holds one, the same lines stay allowed.
func TestGitMayBringAProtectedPath(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	asks := []string{
		"git checkout -q B -- .lite-agent/hooks.json",
		"git checkout B -- .lite-agent",
		"git checkout -q B",
		"git switch -q B",
		"git restore --source B .lite-agent",
		"git restore --source=B -- .",
		"git reset -q --hard B",
		"git merge -q B",
		"git cherry-pick B",
		"git checkout B~0 -- .",
		"git checkout -q main:evil -- .",
		"git checkout -q HIDDEN -- .",
		"git checkout -q SHORT -- .",
		"git fetch -q . B && git merge -q FETCH_HEAD",
	}
	ordinary := []string{
		"git checkout -q B", "git switch -q B", "git merge -q B", "git checkout -q -b feature",
		"git reset -q --hard B", "git checkout B -- .", "git restore --source B .",
	}
	decide := func(t *testing.T, home, wd, line string) permission.Verdict {
		t.Helper()
		return decideLine(t, bringsGate(home, wd), line)
	}
	for _, line := range asks {
		t.Run(line, func(t *testing.T) {
			home, wd := t.TempDir(), t.TempDir()
			hidden := gitBringsRepo(t, wd, false)
			line := strings.ReplaceAll(strings.ReplaceAll(line, "HIDDEN", hidden), "SHORT", hidden[:10])
			if v := decide(t, home, wd, line); v.Decision == permission.Allow {
				t.Errorf("%q: allowed (%s), want an ask", line, v.Reason)
			}
			out := runIn(t, home, wd, line, gitIdentity...)
			if _, err := os.Lstat(filepath.Join(wd, ".lite-agent")); err != nil {
				t.Errorf("%q did not create .lite-agent when run (%v):\n%s", line, err, out)
			}
		})
	}
	// A protected file below a name that is a file now (conf, for
	// conf/prod.yaml): checking out a branch where conf is a directory
	// creates it.
	t.Run("below a file", func(t *testing.T) {
		home, wd := t.TempDir(), t.TempDir()
		gitIn(t, wd, "init", "-q", "-b", "main")
		if err := os.WriteFile(filepath.Join(wd, "conf"), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		gitIn(t, wd, "add", "-A")
		gitIn(t, wd, "commit", "-q", "-m", "main")
		gitIn(t, wd, "checkout", "-q", "-b", "D")
		gitIn(t, wd, "rm", "-q", "conf")
		writeTreeMode(t, wd, map[string]string{"conf/prod.yaml": "y\n"}, 0o644)
		gitIn(t, wd, "add", "-A")
		gitIn(t, wd, "commit", "-q", "-m", "D")
		gitIn(t, wd, "checkout", "-q", "main")
		g := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: wd, HomeDir: home,
			Protected: []string{filepath.Join(wd, "conf", "prod.yaml")}})
		line := "git checkout -q D"
		if v := decideLine(t, g, line); v.Decision == permission.Allow {
			t.Errorf("%q: allowed (%s), want an ask", line, v.Reason)
		}
		out := runIn(t, home, wd, line, gitIdentity...)
		if _, err := os.Lstat(filepath.Join(wd, "conf", "prod.yaml")); err != nil {
			t.Errorf("%q did not create conf/prod.yaml when run (%v):\n%s", line, err, out)
		}
	})
	// One gate judges the lines of a repository whose history holds no
	// .lite-agent, then the same lines once a new branch C has one: the
	// history the gate remembers as clean must not hide C.
	t.Run("nothing to bring, then a new branch", func(t *testing.T) {
		home, wd := t.TempDir(), t.TempDir()
		gitBringsRepo(t, wd, true)
		g := bringsGate(home, wd)
		for _, line := range ordinary {
			if v := decideLine(t, g, line); v.Decision != permission.Allow {
				t.Errorf("%q: %v (%s), want it allowed", line, v.Decision, v.Reason)
			}
		}
		commitLiteAgentOn(t, wd, "C")
		if _, err := os.Lstat(filepath.Join(wd, ".lite-agent")); err == nil {
			t.Fatal("main kept .lite-agent")
		}
		for _, line := range []string{"git checkout -q C", "git merge -q C", "git checkout C -- ."} {
			if v := decideLine(t, g, line); v.Decision == permission.Allow {
				t.Errorf("%q after branch C: allowed (%s), want an ask", line, v.Reason)
			}
		}
	})
}
