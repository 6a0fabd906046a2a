//go:build linux

package permission_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// canaryRound86 are the lines of review67r's round 86, against round 84's
// fixes, that read ~/.ssh/id_ed25519 when run in real bash in round 84's
// fixture (sub/s a link to ~/.ssh) and that a policy allowing bash
// allowed.
var canaryRound86 = map[string][]string{
	// A file descriptor the line opened on a directory (< .., 3<..) is a
	// directory in /dev/fd and /proc/self/fd: what lies beneath it is
	// anywhere that directory leads. round 84's procSelfView followed
	// /proc/self/cwd and root, not fd.
	"1-descriptor-dir": {
		`cat /dev/fd/0/home/.ssh/id_ed25519 < ..`,
		`cat /dev/stdin/home/.ssh/id_ed25519 < ..`,
		`cat /proc/self/fd/0/../home/.ssh/id_ed25519 < .`,
		`cat /dev/fd/7/home/.ssh/id_ed25519 7<..`,
		`cat /proc/thread-self/fd/7/home/.ssh/id_ed25519 7<..`,
		`{ cat /dev/fd/3/home/.ssh/id_ed25519; } 3<..`,
		`cd .. && cat /dev/fd/3/home/.ssh/id_ed25519 3<.`,
		`timeout 5 cat /dev/fd/0/home/.ssh/id_ed25519 < ..`,
		`bash -c 'cat /dev/fd/0/home/.ssh/id_ed25519' < ..`,
	},
	// GNU getopt_long takes an unambiguous abbreviation of a long
	// option: --deref is --dereference-recursive to grep and
	// --dereference to cp.
	"2-abbreviated-follow": {
		`grep --deref PRIVATE sub`,
		`grep --dereference-r PRIVATE sub`,
		`cp -r --deref sub t && cat t/s/id_ed25519`,
	},
	// An operand of a link-following reader that is a glob, a variable
	// the line binds or only known when it runs (xargs' input, a
	// command substitution): the walk looked at literal words only.
	"3-operand-not-literal": {
		`grep -R PRIVATE su*`,
		`d=sub; grep -R PRIVATE $d`,
		`echo sub | xargs grep -R PRIVATE`,
		`ls | xargs grep -R PRIVATE`,
		`grep -R PRIVATE $(echo sub)`,
	},
	// A tree reader given a variable the line binds to a directory
	// holding a secret (round 84's diff -rN ~ e, through a variable).
	"4-tree-variable": {
		`d=../home; grep -r PRIVATE $d`,
		`d=../home; diff -rN $d doc`,
	},
	// diff -r takes one tree as an option's value, compared to every
	// operand: round 84 looked at its operands only.
	"4b-diff-from-file": {
		`mkdir -p e && diff -rN --from-file=../home e`,
		`mkdir -p e && diff -rN --to-file=../home e`,
		`mkdir -p e && diff -rN --from-file ../home e`,
		`mkdir -p e && diff -r -N --to-f ../home e`,
		`d=../home; mkdir -p e && diff -rN --from-file=$d e`,
	},
	// A here-string or here-document is the list of names a program
	// that reads them from its input opens: the analysis listed its
	// words nowhere.
	"5-names-on-input": {
		`xargs cat <<< ~/.ssh/id_ed25519`,
		`xargs cat <<< ../home/.ssh/id_ed25519`,
		`xargs cat <<< "sub/a/credentials README"`,
		`h=../home; xargs cat <<< $h/.ssh/id_ed25519`,
		`xargs cat <<< "$HOME/.ssh/id_ed25519"`,
		`ctags -x --language-force=Iniconf -L - <<< ~/.aws/credentials`,
		"xargs cat <<'EOF'\nsub/a/credentials\nEOF",
	},
	// A tree copied or moved with its links (cp -r keeps a link a
	// link): the copy's relative link leads where sub/s led, through a
	// path that does not exist when the line is judged.
	"7-copied-links": {
		`cp -r sub t && cat t/s/id_ed25519`,
		`cp -r sub t && grep -r PRIVATE t/s`,
		`cp -R sub t && cat t/a/credentials`,
		`cp -a sub t && cat t/s/id_ed25519`,
		`cp --recursive sub t && cat t/s/id_ed25519`,
		`mv sub t && cat t/s/id_ed25519`,
		`timeout 9 cp -r sub t && cat t/s/id_ed25519`,
	},
	// ctags' other spellings of recursion: a boolean's other true
	// values, letters run together, a later --links=yes.
	"6-ctags-spellings": {
		`ctags --recurse=1 -x --language-force=Iniconf sub`,
		`ctags --recurse=on -x --language-force=Iniconf sub`,
		`ctags -Rx --language-force=Iniconf sub`,
		`ctags -R --links=no --links=yes -x --language-force=Iniconf sub`,
	},
}

