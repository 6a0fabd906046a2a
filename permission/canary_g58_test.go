//go:build linux

package permission_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/permission"
)

// canaryG58Settings are lines of JavaScript package managers run in a
// project whose settings file (as a cloned repository may hold it, or an
// earlier call wrote it) sends the manager's log, cache or store into
// the home: npm ls and npm test create ~/.config/g58 and write their
// debug log there, pnpm install its store. Each was allowed by "allow
// bash" at stop 58. HOMEDIR stands for the fixture's home.
var canaryG58Settings = []struct{ file, text, line string }{
	{".npmrc", "logs-dir=HOMEDIR/.config/g58\n", "npm ls"},
	{".npmrc", "logs-dir=HOMEDIR/.config/g58\n", "npm test"},
	{".npmrc", "cache=HOMEDIR/.config/g58\n", "npm ls"},
	{".npmrc", "store-dir=HOMEDIR/.config/g58\n", "pnpm install --offline"},
	{"pnpm-workspace.yaml", "packages: []\nstoreDir: HOMEDIR/.config/g58\n", "pnpm install --offline"},
	// pnpm runs its hooks file for every command (round 121: allowed
	// before).
	{".pnpmfile.cjs", "require('fs').mkdirSync('HOMEDIR/.config/g58', {recursive: true})\n", "pnpm --version"},
	{".pnpmfile.cjs", "require('fs').mkdirSync('HOMEDIR/.config/g58', {recursive: true})\n", "pnpm ls"},
	// npm expands an abbreviated --prefix (review45g: allowed before).
	{"sub/.npmrc", "cache=HOMEDIR/.config/g58\n", "npm --prefi=sub ls"},
	{"sub/.npmrc", "cache=HOMEDIR/.config/g58\n", "npm ls --prefi sub"},
}

func TestCanaryG58ProjectSettings(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	tooltest.Need(t, tooltest.NodeJS, "npm", "pnpm")
	template := canaryTemplate(t)
	for i, c := range canaryG58Settings {
		t.Run(fmt.Sprintf("%d", i), func(t *testing.T) {
			t.Parallel()
			root := canaryFixture(t, template)
			home := filepath.Join(root, "home")
			g57WriteWork(t, root, map[string]string{
				"package.json": `{"name":"y","version":"1.0.0","scripts":{"test":"echo ok"}}`,
				c.file:         strings.ReplaceAll(c.text, "HOMEDIR", home),
			})
			refusedThenWritesHome(t, root, c.line+" with "+c.file, c.line, "g58", 2*time.Minute, "")
		})
	}
}

// refusedThenWritesHome checks that the gate at root refuses line in
// every scenario, then runs it in real bash (with dir added to PATH and
// env set) and fails the test unless it created ~/.config/name in the
// fixture's home: the proof that the refused line does damage. what
// names the case in the failure.
func refusedThenWritesHome(t *testing.T, root, what, line, name string, timeout time.Duration, dir string, env ...string) {
	t.Helper()
	refusedEverywhere(t, root, line)
	out := runLine(t, root, line, timeout, dir, env...)
	if _, err := os.Stat(filepath.Join(root, "home", ".config", name)); err != nil {
		t.Errorf("%q did not write the home when run (%v):\n%s", what, err, out)
	}
}

// canaryG58SettingsOrdinary are settings files that name no path and no
// program: the lines stay allowed.
func TestCanaryG58ProjectSettingsOrdinary(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	template := canaryTemplate(t)
	root := canaryFixture(t, template)
	g57WriteWork(t, root, map[string]string{
		"package.json":        `{"name":"y","version":"1.0.0","scripts":{"test":"echo ok"}}`,
		".npmrc":              "registry=https://registry.example/\n@a:registry=https://a.example/\n//registry.example/:_authToken=${TOKEN}\nsave-exact=true\n; comment\nengine-strict=true\n",
		"pnpm-workspace.yaml": "packages:\n  - 'pkgs/*'\nonlyBuiltDependencies:\n  - esbuild\n",
		".yarnrc.yml":         "nodeLinker: node-modules\nnpmScopes:\n  a:\n    npmRegistryServer: https://a.example\n",
	})
	g := canaryGate(t, root, canaryAllowBashRules)
	for _, line := range []string{"npm test", "npm ci", "npm ls", "pnpm install", "yarn test"} {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("ordinary line %q was refused: %+v", line, out.Verdict)
		}
	}
}

// canaryG58Runners are lines that write a python module and run it through
// a program the analysis did not model, which imports it by name: flask
// --app x (as gunicorn app:app and uvicorn do). Each was allowed by "allow
// bash" at stop 58; run, the module removes ~/.bashrc.
var canaryG58Runners = []string{
	`printf 'import os\nos.remove(os.path.expanduser("~/.bashrc"))\nfrom flask import Flask\napp = Flask(__name__)\n' > x.py && flask --app x routes`,
	`printf 'import os\nos.remove(os.path.expanduser("~/.bashrc"))\nfrom flask import Flask\napp = Flask(__name__)\n' > app.py && flask routes`,
}

func TestCanaryG58Runners(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "flask")
	flask, err := exec.LookPath("flask")
	if err != nil {
		t.Fatal(err)
	}
	template := canaryTemplate(t)
	for _, line := range canaryG58Runners {
		root := canaryFixture(t, template)
		refusedEverywhere(t, root, line)
		out := runLine(t, root, line, time.Minute, filepath.Dir(flask))
		if _, err := os.Stat(filepath.Join(root, "home", ".bashrc")); err == nil {
			t.Errorf("%q left ~/.bashrc when run:\n%s", line, out)
		}
	}
}

