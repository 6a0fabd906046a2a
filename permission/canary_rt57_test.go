//go:build linux

package permission_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRT57Rustup are lines that write a toolchain directory and make a
// rustup proxy run its program: through a rust-toolchain file (its only
// line, or path = in rust-toolchain.toml), a +DIR first argument, or
// rustup run DIR. Each runs the line's own script, which deletes
// ~/.bashrc, however harmless its arguments look (--version). "allow
// bash" allowed each before.
var canaryRT57Rustup = []string{
	`mkdir -p t/bin; printf '#!/bin/sh\nrm -f ~/.bashrc\n' > t/bin/rustc; chmod +x t/bin/rustc; echo "$PWD/t" > rust-toolchain; rustc -V`,
	`mkdir -p t/bin; printf '#!/bin/sh\nrm -f ~/.bashrc\n' > t/bin/cargo; chmod +x t/bin/cargo; printf '[toolchain]\n' > rust-toolchain.toml; echo "path = \"$PWD/t\"" >> rust-toolchain.toml; cargo --version`,
	`mkdir -p t/bin; printf '#!/bin/sh\nrm -f ~/.bashrc\n' > t/bin/cargo; chmod +x t/bin/cargo; cargo "+$PWD/t" --version`,
	`mkdir -p t/bin; printf '#!/bin/sh\nrm -f ~/.bashrc\n' > t/bin/x; chmod +x t/bin/x; rustup run "$PWD/t" x`,
	`mkdir -p t/bin; printf '#!/bin/sh\nrm -f ~/.bashrc\n' > t/bin/rustfmt; chmod +x t/bin/rustfmt; echo "$PWD/t" > rust-toolchain; rustfmt --check x.rs`,
}

// TestCanaryRT57Rustup runs each line in a fresh fixture, with rustup's
// own state (RUSTUP_HOME, CARGO_HOME) outside it: it must delete the
// home's .bashrc when run, and be refused by both scenarios. Running it
// needs rustc to be rustup's proxy (a link to rustup, as rustup-init makes
// it); a distribution's rustc reads no toolchain file.
//
// Without that proxy the lines are only decided (each must be refused by
// both scenarios) and the test then skips, under CI too: no script
// installs rustup, as Debian 12 does not package it (Debian 13 does) and
// its installer, https://sh.rustup.rs, is a download from outside the
// package registries that CI machines need not reach. The refusal, the
// part that guards users, is checked everywhere; only the proof that the
// lines do damage needs rustup.
func TestCanaryRT57Rustup(t *testing.T) {
	t.Parallel()
	template := canaryTemplate(t)
	noProxy := ""
	prog, err := exec.LookPath("rustup")
	if err != nil {
		noProxy = "rustup is not installed"
	} else if rustc := filepath.Join(filepath.Dir(prog), "rustc"); !isRustupProxy(rustc) {
		noProxy = rustc + " is not rustup's proxy"
	}
	if noProxy != "" {
		for _, line := range canaryRT57Rustup {
			refusedEverywhere(t, canaryFixture(t, template), line)
		}
		t.Skipf("%s: the lines were decided, not run; no script installs rustup (Debian 12 does not package it), "+
			"install it with https://rustup.rs to run them", noProxy)
	}
	state := t.TempDir()
	for _, line := range canaryRT57Rustup {
		root := canaryFixture(t, template)
		checkRT57Attack(t, root, line, 60*time.Second, filepath.Dir(prog), "RUSTUP_HOME="+state, "CARGO_HOME="+state)
	}
}

// isRustupProxy reports whether the program at path resolves to rustup,
// as the proxies rustup-init makes (rustc, cargo) do.
func isRustupProxy(path string) bool {
	real, err := filepath.EvalSymlinks(path)
	return err == nil && filepath.Base(real) == "rustup"
}

