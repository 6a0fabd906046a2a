package permission_test

import (
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// A read whose path has a part the gate cannot know (a variable of the
// environment, a command substitution, arithmetic) asks when the known
// tail of the path may end a secret location, and a variable the line
// binds to known words (for f in ~/.pgpass, h=~) is each of them
// (secret66); bash prints the file in each of these lines. A wholly
// unknown read asks when it comes from the environment or from a
// substitution that names the home directory, and is allowed when it is
// data of the line's own commands over the project.
func TestBashSecretReadsUnknownPartsS66(t *testing.T) {
	home, wd := secretHome(t)
	runtime := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	writeSecretFiles(t, "x\n", filepath.Join(home, ".pgpass"), filepath.Join(runtime, "containers/auth.json"))
	decide := secretDecider(t, home, wd)
	for _, line := range []string{
		// Loop variables over a known list, a bare ~ assigned.
		`for f in ~/.pgpass; do cat $f; done`, `for d in ~; do cat $d/.pgpass; done`, `h=~; cat $h/.pgpass`,
		`for f in README.md ~/.ssh/id_rsa; do head "$f"; done`, `for d in ~/.ss*; do cat $d/id_rsa; done`,
		`for f in {x,~/.netrc}; do cat "$f"; done`,
		// Command substitutions whose output may be a home path.
		`cat "$(cd; pwd)/.pgpass"`, `cat $(ls -d ~)/.pgpass`, `cat $(printf '%s/.pgp%s' ~ ass)`,
		`cat "$(echo ~)/.config/gh/hosts.yml"`, `cat $(echo $HOME/.netrc)`,
		`f=$(echo ~/.pgpass); cat "$f"`, `for f in $(ls -d ~/.ssh/*); do cat $f; done`,
		// Variables from the environment.
		`cat "$OLDPWD/.pgpass"`, `cat $FOO/.pgpass`, `cat "$XDG_CONFIG_HOME/gh/hosts.yml"`,
		`cat "$XDG_RUNTIME_DIR/containers/auth.json"`, `cat ${FOO}/.pgpa*`, `tail -n 5 $X/.ssh/id_ed25519`,
		`grep -h . "$D/.aws/credentials"`, `cat $GNUPGHOME/../.netrc`, `cat "$X/../..//.netrc"`,
		`cat $X/./.netrc`, `ls $X; cat "$X"`, `cat $X/{x,.pgpass}`, `cat "$X"/.SSH/id_rsa`, `cat $KUBECONFIG`, `cat $P/environ`, `cat $((0))/.pgpass`,
		// A working directory the gate cannot know (cd - goes to OLDPWD).
		`cd -; cat .pgpass`, `cd -; head ./.netrc`, `cd -; cat .ss*/id_rsa`,
		// A known start at the home or the root, then an unknown part:
		// any path beneath it (before-stop attack of stop 50).
		`cat ~/"$(echo .pgpass)"`, `cat ~/$(echo .pgpass)`, `cat /tmp/$(echo ../../root/.netrc)`,
		`cat "$HOME"/x$(echo /../.netrc)`, `head ~/x$(echo /../.pgpass)`,
	} {
		if v := decide(line); v.Decision != permission.Ask || v.RuleID != permission.RuleBashSecretRead {
			t.Errorf("%q: %v %s (%s), want an ask of %s", line, v.Decision, v.RuleID, v.Reason, permission.RuleBashSecretRead)
		}
	}
	// A relative path through a directory read after such a cd makes the
	// line opaque before the secret read is judged (its directories may
	// be links: cd /proc/self/cwd/sub; cat s/id_ed25519, stop 55's caps
	// round): an ask of the analysis.
	wantDecisions(t, decide, []string{`cd - >/dev/null && cat .config/gh/hosts.yml`, `cd -; cat x/../.aws/credentials`}, nil)
	// A command string given to a program the gate does not model binds
	// its loop variables as the line does (gatestr67): the loop over the
	// workdir's files is judged as the same loop on the line, and one over
	// a secret still asks. A word that ends in a variable of the
	// environment is wholly unknown and asks on the safe side.
	for _, pair := range [][2]string{
		{`hyperfine -r1 'for f in *; do wc -l $f; done'`, `for f in *; do wc -l $f; done`},
		{`hyperfine -r1 'for f in *.go; do wc -l "$f"; done'`, `for f in *.go; do wc -l "$f"; done`},
		{`hyperfine -r1 'x=README.md; wc -l $x'`, `x=README.md; wc -l $x`},
		{`hyperfine -r1 'git ls-files | while read -r f; do wc -l "$f"; done'`, `git ls-files | while read -r f; do wc -l "$f"; done`},
	} {
		if v, w := decide(pair[0]), decide(pair[1]); v.Decision != w.Decision || v.Decision == permission.Deny {
			t.Errorf("%q: %v %s (%s), want %v as %q is", pair[0], v.Decision, v.RuleID, v.Reason, w.Decision, pair[1])
		}
	}
	for _, line := range []string{`hyperfine -r1 'for f in ~/.pgpass; do wc -l $f; done'`,
		`hyperfine -r1 'for d in ~; do wc -l "$d/.pgpass"; done'`, `cp README b.txt && hyperfine -r1 'wc -l b.txt$X'`,
		`hyperfine -r1 'h=~; wc -l $h/.pgpass'`,
		// The binding holds for the whole line: a name of the environment
		// (not a loop variable's) is never bound by a string.
		`hyperfine -r1 'for KUBECONFIG in README.md; do :; done'; cat $KUBECONFIG`,
		`hyperfine -r1 'XDG_RUNTIME_DIR=.; true'; cat "$XDG_RUNTIME_DIR/containers/auth.json"`} {
		if v := decide(line); v.Decision != permission.Ask {
			t.Errorf("%q: %v %s (%s), want an ask", line, v.Decision, v.RuleID, v.Reason)
		}
	}
	// Lines the analysis already asked for (an unknown operand of a
	// program it does not let take one) still ask.
	for _, line := range []string{"h=~; f=$h/.netrc; base64 $f", "cat `echo ~`/.pgpass", `xxd $GNUPGHOME/../.netrc`,
		`cp "$OLDPWD/.git-credentials" ./g`, `base64 "$PGPASSFILE"`, `a=(~/.pgpass x); cat $a`} {
		if v := decide(line); v.Decision != permission.Ask {
			t.Errorf("%q: %v %s (%s), want an ask", line, v.Decision, v.RuleID, v.Reason)
		}
	}
	for _, line := range []string{
		`for f in *.go; do cat "$f"; done`,
		`cat "$TMPDIR/out.txt"`,
		`for d in src docs; do cat $d/README.md; done`, `echo "$HOME"`, `h=~; ls $h`, `for i in 1 2; do echo $i; done`,
		`for f in README.md notes.txt; do cat "$f"; done`, `x=README.md; cat $x`, `cd -; cat README.md`,
		`cd - && ls -la`,
		`cd sub && ls $OLDPWD`, `ls -la "$(dirname "$(pwd)")"`, `ls $X/.ssh`, `stat "$OLDPWD/.pgpass"`,
		`for d in src docs; do cat $d/config.json; done`, `for d in a b; do cat "$d/token"; done`,
	} {
		if v := decide(line); v.Decision != permission.Allow {
			t.Errorf("%q: %v %s (%s), want it allowed", line, v.Decision, v.RuleID, v.Reason)
		}
	}
}