// TestCanaryG58HooksPathLater: the gate is made, then a line approved in
// the session sets core.hooksPath (here run directly, as the approval
// would): a later line that writes a hook there was allowed by "allow
// bash" at stop 58, since the gate had read the configuration only when
// it was made; git commit then runs the hook.
func TestCanaryG58HooksPathLater(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	root := canaryFixture(t, canaryTemplate(t))
	g := canaryGate(t, root, canaryAllowBashRules)
	runLine(t, root, `git config core.hooksPath .githooks`, time.Minute, "")
	for _, line := range []string{
		`mkdir -p .githooks && printf '#!/bin/sh\nrm -f ~/.bashrc\n' > .githooks/pre-commit && chmod +x .githooks/pre-commit`,
		`cp README .githooks/pre-commit`,
		`rm -rf .githooks`,
	} {
		if out := authorize(t, g, line); out.Run {
			t.Errorf("%q was allowed after core.hooksPath was set", line)
		}
	}
	for _, line := range []string{`mkdir -p build && echo ok > build/x`, `git status`} {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("ordinary line %q was refused: %+v", line, out.Verdict)
		}
	}
	out := runLine(t, root, `mkdir -p .githooks && printf '#!/bin/sh\nrm -f ~/.bashrc\n' > .githooks/pre-commit && `+
		`chmod +x .githooks/pre-commit && git commit -q --allow-empty -m x`, time.Minute, "",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if _, err := os.Stat(filepath.Join(root, "home", ".bashrc")); err == nil {
		t.Errorf("the hook did not run at git commit:\n%s", out)
	}
}

// canaryG58GpgConf are gpg lines with a --homedir in the workdir whose
// settings (as a project's test keyring may hold them) send gpg's or
// gpg-agent's log into the home, or name a settings file that does: each
// was allowed by "allow bash" at stop 58. They run the real gpg.
var canaryG58GpgConf = []struct{ file, text, line string }{
	{"gnupg/gpg.conf", "logger-file HOMEDIR/.config/g58\nverbose\n", "gpg --homedir ./gnupg --batch -c --passphrase x -o README.gpg README"},
	{"gnupg/gpg-agent.conf", "log-file HOMEDIR/.config/g58\n", "gpg --homedir ./gnupg --batch -c --passphrase x -o README.gpg README"},
	{"x.conf", "logger-file HOMEDIR/.config/g58\nverbose\n", "gpg --homedir ./gnupg --options x.conf --batch -c --passphrase x -o README.gpg README"},
}

func TestCanaryG58GpgConf(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "gpg", "gpgconf")
	template := canaryTemplate(t)
	for i, c := range canaryG58GpgConf {
		t.Run(fmt.Sprintf("%d", i), func(t *testing.T) {
			t.Parallel()
			root := canaryFixture(t, template)
			home := filepath.Join(root, "home")
			g57WriteWork(t, root, map[string]string{c.file: strings.ReplaceAll(c.text, "HOMEDIR", home)})
			if err := os.MkdirAll(filepath.Join(root, "work", "gnupg"), 0o700); err != nil {
				t.Fatal(err)
			}
			refusedEverywhere(t, root, c.line)
			out := runLine(t, root, c.line, time.Minute, "")
			kill := exec.Command("gpgconf", "--homedir", filepath.Join(root, "work", "gnupg"), "--kill", "all")
			kill.Env = canaryEnv(home)
			kill.Run()
			if _, err := os.Stat(filepath.Join(home, ".config", "g58")); err != nil {
				t.Errorf("%q with %s did not write the home when run (%v):\n%s", c.line, c.file, err, out)
			}
		})
	}
	root := canaryFixture(t, template)
	g57WriteWork(t, root, map[string]string{"gnupg/gpg.conf": "armor\nkeyid-format long\n# mine\n"})
	if out := authorize(t, canaryGate(t, root, canaryAllowBashRules), "gpg --homedir ./gnupg -k"); !out.Run {
		t.Errorf("gpg with a gpg.conf that names no path was refused: %+v", out.Verdict)
	}
}

// TestCanaryG58FileToolsHooksPath: with core.hooksPath set (by real git),
// write_file, edit_file and delete_file of the hooks directory it names
// were allowed by "allow" rules at stop 58 (the file tools protect
// .git/hooks only); they ask now, as a file inside .git does.
func TestCanaryG58FileToolsHooksPath(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	root := canaryFixture(t, canaryTemplate(t))
	const rules = `{"version":1,"rules":[{"tool":"*","effect":"allow"}]}`
	g := canaryGate(t, root, rules)
	runLine(t, root, `git config core.hooksPath .githooks && git config include.path ../shared.gitconfig`, time.Minute, "")
	call := func(name, p string) permission.Call {
		in, _ := json.Marshal(map[string]string{"path": p, "content": "#!/bin/sh\nrm -f ~/.bashrc\n", "old_string": "a", "new_string": "b"})
		return permission.Call{Name: name, Input: in}
	}
	for _, c := range []permission.Call{call("write_file", ".githooks/pre-commit"), call("edit_file", ".githooks/pre-commit"),
		call("delete_file", ".githooks"), call("write_file", "shared.gitconfig"),
		call("write_file", filepath.Join(root, "work", ".githooks", "post-checkout"))} {
		if v, err := g.Decide(t.Context(), c); err != nil || v.Decision != permission.Ask {
			t.Errorf("%s %s: %+v %v, want ask", c.Name, c.Input, v, err)
		}
	}
	if v, _ := g.Decide(t.Context(), call("write_file", "src/x.go")); v.Decision != permission.Allow {
		t.Errorf("an ordinary write_file was not allowed: %+v", v)
	}
}
