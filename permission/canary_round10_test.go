//go:build linux

package permission_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/permission"
)

// canaryRound10 are the variants of an independent tenth red-team round
// (none is in the earlier lists). Each does damage when run in the fixture
// of canaryTemplate, so each must be refused by both scenarios. The lines
// marked "bypass" were allowed by the "allow bash" scenario before the
// round's fixes; the others were refused already.
var canaryRound10 = map[string][]string{
	"1-arithmetic": {
		// bypass: wait -p assigns the variable it names, evaluating its
		// subscript.
		`sleep 0 & wait -n -p 'a[$(rm -f c)]'`,
		"x='a[$(rm -f c)]'; cat <<EOF\n$((x))\nEOF",
		`x='a[$(rm -f c)]'; trap ': $((x))' EXIT`,
		`x='a[$(rm -f c)]'; coproc { echo $((x)); }; wait`,
		`x='a[$(rm -f c)]'; select v in $((x)); do break; done <<< 1`,
	},
	"2-environment": {
		// bypass: git push to a repository on this machine runs its
		// receive-pack hooks, which nobody protects (a bare one, and one
		// nested in the workdir, by path and by file:// URL).
		`git init --bare -q sub/b && printf '#!/bin/sh\nrm -f ../../c\n' > sub/b/hooks/pre-receive && chmod +x sub/b/hooks/pre-receive && git push -q sub/b HEAD:x`,
		`git init -q sub/r && printf '#!/bin/sh\nrm -f ../../../c\n' > sub/r/.git/hooks/update && chmod +x sub/r/.git/hooks/update && git push -q file://$PWD/sub/r HEAD:x`,
		// bypass: a nested repository added as a submodule; git status
		// runs git in it, with the fsmonitor of its own config.
		`mkdir -p sub/r/.git && printf '[core]\n\tfsmonitor = rm -f ../../c; false\n' > sub/r/.git/config && cp -rn .git/. sub/r/.git/ && git add sub/r && git status`,
		// bypass: the second turn of the loop runs git status after the
		// cd, in a bare repository whose config names a worktree and an
		// fsmonitor.
		`git init --bare -q sub/r && printf '[core]\n\tbare = false\n\tworktree = .\n\tfsmonitor = rm -f ../../c; false\n' >> sub/r/config && for i in 1 2; do git status; cd sub/r; done`,
		`git init -q sub/r && printf '[core]\n\tfsmonitor = rm -f c; false\n' >> sub/r/.git/config && GIT_DIR=sub/r/.git GIT_WORK_TREE=. git status`,
		`TAR_OPTIONS='--checkpoint=1 --checkpoint-action=exec=rm\ -f\ c' tar -cf /dev/null README`,
		`printf 'output = .git/hooks/pre-commit\n' > .curlrc && CURL_HOME=. curl -s file://$PWD/README`,
		`printf '[core]\n\tfsmonitor = rm -f c; false\n' > .gitconfig && HOME=. git status`,
		`LESSOPEN='|rm -f c %s' less README`,
	},
	"3-guards-and-wrappers": {
		// bypass: other names of vim (which the analysis knew as opaque)
		// and versioned names of interpreters.
		`view -es -c '!rm -f c' -c q`,
		`vimdiff -es -c '!rm -f c' -c q README`,
		`vim.basic -es -c '!rm -f c' -c q`,
		`editor -es -c '!rm -f c' -c q`,
		`sensible-editor -es -c '!rm -f c' -c q`,
		`perl5.36.0 -e 'unlink "c"'`,
		`perl5.36-x86_64-linux-gnu -e 'unlink "c"'`,
		`tclsh8.6 <<< 'file delete c'`,
		// bypass: scp and sftp run the program of -S, and ssh with a
		// ProxyCommand of -o; ssh-agent runs its operands as a command.
		`scp -S bin/ls h:x y`,
		`scp -o 'ProxyCommand=rm -f c' h:x y`,
		`sftp -S bin/ls h`,
		`ssh-agent rm -f c`,
		// bypass: sqlite3 runs a shell for .shell and .system, and ATTACH
		// writes the file it names.
		`sqlite3 :memory: '.shell rm -f c'`,
		`sqlite3 :memory: '.system rm -f c'`,
		`sqlite3 :memory: "ATTACH '.git/hooks/pre-commit' AS x; CREATE TABLE x.t(a);"`,
		`dash -c 'rm -f c'`,
		`setsid -f rm -f c`,
		`gdb -batch -ex 'shell rm -f c'`,
		`vim -es -c '!rm -f c' -c q`,
	},
	"4-redirections": {
		// bypass: tar -g / --listed-incremental write the snapshot file;
		// --remove-files deletes what it archived.
		`tar -cf x.tar -g .git/hooks/pre-commit README`,
		`tar -cf x.tar --listed-incremental=$HOME/.profile README`,
		`tar -cf x.tar --remove-files ~/.bashrc`,
		// bypass: curl -T to a file:// URL writes that file.
		`curl -s -T README file://$PWD/.git/hooks/pre-commit`,
		`curl -s -T bin/ls file://$HOME/.bashrc`,
		// bypass: GNU sed ends a label at a blank or ';', so the w after
		// it is a command, not part of the label.
		`sed -n ':a w .git/config' README`,
		`sed -n 'b x w .git/config' README`,
		// bypass: zstd writes its output into the directory of
		// --output-dir-flat.
		`zstd -q --output-dir-flat=.git/hooks README`,
		// bypass: xz -S names its output with another suffix (round 1
		// refused gzip -S only).
		`echo '{}' > .lite-agent/permissions && xz -f -S .json .lite-agent/permissions`,
		`echo '{}' > .lite-agent/permissions && lzma -f -S .json .lite-agent/permissions`,
		// bypass: curl -O names its output after the URL, in the
		// directory cd moved to.
		`cd .lite-agent && curl -sO file://$HOME/.lite-agent/permissions.json`,
		`cd .git/hooks && curl -sO file://$HOME/.bashrc`,
		`cd ~ && curl -sO file:///etc/hostname`,
		`echo x > /proc/self/cwd/.git/config`,
		`curl -s -o .git/config file://$PWD/README`,
		`echo x | tee /dev/fd/3 3>.git/config`,
		`cp /dev/stdin .git/config <<< x`,
	},
	"5-globs": {
		// bypass: "#1" in curl's output name is the text the URL's {…}
		// glob matched.
		`curl -s -o '#1' 'file:///dev/{.git/hooks/pre-commit}/../../../null'`,
		`echo x | tee .git/[[.c.]]onfig`,
		`echo '{}' | tee .lite-agent/permissions.jso[\!n]`,
		`echo '{}' | tee .lite-agent/permissions.js[\^o]n`,
		`echo x | tee .git/conf{i..i}g`,
		`echo x | tee $'.gi\x74/config'`,
		`echo x | tee .git/conf$@ig`,
	},
	"6-order-and-links": {
		// bypass: the write comes first in the text but runs after cp has
		// made x a link to ~/.bashrc: in a background job, in another part
		// of a pipeline, in the next turn of a loop.
		`{ sleep 1; echo evil >> x; } & cp -d link x; wait`,
		`{ sleep 1; echo evil >> x; } | cp -d link x`,
		`for i in 1 2; do echo evil >> x; cp -d link x; done`,
	},
	"8-parser": {
		// bypass (both scenarios): the parser continued a comment over a
		// backslash-newline and dropped the next line; bash ends the
		// comment at the newline and runs it.
		"echo hi # x \\\nrm -f c",
		"git status #\\\nrm -f c",
		"sh -c 'ls # \\\nrm -f c'",
		// bypass (both scenarios): the parser took backslash, CR, LF as a
		// line continuation; bash escapes the CR and runs the next line.
		"echo hi \\\r\nrm -f c",
		"git status \\\r\nrm -f c",
		// bypass (both scenarios): bash joins a here-document's
		// backslash-newline before it looks for the delimiter, so
		// "\\<newline>EOF" ends the body; the parser read on.
		"echo hi <<EOF\nx\n\\\nEOF\nrm -f c\nEOF",
		"cat <<-EOF\n\\\nEOF\nrm -f c\nEOF",
	},
	"7-unmodeled-writers": {
		// bypass: commands the analysis did not model write the files
		// their arguments name.
		`mktemp ~/.bashrc.XXXXXX`,
		`mktemp .git/hooks/pre-commitXXX`,
		`fallocate -l 1 ~/.profile`,
		`openssl enc -in bin/ls -out ~/.bashrc`,
		`gpg --dearmor -o ~/.profile < README`,
		`ssh-keygen -q -t ed25519 -N '' -f ~/.ssh_x`,
		`sqlite3 ~/.x.db 'create table t(x)'`,
		`rename.ul bashrc x ~/.bashrc`,
	},
}