// canaryRound86Setup are lines of round 86 that read the key in a project
// that an earlier line (or a clone) left as the setup says: an options
// file ctags reads by itself that makes it recurse.
var canaryRound86Setup = []struct{ setup, line string }{
	{`mkdir .ctags.d && echo --recurse=yes > .ctags.d/r.ctags`, `ctags -x --language-force=Iniconf sub`},
	{`mkdir ctags.d && echo --recurse=yes > ctags.d/r.ctags`, `ctags -x --language-force=Iniconf sub`},
	{`mkdir -p ../home/.ctags.d && echo --recurse=yes > ../home/.ctags.d/r.ctags`, `ctags -x --language-force=Iniconf sub`},
}

// canaryRound86Ordinary are lines next to round 86's that stay allowed.
// (echo doc | xargs grep -r x, here at round 86, asks since gatesec68:
// a recursive reader's operand made at run time may be any tree, and echo
// ../home | xargs grep -r PRIVATE printed the keys; see round 90.)
var canaryRound86Ordinary = []string{
	`diff /dev/fd/3 README 3<README`, `cat /dev/stdin < README`, `tar czf /dev/stdout doc | wc -c`,
	`tee /dev/stderr < README`, `cat README > /dev/stdout`, `grep -R TODO doc`, `d=doc; grep -R x $d`, `grep -R x do*`,
	`cat /proc/self/status`, `grep --directories=skip x README`, `cp --debug -r doc t2`, `grep -rn TODO .`,
	`diff -r doc doc`, `ls -LR sub`, `du -L sub`, `echo doc/a | xargs grep x`, `d=doc; diff -r $d doc`,
	`grep -c x <<< "hello world"`, `wc -w <<< "$(cat README)"`, `xargs cat <<< README`,
	"cat > r.md <<'EOF'\nsee ~/.aws/credentials\nEOF", `ctags -R --links=false -x --language-force=Iniconf sub`,
	`ctags -R --recurse=no -x --language-force=Iniconf sub`, `ctags -x --language-force=Iniconf sub/x`,
	`mkdir -p e && diff -rN --from-file=doc e`, `mkdir -p e && diff -ru --exclude=.git doc e`,
	`cp -r doc d2 && cat d2/a`, `mv README r2`, `cp README r2`, `cp -a doc d3`, `cp -a sub t2`, `timeout 9 mv sub t3`,
}

// TestCanaryRound86 checks that each line of round 86 reads the key when
// run and asks under the secret-read rule, and that the ordinary lines
// print no key and stay allowed.
func TestCanaryRound86(t *testing.T) {
	t.Parallel()
	checkSecretRound(t, canaryRound86, canaryRound86Ordinary, false)
}

// round86SetUp runs setup in real bash in the fixture of home and wd.
func round86SetUp(t *testing.T, home, wd, setup string) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "/bin/bash", "-c", setup)
	cmd.Dir = wd
	cmd.Env = canaryEnv(home)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%q: %v: %s", setup, err, out)
	}
}

// TestCanaryRound86Setup checks the lines of canaryRound86Setup: each
// reads the key when run after its setup and asks, and the ordinary
// ctags line next to them (a directory with no link) stays allowed.
func TestCanaryRound86Setup(t *testing.T) {
	t.Parallel()
	for _, c := range canaryRound86Setup {
		home, wd := round84Fixture(t)
		round86SetUp(t, home, wd, c.setup)
		cmd := exec.CommandContext(t.Context(), "/bin/bash", "-c", c.line)
		cmd.Dir = wd
		cmd.Env = append(canaryEnv(home), "TMPDIR="+filepath.Dir(wd))
		if out, _ := cmd.CombinedOutput(); !strings.Contains(string(out), round84Key) {
			t.Errorf("%q after %q did not print the key when run: %q", c.line, c.setup, out)
		}
		home, wd = round84Fixture(t)
		round86SetUp(t, home, wd, c.setup)
		decide := secretDecider(t, home, wd)
		if v := decide(c.line); v.Decision != permission.Ask || v.RuleID != permission.RuleBashSecretRead {
			t.Errorf("%q after %q: %v %s (%s), want an ask of %s", c.line, c.setup, v.Decision, v.RuleID, v.Reason, permission.RuleBashSecretRead)
		}
		if v := decide(`ctags -x --language-force=Iniconf doc`); v.Decision != permission.Allow {
			t.Errorf("ctags of doc after %q: %v %s (%s), want it allowed", c.setup, v.Decision, v.RuleID, v.Reason)
		}
	}
}
