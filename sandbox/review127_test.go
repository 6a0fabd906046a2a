//go:build linux

package sandbox_test

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A sandboxed command that fills .git/modules with git directories of
// its own must not push the user's configuration out of the reader's
// budget: a relative core.hooksPath in ~/.gitconfig (.githooks) stayed
// writable in the next session, and git commit, run later outside the
// sandbox, ran the hook planted there.
func TestReview127ManyModulesDoNotHideTheUsersHooksPath(t *testing.T) {
	p := newRT127(t)
	p.git(t, p.wd, "config", "--global", "core.hooksPath", ".githooks")
	writeFile(t, filepath.Join(p.wd, ".githooks", ".gitignore"), "*\n")
	// The first session plants the git directories.
	out := p.bash(t, p.sandbox(t), "for i in $(seq 100); do mkdir -p .git/modules/m$i && echo ref: refs/heads/main > .git/modules/m$i/HEAD && : > .git/modules/m$i/config; done; echo planted")
	if !strings.Contains(out, "planted") {
		t.Fatalf("planting: %s", out)
	}
	// The next session plants the hook.
	p.bash(t, p.sandbox(t), p.plantHook(".githooks"))
	p.commitOutside(t, p.wd)
}

// The global and system configuration git reads are where the host's
// environment says (GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM), and
// GIT_CONFIG_COUNT adds settings of its own: a relative core.hooksPath
// given there names a directory of the workdir too.
func TestReview127HooksPathTheEnvironmentGivesIsReadOnly(t *testing.T) {
	for _, how := range []string{"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_COUNT"} {
		t.Run(how, func(t *testing.T) {
			p := newRT127(t)
			cfg := filepath.Join(p.dir, "dotfiles", "gitconfig")
			writeFile(t, cfg, "[core]\n\thooksPath = .githooks\n")
			switch how {
			case "GIT_CONFIG_GLOBAL":
				t.Setenv("GIT_CONFIG_GLOBAL", cfg)
			case "GIT_CONFIG_SYSTEM":
				t.Setenv("GIT_CONFIG_SYSTEM", cfg)
				p.env = slicesWithout(p.env, "GIT_CONFIG_NOSYSTEM=1")
			case "GIT_CONFIG_COUNT":
				t.Setenv("GIT_CONFIG_COUNT", "1")
				t.Setenv("GIT_CONFIG_KEY_0", "core.hooksPath")
				t.Setenv("GIT_CONFIG_VALUE_0", ".githooks")
			}
			writeFile(t, filepath.Join(p.wd, ".githooks", ".gitignore"), "*\n")
			p.bash(t, p.sandbox(t), p.plantHook(".githooks"))
			p.commitOutside(t, p.wd)
		})
	}
}

func slicesWithout(s []string, v string) []string {
	var out []string
	for _, e := range s {
		if e != v {
			out = append(out, e)
		}
	}
	return out
}

// Variables whose values are credentials though their names do not say
// so by the words CredentialVar knows: a proxy or index URL with a
// password in it, a DSN, npm's _auth.
func TestReview127CredentialValuesAreHidden(t *testing.T) {
	p := newRT127(t)
	vars := map[string]string{
		"HTTPS_PROXY":      "http://alice:RV127SECRET1@proxy.example.com:3128",
		"PIP_INDEX_URL":    "https://alice:RV127SECRET2@pypi.example.com/simple",
		"SENTRY_DSN":       "RV127SECRET3",
		"NPM_CONFIG__AUTH": "RV127SECRET4",
	}
	for k, v := range vars {
		t.Setenv(k, v)
	}
	// Settings, not credentials: they still reach the command.
	kept := map[string]string{"HTTP_PROXY": "http://proxy.example.com:3128", "GIT_URL": "https://alice@example.com/x.git",
		"SSH_AUTH_SOCK": "/run/user/1000/ssh.sock"}
	for k, v := range kept {
		t.Setenv(k, v)
	}
	out := p.bash(t, p.sandbox(t), "env")
	for k := range vars {
		if strings.Contains(out, k+"=") {
			t.Errorf("%s reached the command", k)
		}
	}
	for k, v := range kept {
		if !strings.Contains(out, k+"="+v) {
			t.Errorf("%s did not reach the command", k)
		}
	}
}

// A checked-out submodule's .git (the file naming .git/modules/NAME) lay
// in the writable worktree: the command replaced it with a repository of
// its own, whose core.fsmonitor ran at the user's git status in the
// superproject, the read-only .git/modules/NAME notwithstanding.
func TestReview127SubmoduleGitFileIsReadOnly(t *testing.T) {
	for _, fill := range []bool{false, true} {
		t.Run(fmt.Sprint("fill=", fill), func(t *testing.T) { testSubmoduleGitFile(t, fill) })
	}
}

// testSubmoduleGitFile, with fill, first has a command fill .git/modules
// with more git directories than the reader reads.
func testSubmoduleGitFile(t *testing.T, fill bool) {
	p := newRT127(t)
	p.addSubmodule(t)
	if fill {
		p.bash(t, p.sandbox(t), "for i in $(seq 70); do mkdir -p .git/modules/m$i && echo ref: refs/heads/main > .git/modules/m$i/HEAD && : > .git/modules/m$i/config; done")
	}
	sb := p.sandbox(t)
	out := p.bash(t, sb, "cd lib && rm .git && git init -q . && git add -A && git -c user.name=a -c user.email=a@b commit -q -m x && printf '"+p.fsmonitor()+"' >> .git/config && echo done")
	t.Log(out)
	p.git(t, p.wd, "status", "--short")
	p.checkHome(t, "git status in the superproject")
	if fill {
		return // .git/modules is read-only whole: commits in lib fail in the sandbox
	}
	if out := p.bash(t, sb, "echo y > lib/y.txt && git -C lib add y.txt && git -C lib commit -q -m y && echo committed"); !strings.Contains(out, "committed") {
		t.Fatalf("git commit in the submodule in the sandbox: %s", out)
	}
}