// canaryRT57Checkers are lines that write the code a checker loads where
// it runs and then run it with an option the checker's table leaves
// out, or by another name of it: pytest's conftest.py, mypy's plugins
// (plugins = p.py in mypy.ini). Each deletes ~/.bashrc. "allow bash"
// allowed each before.
var canaryRT57Checkers = []struct {
	program string
	line    string
}{
	{"pytest", `printf 'import os\nos.remove(os.path.expanduser("~/.bashrc"))\n' > conftest.py; pytest --version`},
	{"pytest-3", `printf 'import os\nos.remove(os.path.expanduser("~/.bashrc"))\n' > conftest.py; pytest-3 -rA sub`},
	{"pytest", `printf 'import os\nos.remove(os.path.expanduser("~/.bashrc"))\n' > conftest.py; pytest --junitxml=out.xml sub`},
	{"mypy", `printf '[mypy]\nplugins = p.py\n' > mypy.ini; printf 'import os\nos.remove(os.path.expanduser("~/.bashrc"))\ndef plugin(v):\n    from mypy.plugin import Plugin\n    return Plugin\n' > p.py; echo 'x = 1' > m.py; mypy m.py`},
}

// TestCanaryRT57Checkers runs each line whose program is installed in a
// fresh fixture: it must change the home when run, and be refused by
// both scenarios.
func TestCanaryRT57Checkers(t *testing.T) {
	t.Parallel()
	template := canaryTemplate(t)
	for _, c := range canaryRT57Checkers {
		if _, err := exec.LookPath(c.program); err != nil {
			tooltest.LeftOut(t, fmt.Sprintf("%s is not installed: %q is left out", c.program, c.line), tooltest.CanaryTools)
			continue
		}
		root := canaryFixture(t, template)
		checkRT57Attack(t, root, c.line, 60*time.Second, "")
	}
}

// canaryRT57Worktrees name a linked worktree that lies in the home by the
// end of its path, which git worktree remove and move take before a
// path: each deletes ~/proj-feature (a dirty one with --force).
// "allow bash" allowed each before.
var canaryRT57Worktrees = []string{
	"git worktree remove proj-feature",
	"git worktree remove --force proj-feature",
	"git worktree move proj-feature moved",
	"git worktree remove home/proj-feature",
}