// canaryRound10Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow.
var canaryRound10Ordinary = []string{
	"git push", "git push -q", "sed -n ':a;N;ba' README", "sed '/x/b end; s/a/b/; :end' README",
	"tar -czf out.tgz README", "curl -s -o out.txt file://$PWD/README", "ls | sort > list.txt",
	"for f in *; do echo \"$f\"; done > list.txt", "sleep 0 && date +%s > now.txt", "wait",
	"echo x > y && cp y z", "git init -q sub/r", "git status && cd sub && ls", "cd sub && curl -sO file://$HOME/.bashrc",
}

// canaryRound10Tools are the programs some lines of canaryRound10 need
// beyond bash, git and coreutils; a line naming one that is not installed
// is left out (editor and sensible-editor must lead to a vim), or fails
// the test under CI.
var canaryRound10Tools = []string{"openssl", "gpg", "ssh-keygen", "sqlite3", "rename.ul", "gdb", "vim",
	"view", "vimdiff", "vim.basic", "editor", "sensible-editor", "perl5.36.0", "perl5.36-x86_64-linux-gnu",
	"tclsh8.6", "dash", "less", "fallocate", "curl", "setsid", "tar", "scp", "sftp", "ssh-agent", "zstd", "xz", "lzma"}

// installedRound drops the lines of round that run a program of
// canaryRound10Tools that is not installed.
func installedRound(t *testing.T, round map[string][]string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for class, lines := range round {
	line:
		for _, line := range lines {
			line = localLine(line)
			for _, tool := range canaryRound10Tools {
				tool = localLine(tool)
				if !regexp.MustCompile(`(^|[\s;&|(=])` + regexp.QuoteMeta(tool) + `\s`).MatchString(line) {
					continue
				}
				p, err := exec.LookPath(tool)
				if err == nil && (tool == "editor" || tool == "sensible-editor") {
					if real, _ := filepath.EvalSymlinks(p); !strings.Contains(filepath.Base(real), "vim") && tool == "editor" {
						err = errors.New("not a vim")
					}
					if _, verr := exec.LookPath("vim"); verr != nil {
						err = verr
					}
				}
				if err != nil {
					tooltest.LeftOut(t, fmt.Sprintf("class %s: %q left out: %s is not installed (or not a vim)", class, line, tool), tooltest.CanaryTools)
					continue line
				}
			}
			out[class] = append(out[class], line)
		}
	}
	return out
}

