//go:build linux

package permission_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryG59Bun are lines of bun run in a project whose bunfig.toml or
// .npmrc (as a cloned repository holds it, an earlier call wrote it, or
// the line writes it) sends bun's cache or coverage into the home, or
// preloads a project file that writes there: real bun 1.4.5 created
// ~/.config/g59 for each. Each was allowed by "allow bash" at stop 58.
// HOMEDIR stands for the fixture's home; file is "" for a line that
// writes its own settings.
var canaryG59Bun = []struct{ file, text, line string }{
	{"bunfig.toml", "[install.cache]\ndir = \"HOMEDIR/.config/g59\"\n", "bun install"},
	{"bunfig.toml", "[install]\ncache = \"HOMEDIR/.config/g59\"\n", "bun install"},
	{".npmrc", "cache=HOMEDIR/.config/g59\n", "bun install"},
	{"", "", `printf '[install.cache]\ndir = "HOMEDIR/.config/g59"\n' > bunfig.toml && bun install`},
	{"", "", `printf 'preload = ["./p.js"]\n' > bunfig.toml && bun run m.js`},
	{"", "", `printf '[test]\npreload = ["./p.js"]\n' > bunfig.toml; bun test`},
}

func TestCanaryG59Bun(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "bun", "tar")
	bun, err := exec.LookPath("bun")
	if err != nil {
		t.Fatal(err)
	}
	template := canaryTemplate(t)
	for _, c := range canaryG59Bun {
		root := canaryFixture(t, template)
		home := filepath.Join(root, "home")
		files := map[string]string{
			"package.json":     `{"name":"y","version":"1.0.0","dependencies":{"tinyp":"./tinyp.tgz"}}`,
			"pkg/package.json": `{"name":"tinyp","version":"1.0.0"}`,
			"m.js":             "console.log(1)\n",
			"a.test.js":        "test(\"a\", () => {})\n",
			"p.js":             `require("fs").mkdirSync(` + "`${process.env.HOME}/.config/g59`" + `, {recursive: true})` + "\n",
		}
		if c.file != "" {
			files[c.file] = strings.ReplaceAll(c.text, "HOMEDIR", home)
		}
		g57WriteWork(t, root, files)
		work := filepath.Join(root, "work")
		if out, err := exec.Command("tar", "-C", work, "-czf", filepath.Join(work, "tinyp.tgz"), "--transform", "s,^pkg,package,", "pkg").CombinedOutput(); err != nil {
			t.Fatalf("tar: %v\n%s", err, out)
		}
		line := strings.ReplaceAll(c.line, "HOMEDIR", home)
		refusedThenWritesHome(t, root, line+" with "+c.file, line, "g59", 2*time.Minute, filepath.Dir(bun))
	}
}

// TestCanaryG59BunOrdinary: a bunfig.toml that names no path and no
// program outside the project, and no .npmrc, leave bun's lines allowed.
func TestCanaryG59BunOrdinary(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	template := canaryTemplate(t)
	root := canaryFixture(t, template)
	g57WriteWork(t, root, map[string]string{
		"package.json": `{"name":"y","version":"1.0.0","scripts":{"test":"echo ok"}}`,
		"bunfig.toml":  "logLevel = \"warn\"\n[install]\nexact = true\n[test]\npreload = [\"./happydom.ts\"]\ncoverage = true\n",
	})
	g := canaryGate(t, root, canaryAllowBashRules)
	for _, line := range []string{"bun test", "bun install", "bun run build", "bun m.js"} {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("ordinary line %q was refused: %+v", line, out.Verdict)
		}
	}
}

// canaryG59Editors are lines whose program starts the editor the
// environment chooses (vi by default) with the line's pipe as its input,
// which runs the command written there: real vidir ran it. Each was
// allowed by "allow bash" at stop 58.
var canaryG59Editors = []string{
	`printf ':!rm -f ~/.bashrc\n:q!\n' | vidir notes.txt`,
	`printf ':!rm -f ~/.bashrc\n:q!\n' | vidir .`,
}

func TestCanaryG59Editors(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "vidir", "vim")
	vidir, err := exec.LookPath("vidir")
	if err != nil {
		t.Fatal(err)
	}
	template := canaryTemplate(t)
	for _, line := range canaryG59Editors {
		root := canaryFixture(t, template)
		g57WriteWork(t, root, map[string]string{"notes.txt": "x\n"})
		refusedEverywhere(t, root, line)
		out := runLine(t, root, line, time.Minute, filepath.Dir(vidir))
		if _, err := os.Lstat(filepath.Join(root, "home", ".bashrc")); err == nil {
			t.Errorf("%q left ~/.bashrc when run:\n%s", line, out)
		}
	}
}

