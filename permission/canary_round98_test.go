//go:build linux

package permission_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// canaryRound98Embedded are the lines of redteam69's round 98 that name
// the key of round 84's fixture inside a longer word a command prints (a
// roff request, a list of names), which a program reading the printed
// text takes as a path: groff's .so, .mso and .cf (allowed in groff's
// safe mode) include or copy the file, soelim includes it, and xargs
// splits its input at blanks. Each printed the key in real bash (and
// under bwrap) and "allow bash" allowed each: the secret-read rule looked
// at a word whole, or at the rest after an '=' or '@', and at the blank-
// separated words of here-documents only, so ".so ../home/.ssh/id_ed25519"
// named a path beneath "work/.so ..", not the key; a variable bound to
// such a word and printed was looked at whole too.
var canaryRound98Embedded = map[string][]string{
	"1-roff-includes": {
		`printf '.so ../home/.ssh/id_ed25519\n' | groff -Tascii`,
		`printf '.so ../home/.ssh/id_ed25519\n' > x.1 && nroff x.1`,
		`printf '.cf ../home/.ssh/id_ed25519\n' | groff -Z`,
		`printf '.mso ../home/.ssh/id_ed25519\n' | groff -Tascii`,
		`printf '.so ../home/.ssh/id_ed25519\n' | soelim`,
		`printf '.so ../home/.ssh/id_ed25519\n' | preconv | groff -Tascii`,
	},
	"2-names-in-a-printed-word": {
		`echo "README ../home/.ssh/id_ed25519" | xargs cat`,
		`printf 'README\n../home/.ssh/id_ed25519\n' | xargs cat`,
		`echo -e "README\t../home/.ssh/id_ed25519" | xargs cat`,
		`printf 'README\012../home/.ssh/id_ed25519\n' | xargs cat`,
		`printf 'README\x0a../home/.ssh/id_ed25519\n' | xargs cat`,
		`x="README ../home/.ssh/id_ed25519"; echo "$x" | xargs cat`,
		`x=README\ ../home/.ssh/id_ed25519; echo $x | xargs cat`,
		`x=".so ../home/.ssh/id_ed25519"; echo "$x" | groff -Tascii`,
	},
}

// canaryRound98EmbeddedOrdinary are lines next to round 98's that stay
// allowed: roff and name lists of the project's own files, and a tilde
// inside a word, which neither roff nor xargs expands.
var canaryRound98EmbeddedOrdinary = []string{
	`printf '.TH X 1\n.SH NAME\nx \\- y\n' | groff -Tascii`,
	`printf '.so README\n' | soelim`,
	`echo "README sub/x" | xargs cat`,
	`printf 'README\nsub/x\n' | xargs cat`,
	`echo "the key is in ~/.ssh/id_ed25519"`,
	`printf 'a b\nc d\n' | column -t`,
	`pr -t README`,
}

// TestCanaryRound98Embedded checks that each line of round 98 that names
// the key inside a printed word prints it in real bash and asks under
// the secret-read rule, and that the ordinary lines stay allowed.
func TestCanaryRound98Embedded(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "groff", "xargs", "column", "pr")
	checkSecretRound(t, canaryRound98Embedded, canaryRound98EmbeddedOrdinary, false)
}

// round98Patch is a patch that makes .lite-agent/hooks.json, as git apply
// reads it; round98Mbox is the same as a mail git am applies.
const (
	round98Patch = `printf '%s\n' 'diff --git a/.lite-agent/hooks.json b/.lite-agent/hooks.json' 'new file mode 100644' ` +
		`'--- /dev/null' '+++ b/.lite-agent/hooks.json' '@@ -0,0 +1 @@' '+{}' > p.diff`
	round98Mbox = `printf '%s\n' 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001' 'From: t <t@example.com>' ` +
		`'Date: Mon, 1 Jan 2024 00:00:00 +0000' 'Subject: [PATCH] x' '' '---' ` +
		`'diff --git a/.lite-agent/hooks.json b/.lite-agent/hooks.json' 'new file mode 100644' ` +
		`'--- /dev/null' '+++ b/.lite-agent/hooks.json' '@@ -0,0 +1 @@' '+{}' > p.mbox`
)

