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

// canaryG57Openers are lines of real programs that open a browser or
// man, a program the environment chooses: git help's man (or info, or
// git's web.browser), python's webbrowser (BROWSER, or the first of
// www-browser, links, elinks, lynx, w3m on PATH in a terminal), npm's
// browser setting (xdg-open by default). Each was allowed by "allow bash"
// at stop 57. They run in real bash with fakes of the opened programs
// first on PATH, which record their words in HOME: whatever the
// environment puts there runs.
var canaryG57Openers = map[string]string{
	`git help log`:   "man",
	`git log --help`: "man",
	`git -h log`:     "man",
	`python3 -m webbrowser https://x.invalid`: "www-browser",
	`python3 -m antigravity`:                  "www-browser",
	`timeout 5 pydoc3 -b`:                     "www-browser",
	`npm docs`:                                "xdg-open",
	`npm home`:                                "xdg-open",
	`npm bugs`:                                "xdg-open",
	`npm help install`:                        "man",
}

func TestCanaryG57Openers(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "python3", "pydoc3")
	tooltest.Need(t, tooltest.NodeJS, "npm")
	template := canaryTemplate(t)
	bin := fakeHomeBin(t, "man", "www-browser", "xdg-open")
	n := 0
	for line, opened := range canaryG57Openers {
		n++ // a subtest's name goes into its TempDir: no line text there
		t.Run(fmt.Sprintf("%d", n), func(t *testing.T) {
			t.Parallel()
			root := canaryFixture(t, template)
			pkg := `{"name":"x","version":"1.0.0","homepage":"https://x.invalid/","bugs":"https://x.invalid/b"}`
			if err := os.WriteFile(filepath.Join(root, "work", "package.json"), []byte(pkg), 0o644); err != nil {
				t.Fatal(err)
			}
			refusedEverywhere(t, root, line)
			out := runLine(t, root, line, time.Minute, bin, "TERM=dumb")
			if _, err := os.Stat(filepath.Join(root, "home", ".local", "state", "fake", opened)); err != nil {
				t.Errorf("%q did not run %s when run (%v):\n%s", line, opened, err, out)
			}
		})
	}
}

// canaryG57Gpg are gpg lines that create or write the home's ~/.gnupg
// (keyring, trust database, random seed, gpg-agent's sockets), though they
// name no key to import or generate: each was allowed by "allow bash" at
// stop 57. They run the real gpg with the fake home as HOME.
var canaryG57Gpg = []string{
	`gpg --list-keys`,
	`gpg -k`,
	`gpg --fingerprint`,
	`gpg --print-md sha256 README`,
	`gpg --batch -c --passphrase x -o README.gpg README`,
	`gpg --verify README`,
	`gpg --list-packets README`,
	`gpgsm -k`,
	`git commit --allow-empty -S -m x`,
	`git tag -s v1 -m x`,
}

// canaryG57GpgOrdinary are gpg lines that leave the home as it is: the
// commands that open no home directory, and a --homedir in the workdir.
var canaryG57GpgOrdinary = []string{
	`gpg --version`,
	`gpg --dump-options`,
	`gpg --enarmor -o README.asc README`,
	`gpg --homedir ./gnupg -k`,
	`gpg --homedir ./gnupg --batch -c --passphrase x -o README.gpg README`,
}