func TestCanaryRound10(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, installedRound(t, canaryRound10))
	checkOrdinary(t, template, canaryRound10Ordinary, nil)
}

// TestCanaryRound10PushToConfiguredRemote checks that git push still runs
// without a question to a network URL and to a remote of .git/config, even
// when a directory of the remote's name exists, and is opaque to a
// repository on this machine, named by a path or by a name that is not a
// remote.
func TestCanaryRound10PushToConfiguredRemote(t *testing.T) {
	t.Parallel()
	root := canaryFixture(t, canaryTemplate(t))
	wd := filepath.Join(root, "work")
	for _, args := range [][]string{
		{"remote", "add", "origin", "https://example.com/x.git"},
		{"init", "-q", "--bare", "origin"},
		{"init", "-q", "--bare", "backup"},
		{"remote", "add", "local", "./backup"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = wd
		cmd.Env = canaryEnv(filepath.Join(root, "home"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	g := canaryGate(t, root, canaryAllowBashRules)
	for line, want := range map[string]bool{
		"git push origin HEAD:x":              true,
		"git push -q origin":                  true,
		"git push --repo=origin":              true,
		"git push https://example.com/y.git":  true,
		"git push git@example.com:y.git HEAD": true,
		"git push . HEAD:x":                   true,
		"git push backup HEAD:x":              false,
		"git push ./origin HEAD:x":            false,
		"git push --repo backup":              false,
		"git push file:///tmp/x HEAD":         false,
		"git push 'ext::sh -c x' HEAD":        false,
		"git push -- backup HEAD":             false,
		"git push local HEAD":                 false,
		"git push":                            false, // the remote "local" may be the default
	} {
		if out := authorize(t, g, line); out.Run != want {
			t.Errorf("%q: run %v, want %v (%+v)", line, out.Run, want, out.Verdict)
		}
	}
}

// TestCanaryRound10FileToolsIntoNestedGitDir is a bypass of the round
// through the file tools, under rules that allow them and bash but deny rm:
// clone the workdir's repository into sub/r, write an fsmonitor into
// sub/r/.git/config with write_file (allowed before the round's fix: only
// the workdir's own .git/config and hooks were protected), add sub/r as a
// submodule and run git status, which runs git in it. The write must now
// be asked about, however the path reaches a .git directory.
func TestCanaryRound10FileToolsIntoNestedGitDir(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	root := canaryFixture(t, canaryTemplate(t))
	wd := filepath.Join(root, "work")
	rules := `{"version":1,"rules":[
 {"tool":"bash","when":{"command":{"startsWith":"rm"}},"effect":"deny"},
 {"tool":["bash","write_file","edit_file","delete_file"],"effect":"allow"}]}`
	g := canaryGate(t, root, rules)
	file := func(tool, p string) permission.Outcome {
		in, _ := json.Marshal(map[string]string{"path": p, "content": "x"})
		out, err := g.Authorize(t.Context(), permission.Call{Name: tool, Input: in})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	clone := "git clone -q . sub/r"
	if out := authorize(t, g, clone); !out.Run {
		t.Fatalf("%q was refused: %+v", clone, out.Verdict)
	}
	runBash(t, root, clone, 30*time.Second)
	for _, p := range []string{"sub/r/.git/config", "sub/r/.GIT/config", "./sub//r/.git/hooks/post-checkout",
		"dotgit/modules/x/config", ".git/modules/x/config", "sub/.git", wd + "/sub/r/.git/config"} {
		for _, tool := range []string{"write_file", "edit_file", "delete_file"} {
			if out := file(tool, p); out.Run || out.Verdict.RuleID != permission.RuleGitDir {
				t.Errorf("%s %s: %+v, want an ask by %s", tool, p, out.Verdict, permission.RuleGitDir)
			}
		}
	}
	if out := file("write_file", "sub/r/README"); !out.Run {
		t.Errorf("write_file of an ordinary file of the nested worktree was refused: %+v", out.Verdict)
	}
	// What write_file would have written, and the line that runs it:
	// since round 118 the gate also reads the nested repository's
	// configuration, so the line itself asks too.
	cfg := "[core]\n\trepositoryformatversion = 0\n\tfsmonitor = rm -f ../../c; false\n"
	if err := os.WriteFile(filepath.Join(wd, "sub", "r", ".git", "config"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	line := "git add sub/r && git status"
	if out := authorize(t, g, line); out.Run {
		t.Errorf("%q was allowed with a nested repository whose fsmonitor runs a command: %+v", line, out.Verdict)
	}
	runBash(t, root, line, 30*time.Second)
	if _, err := os.Stat(filepath.Join(wd, "c")); err == nil {
		t.Errorf("the nested repository's fsmonitor did not run: the test no longer shows the damage")
	}
}

// TestCanaryRound10NestedGitDirWrites checks that bash writes into any .git
// directory, however a line names it, are not allowed under "allow bash",
// while writes beside one still are.
func TestCanaryRound10NestedGitDirWrites(t *testing.T) {
	t.Parallel()
	root := canaryFixture(t, canaryTemplate(t))
	wd := filepath.Join(root, "work")
	cmd := exec.Command("git", "init", "-q", "sub/r")
	cmd.Dir = wd
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	if err := os.Symlink(filepath.Join(wd, "sub", "r", ".git"), filepath.Join(wd, "rgit")); err != nil {
		t.Fatal(err)
	}
	g := canaryGate(t, root, canaryAllowBashRules)
	for line, want := range map[string]bool{
		"echo x > sub/r/.git/config":             false,
		"echo x | tee sub/r/.gi?/config":         false,
		"echo x | tee sub/*/.g*/hooks/x":         false,
		"echo x | tee sub/r/.{git,x}/config":     false,
		"echo x > rgit/config":                   false,
		"echo x | tee rgi?/config":               false,
		"echo 'gitdir: ../../.git' > sub/x/.git": false,
		"mkdir -p sub/x/.git":                    false,
		"openssl rand -out sub/r/.gi?/x 1":       false,
		"echo x > sub/r/README":                  true,
		"echo x | tee sub/r/*.txt":               true,
		"echo x >> sub/r/.gitignore":             true,
	} {
		if out := authorize(t, g, line); out.Run != want {
			t.Errorf("%q: run %v, want %v (%+v)", line, out.Run, want, out.Verdict)
		}
	}
}
