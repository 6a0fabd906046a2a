//go:build linux

package permission_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/permission"
)

// canaryRound100 are review69g's lines against round 99: a word without
// blanks that hyperfine hands to sh, spelled with a parameter expansion
// the shell makes env, printenv or set of (the round 99 rule matched the
// word as written: env, set, 'set|cat'). Each printed round94Token in
// real bash (and under bwrap) and was allowed before.
var canaryRound100 = []string{
	`hyperfine -r1 --show-output '${x:-env}'`, `hyperfine -r1 --show-output 'e$@nv'`,
	`hyperfine -r1 --show-output 'env$x'`, `hyperfine -r1 --show-output 'printenv$IFS'`,
	`hyperfine -r1 --show-output 'e${x}nv'`, `hyperfine -r1 --show-output 's${x:-e}t'`,
	`hyperfine -r1 --show-output --prepare='${x:-env}' true`, `hyperfine -r1 --show-output -p '${x:-env}' true`,
	`hyperfine -r1 --show-output '${x:-printenv} GITHUB_TOKEN'`,
}

// canaryRound100Ordinary are the lines near them that stay allowed: a
// string with blanks, a word whose expansions spell no printer.
var canaryRound100Ordinary = []string{
	`hyperfine -r1 --show-output 'echo $HOME'`, `hyperfine -r1 --show-output 'true $x'`,
	`hyperfine -N -r1 --show-output 'printenv PATH'`, `hyperfine -r1 --show-output --prepare='echo $PWD' true`,
	`hyperfine -r1 --show-output 'set -eu; ${PAGER:-cat} README'`,
}

// TestCanaryRound100 checks each line prints the token in real bash and
// asks, and that the ordinary lines print none and stay allowed.
func TestCanaryRound100(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "hyperfine")
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	for _, line := range canaryRound100 {
		if out := runRound84(t, line, round94Env()...); !strings.Contains(out, round94Token) {
			t.Errorf("%q did not print the token when run: %q", line, out)
		}
		if v := decide(line); v.Decision != permission.Ask {
			t.Errorf("%q: %v %s (%s), want an ask", line, v.Decision, v.RuleID, v.Reason)
		}
	}
	wantQuietAndAllowed(t, decide, canaryRound100Ordinary)
	// A program spelled with an expansion joined to text may be several
	// words, or another name, once sh expands and splits the value (round
	// 103 asks for g${x}h pr list): true$x, allowed here before, asks too.
	// The test skipped without hyperfine, which hid the change.
	wantDecisions(t, decide, []string{`hyperfine -r1 --show-output 'true$x'`}, nil)
}

// canaryRound100Defaults name the program of a command string by a
// parameter expansion's default or alternative value. The string
// reader's emptied words took ${x:-r} as r but dropped ${x:+r}, the value
// when x is set, as HOME always is: hyperfine '${HOME:+rm} -f c' removed
// the canary in real bash (and under bwrap) and was allowed by allow-bash
// before (round 100). The default spellings beside it were refused
// already and stay as coverage of the same reader. In a builtin's string
// (trap "${x:-rm} -f c" EXIT) the string was not read at all: each of
// those removed the canary and was allowed too.
var canaryRound100Defaults = map[string][]string{
	"default": {
		`hyperfine -r1 '${x:-rm} -f c'`, `hyperfine -r1 '${x-rm} -f c'`, `hyperfine -r1 '${x:-r}m -f c'`,
		`hyperfine -r1 '${x:=rm} -f c'`, `hyperfine -r1 '${HOME:+rm} -f c'`, `hyperfine -r1 '${x:-/bin/rm} -f c'`,
	},
	// A builtin's string (trap's) is a command string only when its
	// first word names a program the analysis models, and the one
	// ${x:-rm} names was not seen: the string was not read.
	"builtin-string": {
		`hyperfine -r1 'trap "${x:-rm} -f c" EXIT'`, `hyperfine -r1 'trap "${HOME:+rm} -f c" EXIT'`,
		`hyperfine -r1 'trap "${x:-r}m -f c" EXIT'`,
	},
}

// TestCanaryRound100Defaults runs round 100's default-value lines in the
// canary fixture (each must remove the canary in real bash and be refused)
// and keeps ordinary strings with a default allowed.
func TestCanaryRound100Defaults(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "hyperfine", "git")
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound100Defaults)
	home, wd := round84Fixture(t)
	wantDecisions(t, secretDecider(t, home, wd), nil, []string{
		`hyperfine -r1 'sleep ${N:-0}'`, `hyperfine -r1 '${x:-echo} hi'`, `hyperfine -r1 '${x:-ls} -l README'`,
	})
}

// round100Padded returns echo "README … (n times) NAME" | reader: the
// name after n others in one printed word.
func round100Padded(n int, filler, name, reader string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.ReplaceAll(filler, "%d", strconv.Itoa(i)) + " ")
	}
	return `echo "` + b.String() + name + `" | ` + reader
}

// Round 98 reads the names inside a printed word, but only its first 64
// parts: a secret path after 64 others (the same or distinct) was not
// looked at. Each line printed the key in real bash and was allowed.
func TestRound100EmbeddedWordsPastTheCap(t *testing.T) {
	t.Parallel()
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	lines := []string{
		round100Padded(70, "README", "../home/.ssh/id_ed25519", "xargs grep -h PRIVATE"),
		round100Padded(70, "README", "../home/.ssh/id_ed25519", "xargs cat"),
		round100Padded(100, "a%d", "../home/.ssh/id_ed25519", "xargs cat"),
	}
	for _, line := range lines {
		if out := runRound84(t, line); !strings.Contains(out, round84Key) {
			t.Errorf("%.60q… did not print the key when run: %.200q", line, out)
		}
		if v := decide(line); v.Decision != permission.Ask {
			t.Errorf("%.60q…: %v %s (%s), want an ask", line, v.Decision, v.RuleID, v.Reason)
		}
	}
	wantDecisions(t, decide, nil, []string{round100Padded(100, "a%d", "README", "xargs cat")})
}