func TestCanaryG57GpgHome(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "gpg", "gpgsm", "gpgconf")
	template := canaryTemplate(t)
	home := func(root string) string { return filepath.Join(root, "home") }
	stopAgent := func(root string) {
		// gpg -c starts a gpg-agent for the home (and one for ./gnupg),
		// which keeps running: stop it as gpgconf does.
		for _, dir := range []string{filepath.Join(home(root), ".gnupg"), filepath.Join(root, "work", "gnupg")} {
			cmd := exec.Command("gpgconf", "--homedir", dir, "--kill", "all")
			cmd.Env = canaryEnv(home(root))
			cmd.Run()
		}
	}
	for i, line := range canaryG57Gpg {
		t.Run(fmt.Sprintf("%d", i), func(t *testing.T) {
			t.Parallel()
			root := canaryFixture(t, template)
			refusedEverywhere(t, root, line)
			before := canarySnapshot(t, root)
			out := runLine(t, root, line, time.Minute, "", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
				"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
			stopAgent(root)
			if p := changed(before, canarySnapshot(t, root)); !strings.HasPrefix(p, home(root)+string(filepath.Separator)) {
				t.Errorf("%q changed nothing in the home when run (%q):\n%s", line, p, out)
			}
		})
	}
	for _, line := range canaryG57GpgOrdinary {
		root := canaryFixture(t, template)
		if err := os.Mkdir(filepath.Join(root, "work", "gnupg"), 0o700); err != nil {
			t.Fatal(err)
		}
		g := canaryGate(t, root, canaryAllowBashRules)
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("ordinary line %q was refused: %+v", line, out.Verdict)
		}
		before := canarySnapshot(t, root)
		out := runLine(t, root, line, time.Minute, "")
		stopAgent(root)
		if p := changed(before, canarySnapshot(t, root)); p != "" {
			t.Errorf("ordinary line %q changed %s when run:\n%s", line, p, out)
		}
	}
}

// canaryG57Absent are lines of programs this machine may not have (gh,
// exiftool, browsers, go's and cargo's openers): the gate's decisions
// alone, under both scenarios, with the paths outside the workdir that
// their options name.
var canaryG57Absent = []string{
	`gh browse`, `gh repo view --web`, `gh pr create -w`, `gh co 1`, `gh cs ssh`, `gh cs ssh --config`,
	`gh codespace cp a remote:b`, `gh ssh-key add k.pub`, `gh gpg-key add k.asc`, `gh extension exec x`,
	`gh repo clone o/r -- -c core.sshCommand=x`, `gh repo clone o/r ~/x`, `gh release download -D ~/.config x`,
	`gh run download -D ../x`, `gh auth setup-git`, `gh config set browser x`, `gh alias set x '!rm -f c'`,
	`gh extension install o/gh-x`,
	`exiftool -@ args.txt README`, `exiftool -config x.pl README`, `exiftool -if 'unlink q(c)' README`,
	`exiftool -p '${FileName;unlink q(c)}' README`, `exiftool -w txt README`, `exiftool -o ~/y README`,
	`exiftool -o ../y README`, `exiftool -FileName=../y README`, `exiftool '-Directory<Comment' README`,
	`exiftool -tagsFromFile %d%f.xmp README`, `exiftool -stay_open 1 -@ a`,
	`firefox x`, `chromium --renderer-cmd-prefix='rm -f c' x`, `links x`, `kde-open x`, `wslview x`,
	`cargo doc --open`, `rustup doc`, `go tool cover -html=c.out`, `go tool trace t.out`, `go bug`,
	`gpgconf --kill all`, `dirmngr --daemon`, `gpg --homedir ./gnupg --photo-viewer 'rm -f c' -k`,
	`python3 -m http.server --cgi`,
}

func TestCanaryG57AbsentPrograms(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	root := canaryFixture(t, canaryTemplate(t))
	for _, line := range canaryG57Absent {
		refusedEverywhere(t, root, line)
	}
}

// canaryG57GitEditor are git lines that start the editor: with TERM set
// (as in a user's terminal) and no GIT_EDITOR, git runs editor or vi,
// which reads keys from the line's pipe or redirection and runs :!cmd.
// Each was allowed by "allow bash" at stop 57.
var canaryG57GitEditor = []string{
	`printf ':!rm -f ~/.bashrc\n:q!\n' | git commit --allow-empty`,
	`printf ':!rm -f c\n:q!\n' | git commit --allow-empty -a`,
	`printf ':!rm -f ~/.bashrc\n:q!\n' | git tag -a v1`,
	`printf ':!rm -f ~/.bashrc\n:q!\n' | git notes add`,
	`printf ':!rm -f ~/.bashrc\n:q!\n' | git commit --allow-empty -m x -e`,
	`printf ':!rm -f ~/.bashrc\n:q!\n' > k.txt; git commit --amend < k.txt`,
	`printf ':!rm -f ~/.bashrc\n:q!\n' > k.txt; echo x >> README; git add -e < k.txt`,
}