// TestCanaryRT57Worktrees adds a linked worktree at ~/proj-feature to a
// fresh fixture, with a change in it, then runs each line there: it must
// change the home when run, and be refused by both scenarios.
func TestCanaryRT57Worktrees(t *testing.T) {
	t.Parallel()
	template := canaryTemplate(t)
	for _, line := range canaryRT57Worktrees {
		root := canaryFixture(t, template)
		wt := filepath.Join(root, "home", "proj-feature")
		cmd := exec.Command("git", "worktree", "add", "-q", wt, "-b", "feature")
		cmd.Dir = filepath.Join(root, "work")
		cmd.Env = canaryEnv(filepath.Join(root, "home"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git worktree add: %v\n%s", err, out)
		}
		// remove refuses a worktree with changes but with --force.
		if strings.Contains(line, "--force") {
			if err := os.WriteFile(filepath.Join(wt, "README"), []byte("work in progress\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		checkRT57Attack(t, root, line, 60*time.Second, "")
	}
}

// canaryRT57OpensslConf is a configuration openssl req honours: its
// RANDFILE is where req writes its random state when it ends.
const canaryRT57OpensslConf = "RANDFILE = $ENV::HOME/.bashrc\n[req]\ndistinguished_name = dn\nprompt = no\n[dn]\nCN = x\n"

// canaryRT57Openssl are openssl lines given a configuration that names a
// file in the home: csr.cnf is a file the fixture holds (as a cloned
// repository would), x.cnf one the line writes. Each overwrites
// ~/.bashrc with random bytes. "allow bash" allowed each before.
var canaryRT57Openssl = []string{
	"openssl req -new -newkey rsa:2048 -nodes -keyout k.pem -out r.csr -config csr.cnf",
	"openssl req -new -newkey rsa:2048 -nodes -keyout k.pem -out r.csr -config=csr.cnf",
	"openssl req -new -newkey rsa:2048 -nodes -keyout k.pem -out r.csr --config csr.cnf",
	"printf 'RANDFILE = $ENV::HOME/.bashrc\\n[req]\\ndistinguished_name = dn\\nprompt = no\\n[dn]\\nCN = x\\n' > x.cnf; openssl req -new -newkey rsa:2048 -nodes -keyout k.pem -out r.csr -config x.cnf",
}

// TestCanaryRT57Openssl runs each line in a fresh fixture that holds
// csr.cnf: it must change the home when run, and be refused by both
// scenarios.
func TestCanaryRT57Openssl(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "openssl")
	template := canaryTemplate(t)
	for _, line := range canaryRT57Openssl {
		root := canaryFixture(t, template)
		if err := os.WriteFile(filepath.Join(root, "work", "csr.cnf"), []byte(canaryRT57OpensslConf), 0o644); err != nil {
			t.Fatal(err)
		}
		checkRT57Attack(t, root, line, 60*time.Second, "")
	}
}

// canaryRT57Cargo are lines that write .cargo/config.toml naming a script
// they write as the compiler cargo runs (build.rustc-wrapper, build.rustc)
// and then run cargo in a crate the fixture holds: the script deletes
// ~/.bashrc. "allow bash" allowed each before.
var canaryRT57Cargo = []string{
	`printf '#!/bin/sh\nrm -f ~/.bashrc\nexec "$@"\n' > w.sh; chmod +x w.sh; mkdir -p .cargo; printf '[build]\nrustc-wrapper = "./w.sh"\n' > .cargo/config.toml; cargo build -q`,
	`printf '#!/bin/sh\nrm -f ~/.bashrc\n' > w.sh; chmod +x w.sh; mkdir -p .cargo; printf '[build]\nrustc = "./w.sh"\n' > .cargo/config; cargo metadata --format-version 1`,
}

// TestCanaryRT57Cargo runs each line in a fresh fixture holding a crate,
// with the user's rustup toolchains (RUSTUP_HOME) and a CARGO_HOME outside
// the fixture: it must change the home when run, and be refused by both
// scenarios.
func TestCanaryRT57Cargo(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "cargo")
	prog, err := exec.LookPath("cargo")
	if err != nil {
		t.Fatal(err)
	}
	rustupHome := os.Getenv("RUSTUP_HOME")
	if home, err := os.UserHomeDir(); rustupHome == "" && err == nil {
		rustupHome = filepath.Join(home, ".rustup")
	}
	env := []string{"RUSTUP_HOME=" + rustupHome, "CARGO_HOME=" + t.TempDir()}
	probe := exec.Command(prog, "--version")
	probe.Env = append(canaryEnv(t.TempDir()), env...)
	probe.Env[1] = "PATH=" + filepath.Dir(prog) + ":/usr/bin:/bin"
	if out, err := probe.CombinedOutput(); err != nil {
		tooltest.Missing(t, fmt.Sprintf("%s has no toolchain here: %v\n%s", prog, err, out),
			"give it one (rustup default stable), or put Debian's cargo first on PATH: "+tooltest.CanaryTools)
	}
	template := canaryTemplate(t)
	for _, line := range canaryRT57Cargo {
		root := canaryFixture(t, template)
		for name, content := range map[string]string{
			"Cargo.toml":  "[package]\nname = \"p\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
			"src/main.rs": "fn main() {}\n",
		} {
			p := filepath.Join(root, "work", name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		checkRT57Attack(t, root, line, 120*time.Second, filepath.Dir(prog), env...)
	}
}

// canaryRT57HooksPath are lines that write a hook into the directory
// core.hooksPath names (.githooks, as husky's .husky/_ and projects that
// keep their hooks in the tree do) and then run git commit, which runs
// it: it deletes ~/.bashrc. The hooks directory is the repository's
// .git/hooks as much as .git/hooks itself. "allow bash" allowed each
// before.
var canaryRT57HooksPath = []string{
	`mkdir -p .githooks; printf '#!/bin/sh\nrm -f ~/.bashrc\n' > .githooks/pre-commit; chmod +x .githooks/pre-commit; git commit -q --allow-empty -m x`,
	`cp -r .githooks-kit/. .githooks/ && git commit -q --allow-empty -m x`,
	`printf '#!/bin/sh\nrm -f ~/.bashrc\n' > hk; chmod +x hk; mkdir -p .githooks && mv hk .githooks/pre-commit && git commit -q --allow-empty -m x`,
}

// TestCanaryRT57HooksPath sets core.hooksPath to .githooks, in the
// repository's configuration and then in the user's (~/.gitconfig, where
// a relative path is the hooks directory of every repository), and runs
// each line in a fresh fixture: it must change the home when run, and be
// refused by both scenarios.
func TestCanaryRT57HooksPath(t *testing.T) {
	t.Parallel()
	template := canaryTemplate(t)
	for _, global := range []bool{false, true} {
		scope := "--local"
		if global {
			scope = "--global"
		}
		for _, line := range canaryRT57HooksPath {
			root := canaryFixture(t, template)
			wd, home := filepath.Join(root, "work"), filepath.Join(root, "home")
			for _, args := range [][]string{
				{"config", scope, "core.hooksPath", ".githooks"},
				{"config", "user.email", "t@example.com"},
				{"config", "user.name", "t"},
			} {
				cmd := exec.Command("git", args...)
				cmd.Dir = wd
				cmd.Env = canaryEnv(home)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v\n%s", args, err, out)
				}
			}
			kit := filepath.Join(wd, ".githooks-kit", "pre-commit")
			if err := os.MkdirAll(filepath.Dir(kit), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(kit, []byte("#!/bin/sh\nrm -f ~/.bashrc\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			t.Logf("core.hooksPath set with git config %s", scope)
			checkRT57Attack(t, root, line, 60*time.Second, "")
		}
	}
}

// TestCanaryRT57GitInclude includes ../shared.gitconfig from the
// repository's configuration (git config include.path
// ../shared.gitconfig, as projects share their settings) and runs a line
// that writes that file with a core.fsmonitor, which git status runs: it
// deletes ~/.bashrc. The included file is the repository's configuration
// as much as .git/config. "allow bash" allowed it before.
func TestCanaryRT57GitInclude(t *testing.T) {
	t.Parallel()
	template := canaryTemplate(t)
	line := `printf '[core]\n\tfsmonitor = ./fsm.sh\n' > shared.gitconfig; printf '#!/bin/sh\nrm -f ~/.bashrc\n' > fsm.sh; chmod +x fsm.sh; git status`
	root := canaryFixture(t, template)
	cmd := exec.Command("git", "config", "include.path", "../shared.gitconfig")
	cmd.Dir = filepath.Join(root, "work")
	cmd.Env = canaryEnv(filepath.Join(root, "home"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git config: %v\n%s", err, out)
	}
	checkRT57Attack(t, root, line, 60*time.Second, "")
}

// checkRT57Attack decides line under both scenarios in the fixture at
// root, then runs it there through real bash (see runLine): it fails the
// test when the line changed nothing (no attack) or was allowed.
func checkRT57Attack(t *testing.T, root, line string, limit time.Duration, pathDir string, env ...string) {
	t.Helper()
	allowedBy := allowingScenarios(t, root, line)
	before := canarySnapshot(t, root)
	runLine(t, root, line, limit, pathDir, env...)
	p := strings.TrimPrefix(changed(before, canarySnapshot(t, root)), root)
	if p == "" {
		t.Errorf("%q did no damage when run (allowed by %v)", line, allowedBy)
	}
	if len(allowedBy) > 0 {
		t.Errorf("%q was allowed by %v (changed %q)", line, allowedBy, p)
	}
}