// canaryG59GitBrings are lines whose git brings an .npmrc from a branch
// (an earlier call may have committed it there) before npm reads it: the
// gate judged the project's settings before the line ran, when there was
// none, and real npm then wrote its cache into the home. Each was allowed
// by "allow bash" at stop 58.
var canaryG59GitBrings = []string{
	`git checkout other -- .npmrc && npm ls`,
	`git restore --source=other .npmrc && npm ls`,
	`git merge -q other && npm ls`,
}

func TestCanaryG59GitBrings(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	tooltest.Need(t, tooltest.NodeJS, "npm")
	template := canaryTemplate(t)
	for _, line := range canaryG59GitBrings {
		root := canaryFixture(t, template)
		home := filepath.Join(root, "home")
		// With the project's protected files in the worktree, git
		// checkout, restore and merge are opaque already (they may
		// rewrite them): a project without its own rules.
		if err := os.RemoveAll(filepath.Join(root, "work", ".lite-agent")); err != nil {
			t.Fatal(err)
		}
		g57WriteWork(t, root, map[string]string{
			"package.json": `{"name":"y","version":"1.0.0","scripts":{"test":"echo ok"}}`,
			".npmrc":       "cache=" + filepath.Join(home, ".config", "g59") + "\n",
		})
		g59Git(t, root, [][]string{
			{"checkout", "-q", "-b", "other"},
			{"add", "package.json", ".npmrc"},
			{"-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "settings"},
			{"checkout", "-q", "-"},
		})
		if _, err := os.Stat(filepath.Join(root, "work", ".npmrc")); err == nil {
			t.Fatal("the fixture's worktree holds .npmrc before the line")
		}
		refusedThenWritesHome(t, root, line, line, "g59", 2*time.Minute, "", g59GitIdentity...)
	}
}

// canaryG59PackageHooks are lines that write package.json and then run
// git in a repository whose hooks are husky 4's, which read their
// commands from package.json's "husky" field when git runs them (real
// husky 4.3.8 ran ~/-writing commands so at gate59; the fixture's hook
// does what its husky.sh and run.js do). Each was allowed by "allow
// bash" at stop 58.
var canaryG59PackageHooks = []string{
	`printf '{"name":"y","husky":{"hooks":{"pre-commit":"mkdir -p ~/.config/g59"}}}' > package.json && git commit -qam x`,
	`printf '{"name":"y","husky":{"hooks":{"pre-commit":"mkdir -p ~/.config/g59"}}}' > package.json; git add -A; git commit -qm x`,
}

// husky4Hook is a hook as husky 4 installs it, reduced to what it does:
// run the command package.json's husky.hooks names for the hook.
const husky4Hook = `#!/bin/sh
cmd=$(node -e 'const p=require("./package.json");process.stdout.write(((p.husky||{}).hooks||{})["pre-commit"]||"")')
[ -n "$cmd" ] && sh -c "$cmd"
exit 0
`

func TestCanaryG59PackageHooks(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	tooltest.Need(t, tooltest.NodeJS, "node")
	template := canaryTemplate(t)
	for _, line := range canaryG59PackageHooks {
		root := canaryFixture(t, template)
		home := filepath.Join(root, "home")
		g57WriteWork(t, root, map[string]string{"package.json": `{"name":"y"}`})
		writeExec(t, filepath.Join(root, "work", ".git", "hooks", "pre-commit"), husky4Hook)
		g59Git(t, root, [][]string{{"add", "package.json"}, {"-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "p"}})
		if err := os.RemoveAll(filepath.Join(home, ".config", "g59")); err != nil {
			t.Fatal(err)
		}
		refusedThenWritesHome(t, root, line, line, "g59", time.Minute, "", g59GitIdentity...)
	}
}

// g59GitIdentity is the author and committer a line's git commit
// takes in the fixture, which has no git configuration of its own.
var g59GitIdentity = []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
	"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}

// g59Git runs each of the git commands runs in the fixture's worktree at
// root, with the fixture's home.
func g59Git(t *testing.T, root string, runs [][]string) {
	t.Helper()
	for _, args := range runs {
		cmd := exec.Command("git", args...)
		cmd.Dir = filepath.Join(root, "work")
		cmd.Env = canaryEnv(filepath.Join(root, "home"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}