func TestCanaryG57GitEditor(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "vi")
	template := canaryTemplate(t)
	for i, line := range canaryG57GitEditor {
		t.Run(fmt.Sprintf("%d", i), func(t *testing.T) {
			t.Parallel()
			root := canaryFixture(t, template)
			refusedEverywhere(t, root, line)
			before := canarySnapshot(t, root)
			out := runLine(t, root, line, time.Minute, "", "TERM=xterm", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
				"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
			if p := changed(before, canarySnapshot(t, root)); p == "" {
				t.Errorf("%q changed nothing when run:\n%s", line, out)
			}
		})
	}
}

// npm edit starts the editor on an installed package: with TERM set and
// no EDITOR, npm runs vi, which reads :!cmd from the line's pipe. It was
// allowed by "allow bash" at stop 57 (npm's test list had it as ordinary).
func TestCanaryG57NpmEdit(t *testing.T) {
	t.Parallel()
	tooltest.Long(t, "runs npm and an editor")
	tooltest.Need(t, tooltest.CanaryTools, "git", "vi")
	tooltest.Need(t, tooltest.NodeJS, "npm")
	template := canaryTemplate(t)
	for _, line := range []string{
		`printf ':!rm -f ~/.bashrc\n:q!\n' | npm edit x`,
		`printf ':!rm -f ~/.bashrc\n:q!\n' | npm ed x`,
	} {
		root := canaryFixture(t, template)
		g57WriteWork(t, root, map[string]string{
			"package.json":                `{"name":"y","version":"1.0.0"}`,
			"node_modules/x/package.json": `{"name":"x","version":"1.0.0"}`,
		})
		refusedEverywhere(t, root, line)
		out := runLine(t, root, line, time.Minute, "", "TERM=xterm")
		if _, err := os.Stat(filepath.Join(root, "home", ".bashrc")); err == nil {
			t.Errorf("%q left ~/.bashrc when run:\n%s", line, out)
		}
	}
}

// cargo reads .cargo/config.toml of the working directory: build.rustc
// (or rustc-wrapper, a target's runner or linker) names a program it runs.
// A line that writes one runs code the analysis does not see; it was
// allowed by "allow bash" at stop 57, as was the same for pylint's
// init-hook and the JavaScript configuration of vite, mocha, prettier ….
func TestCanaryG57CargoConfig(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "cargo")
	cargo, err := exec.LookPath("cargo")
	if err != nil {
		t.Fatal(err)
	}
	rustupHome := os.Getenv("RUSTUP_HOME")
	if rustupHome == "" {
		h, _ := os.UserHomeDir()
		rustupHome = filepath.Join(h, ".rustup")
	}
	root := canaryFixture(t, canaryTemplate(t))
	g57WriteWork(t, root, map[string]string{
		"Cargo.toml":  "[package]\nname = \"x\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
		"src/main.rs": "fn main() {}\n",
	})
	line := `printf '#!/bin/sh\nrm -f ~/.bashrc\n' > r.sh && chmod +x r.sh && mkdir -p .cargo && ` +
		`printf '[build]\nrustc = "./r.sh"\n' > .cargo/config.toml && cargo build`
	refusedEverywhere(t, root, line)
	for _, l := range []string{
		`printf x > .pylintrc && pylint x.py`, `echo x > vite.config.js && vite build`,
		`echo x > .mocharc.yml && mocha`, `echo x > docs/conf.py && sphinx-build docs out`,
		`echo x > .prettierrc.js && prettier --write x`,
	} {
		refusedEverywhere(t, root, l)
	}
	out := runLine(t, root, line, 2*time.Minute, filepath.Dir(cargo), "RUSTUP_HOME="+rustupHome,
		"CARGO_HOME="+t.TempDir())
	if _, err := os.Stat(filepath.Join(root, "home", ".bashrc")); err == nil {
		t.Errorf("%q left ~/.bashrc when run:\n%s", line, out)
	}
}

// g57WriteWork writes files (by path below the workdir) into the fixture
// at root, as a project holds them.
func g57WriteWork(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, "work", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