// git expands ~NAME/ in core.hooksPath to that user's home, the current
// user's own among them: the reader took any ~NAME for another user's
// home and skipped it, so .githooks named that way stayed writable.
func TestReview127HooksPathOfANamedHomeIsReadOnly(t *testing.T) {
	p := newRT127(t)
	u, err := user.Current()
	if err != nil || u.HomeDir == "" {
		t.Skip("no user home")
	}
	rel, err := filepath.Rel(u.HomeDir, p.wd)
	if err != nil {
		t.Skip(err)
	}
	p.git(t, p.wd, "config", "core.hooksPath", "~"+u.Username+"/"+rel+"/.githooks")
	writeFile(t, filepath.Join(p.wd, ".githooks", ".gitignore"), "*\n")
	p.bash(t, p.sandbox(t), p.plantHook(".githooks"))
	p.commitOutside(t, p.wd)
}

// HiddenEnv named the credential variables of the host's environment when
// ProjectOptions was called: one the command's own environment carries (an
// SDK host's bash.Options.Env, a variable set later) reached the command.
func TestReview127CredentialVariablesOfTheCommandsEnvironmentAreHidden(t *testing.T) {
	p := newRT127(t)
	sb := p.sandbox(t)
	p.env = append(p.env, "RV127_DEPLOY_TOKEN=RV127SECRET5", "RV127_MIRROR=https://u:RV127SECRET6@example.com/")
	t.Setenv("RV127_LATER_PASSWORD", "RV127SECRET7")
	out := p.bash(t, sb, "env")
	if strings.Contains(out, "RV127SECRET") {
		t.Errorf("a credential variable reached the command:\n%s", out)
	}
}

// A relative core.hooksPath in the user's configuration names a directory
// of every worktree git runs hooks in, a checked-out submodule's too: a
// hook put in lib/.githooks ran at the user's git commit in lib.
func TestReview127UsersHooksPathInASubmoduleIsReadOnly(t *testing.T) {
	p := newRT127(t)
	p.addSubmodule(t)
	p.git(t, p.wd, "config", "--global", "core.hooksPath", ".githooks")
	p.bash(t, p.sandbox(t), "mkdir -p lib/.githooks && "+p.plantHook("lib/.githooks"))
	p.commitOutside(t, filepath.Join(p.wd, "lib"))
}

// A command that left named pipes where git directories' files are read
// (.git/modules/mN/config) made every later ProjectOptions wait for git
// config to time out on each, 5 s a read: the next session hung for
// minutes before its first command.
func TestReview127NamedPipesDoNotStallTheNextSession(t *testing.T) {
	p := newRT127(t)
	p.bash(t, p.sandbox(t), "for i in $(seq 4); do mkdir -p .git/modules/m$i && echo ref: refs/heads/main > .git/modules/m$i/HEAD && mkfifo .git/modules/m$i/config; done")
	start := time.Now()
	p.sandbox(t)
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("making the next session's sandbox took %v", d)
	}
}

// Each git directory in .git/modules costs git config runs and a mount
// or two: 300 a command made cost the next session 6 s before its first
// command (1,000: 19 s). Beyond the reader's budget .git/modules is kept
// read-only whole instead.
func TestReview127ManyModulesDoNotStallTheNextSession(t *testing.T) {
	p := newRT127(t)
	p.bash(t, p.sandbox(t), "for i in $(seq 300); do mkdir -p .git/modules/m$i && echo ref: refs/heads/main > .git/modules/m$i/HEAD && : > .git/modules/m$i/config; done")
	start := time.Now()
	sb := p.sandbox(t)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("making the next session's sandbox took %v", d)
	}
	if out := p.bash(t, sb, "echo x > .git/modules/m1/config && echo written"); strings.Contains(out, "written") {
		t.Errorf("a git directory of .git/modules beyond the budget was writable")
	}
}

// A program the git configuration runs by itself (core.fsmonitor at git
// status, a textconv at git diff, a filter at checkout …) may be named
// by a path in the workdir: the user's own core.fsmonitor =
// tools/fsmon.sh ran what a sandboxed command wrote there at git status.
func TestReview127ProgramsTheConfigurationRunsAreReadOnly(t *testing.T) {
	for name, c := range map[string]struct{ file, value string }{
		"path":     {"tools/fsmon.sh", "tools/fsmon.sh"},
		"argument": {"fsmon.sh", "sh fsmon.sh"},
		"missing":  {"fsmon2.sh", "./fsmon2.sh"},
	} {
		t.Run(name, func(t *testing.T) {
			p := newRT127(t)
			if name != "missing" {
				writeFile(t, filepath.Join(p.wd, c.file), "#!/bin/sh\nexit 1\n")
				if err := os.Chmod(filepath.Join(p.wd, c.file), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			p.git(t, p.wd, "config", "core.fsmonitor", c.value)
			p.bash(t, p.sandbox(t), "printf '#!/bin/sh\\n"+p.pwned()+"\\nexit 1\\n' > "+c.file+"; chmod +x "+c.file)
			cmd := exec.Command("git", "status", "--short")
			cmd.Dir = p.wd
			cmd.Env = append(os.Environ(), p.env...)
			cmd.Run() // a core.fsmonitor that fails is only a warning
			p.checkHome(t, "git status")
		})
	}
}