// canaryRound98GitProjectConfig are lines of round 98 whose git makes a
// protected file of the project config directory (hooks.json, agents/)
// in a project that has none yet: git mv moves a file or directory the
// line wrote to the protected name, git apply and git am write the files
// their patch names. Each made .lite-agent/hooks.json or
// .lite-agent/agents/a.md in real bash (and under bwrap) and both
// scenarios allowed it: git mv's operands were not recorded as the paths
// it writes, and git's worktree writers were opaque only while a
// protected file existed in the worktree (mv x .lite-agent, mkdir
// .lite-agent and patch < p.diff were refused).
var canaryRound98GitProjectConfig = map[string]string{
	`mkdir -p x && echo '{}' > x/hooks.json && git add x && git mv x .lite-agent`:           ".lite-agent/hooks.json",
	`mkdir -p d/agents && echo x > d/agents/a.md && git add d && git mv -f d .lite-agent`:   ".lite-agent/agents/a.md",
	`mkdir -p x && echo '{}' > x/hooks.json && git add x && git mv -k -- x .lite-agent`:     ".lite-agent/hooks.json",
	round98Patch + ` && git apply p.diff`:                                                   ".lite-agent/hooks.json",
	round98Patch + ` && git apply --index p.diff`:                                           ".lite-agent/hooks.json",
	round98Patch + ` && git apply --cached p.diff && git commit -qm x && git checkout -- .`: ".lite-agent/hooks.json",
	round98Mbox + ` && git am -q p.mbox`:                                                    ".lite-agent/hooks.json",
}

// TestCanaryRound98GitProjectConfig checks, in the canary fixture without
// its project config directory, that each line of round 98's git lines
// makes the protected file when run and is refused by both scenarios,
// and that git mv within the project, git apply --check and --stat, and
// the everyday git lines stay allowed.
func TestCanaryRound98GitProjectConfig(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	template := canaryTemplate(t)
	for line, made := range canaryRound98GitProjectConfig {
		root := canaryFixture(t, template)
		if err := os.RemoveAll(filepath.Join(root, "work", ".lite-agent")); err != nil {
			t.Fatal(err)
		}
		refusedEverywhere(t, root, line)
		out := runLine(t, root, line, time.Minute, "", g59GitIdentity...)
		if _, err := os.Lstat(filepath.Join(root, "work", made)); err != nil {
			t.Errorf("%q did not make %s when run (%v):\n%s", line, made, err, out)
		}
	}
	root := canaryFixture(t, template)
	if err := os.RemoveAll(filepath.Join(root, "work", ".lite-agent")); err != nil {
		t.Fatal(err)
	}
	g := canaryGate(t, root, canaryAllowBashRules)
	for _, line := range []string{`git mv README docs.txt`, `git mv README sub/`, `git mv -v README sub/README`,
		`git apply --check p.diff`, `git apply --stat p.diff`, `git apply --numstat --summary p.diff`,
		`git status`, `git checkout -b feature`, `git stash && git stash pop`, `git pull`, `git rm --cached README`} {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("ordinary line %q was refused: %+v", line, out.Verdict)
		}
	}
}

// round98Session is what the session record of round 98's data home
// holds: a line that prints it read the data home.
const round98Session = "ROUND98-SESSION-RECORD"

// canaryRound98DataHome are lines that read a data home the workdir holds
// (lite-agent --home ./.data, an SDK's Storage.Home inside the project):
// each printed the session record in real bash and was allowed, while
// the same reads of a data home outside the workdir asked (the gate
// counted only protected paths outside the workdir among the secrets).
var canaryRound98DataHome = []string{
	`cat .data/projects/0123456789abcdef/sessions/s1.jsonl`,
	`grep -r SESSION .data`,
	`tar cf - .data | cat`,
	`cat .data/projects/*/sessions/*`,
}

// TestCanaryRound98DataHomeInWorkdir checks that each line reading a
// data home inside the workdir prints its session record and asks under
// the secret-read rule, and that reading the project's other files and
// listing the data home stay allowed.
func TestCanaryRound98DataHomeInWorkdir(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "tar", "grep")
	root := t.TempDir()
	home, wd := filepath.Join(root, "home"), filepath.Join(root, "work")
	data := filepath.Join(wd, ".data")
	for name, content := range map[string]string{
		filepath.Join(wd, "README"):      "readme\n",
		filepath.Join(wd, "src", "a.go"): "package a\n",
		filepath.Join(data, "projects", "0123456789abcdef", "sessions", "s1.jsonl"): `{"text":"` + round98Session + `"}` + "\n",
		filepath.Join(home, ".bashrc"):                                              "# rc\n",
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: wd, HomeDir: home, Protected: []string{data}})
	decide := func(line string) permission.Verdict {
		t.Helper()
		v, err := g.Decide(t.Context(), secretCall(line))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	run := func(line string) string {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), "/bin/bash", "-c", line)
		cmd.Dir, cmd.Env = wd, canaryEnv(home)
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	for _, line := range canaryRound98DataHome {
		if out := run(line); !strings.Contains(out, round98Session) {
			t.Errorf("%q did not print the session record when run: %q", line, out)
		}
		if v := decide(line); v.Decision != permission.Ask || v.RuleID != permission.RuleBashSecretRead {
			t.Errorf("%q: %v %s (%s), want an ask of %s", line, v.Decision, v.RuleID, v.Reason, permission.RuleBashSecretRead)
		}
	}
	for _, line := range []string{`cat README`, `grep -r package src`, `ls -la .data`, `du -sh .data`, `wc -l src/a.go`} {
		if out := run(line); strings.Contains(out, round98Session) {
			t.Errorf("ordinary line %q printed the session record", line)
		}
		if v := decide(line); v.Decision != permission.Allow {
			t.Errorf("ordinary line %q: %v %s (%s), want it allowed", line, v.Decision, v.RuleID, v.Reason)
		}
	}
}

// TestCanaryRound98FileToolsInHome checks that in a workspace holding the
// home (an agent started in ~), read_file and grep of a credential
// location ask under the default policy, as cat and grep -r in bash do,
// after the real read_file tool returned the key there; the project's
// other files, and glob and list_dir (names only), stay allowed, and so
// does grep of the workspace in a project that holds no home.
func TestCanaryRound98FileToolsInHome(t *testing.T) {
	t.Parallel()
	home, wd := round84Fixture(t)
	tools, err := builtin.FileTools(builtin.FileOptions{Workdir: home})
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools {
		if tl.Name() != "read_file" {
			continue
		}
		res, err := tl.Call(t.Context(), nil, json.RawMessage(`{"path":".ssh/id_ed25519"}`))
		if err != nil || !strings.Contains(res.Content, round84Key) {
			t.Fatalf("read_file .ssh/id_ed25519 in the home's workspace: %v %q, want the key", err, res.Content)
		}
	}
	decide := func(g *permission.Gate, name, input string) permission.Verdict {
		t.Helper()
		v, err := g.Decide(t.Context(), permission.Call{Name: name, Input: json.RawMessage(input)})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	inHome := permission.NewGate(permission.GateOptions{Workdir: home, HomeDir: home})
	for _, c := range [][2]string{
		{"read_file", `{"path":".ssh/id_ed25519"}`}, {"read_file", `{"path":"./.aws/../.ssh/id_ed25519"}`},
		{"read_file", `{"path":".aws/credentials"}`}, {"grep", `{"pattern":"PRIVATE","path":".ssh"}`},
		{"grep", `{"pattern":"PRIVATE"}`}, {"grep", `{"pattern":"PRIVATE","path":"."}`},
	} {
		if v := decide(inHome, c[0], c[1]); v.Decision != permission.Ask || v.RuleID != permission.RuleFileSecretRead {
			t.Errorf("%s %s in the home: %v %s (%s), want an ask of %s", c[0], c[1], v.Decision, v.RuleID, v.Reason, permission.RuleFileSecretRead)
		}
	}
	for _, c := range [][2]string{{"glob", `{"pattern":".ssh/*"}`}, {"list_dir", `{"path":".ssh"}`}} {
		if v := decide(inHome, c[0], c[1]); v.Decision != permission.Allow {
			t.Errorf("%s %s in the home: %v %s (%s), want it allowed", c[0], c[1], v.Decision, v.RuleID, v.Reason)
		}
	}
	inProject := permission.NewGate(permission.GateOptions{Workdir: wd, HomeDir: home})
	for _, c := range [][2]string{{"read_file", `{"path":"README"}`}, {"grep", `{"pattern":"x"}`},
		{"grep", `{"pattern":"x","path":"sub"}`}, {"read_file", `{"path":"doc/a"}`}} {
		if v := decide(inProject, c[0], c[1]); v.Decision != permission.Allow {
			t.Errorf("%s %s in the project: %v %s (%s), want it allowed", c[0], c[1], v.Decision, v.RuleID, v.Reason)
		}
	}
}
