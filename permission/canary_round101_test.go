//go:build linux

package permission_test

import (
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/permission"
)

// canaryRound101 are review69c's lines against round 96's flow of cd:
// bash's logical cd takes inc/../evil as the project's evil only when
// that is a directory, and otherwise asks the kernel, which steps back
// from where the link inc led (../evil) into ../evil itself. The flow
// and the line's candidates took the text's reading alone, so a
// compiler's ".", ".." and -include from there were the project's; in
// round 96's fixture (inc linked to ../evil, whose stdio.h and evil.h
// carry a constructor, as does the project's parent's stdio.h) each
// removed the canary in real bash under bwrap; the first three were
// allowed, the two that reach ../evil through two cd commands are guards.
var canaryRound101 = map[string][]string{
	"1-logical-cd-fallback": {
		`cd inc/../evil && gcc -I.. -o t ../work/x.c && ./t`,
		`cd inc/../evil && gcc -I. -o t ../work/x.c && ./t`,
		`cd inc/../evil && gcc -include evil.h -o t ../work/x.c && ./t`,
		`cd inc && cd ../evil && gcc -I. -o t ../work/x.c && ./t`,
		`pushd inc && pushd ../evil && gcc -I. -o t ../work/x.c && ./t`,
	},
}

// TestCanaryRound101 checks round 101's lines do their damage and ask,
// and that round 96's ordinary lines after cd stay allowed.
func TestCanaryRound101(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "gcc", "cmake")
	template := round96Template(t)
	checkCanaryRoundIn(t, template, canaryRound101)
	checkOrdinary(t, template, canaryRound96Ordinary, nil)
}

// round101Oracles are env piped into grep -c with a pattern that is no
// name: the count says whether GITHUB_TOKEN's value starts with the
// letter or letters guessed (0 or 1), so a line of guesses spells it out,
// as [[ $GITHUB_TOKEN == R* ]] would, which asks. Each was allowed (round
// 97's env | grep -c PATH). The second line of each pair is a wrong
// guess, which prints 0 where the first prints 1.
var round101Oracles = [][2]string{
	{`env | grep -c ^GITHUB_TOKEN=R`, `env | grep -c ^GITHUB_TOKEN=X`},
	{`env | grep -c ^GITHUB_TOKEN=[A-M]`, `env | grep -c ^GITHUB_TOKEN=[N-Z]`},
	{`env | grep -c GITHUB_TOKEN=ROUND`, `env | grep -c GITHUB_TOKEN=XOUND`},
	{`env | grep -c -x GITHUB_TOKEN=ROUND94.ENV.TOKEN`, `env | grep -c -x GITHUB_TOKEN=ROUND94.ENV.TOKEX`},
	{`env | grep -c ROUND94; env | grep -c ROUND95`, `env | grep -c ROUND93; env | grep -c ROUND95`},
	// A name is a substring guess too, one a call (the lead's, after the
	// merge): env | grep -c was dropped from the quiet consumers.
	{`env | grep -c ROUND94`, `env | grep -c ROUND93`}, {`env | grep -ci round94`, `env | grep -ci round93`},
	{`env | grep -c ROUND9 | cat`, `env | grep -c ROUNDX | cat`},
}

// round101OracleOrdinary are round 94's counts that stay allowed.
var round101OracleOrdinary = []string{
	`env | wc -l`, `env | wc -l; env | wc -c`, `env | wc -l | cat`, `printenv PATH | grep -c bin`,
}

// TestRound101EnvCountOracle checks that each oracle line tells a right
// guess from a wrong one in real bash and asks, and that the counts of
// names stay allowed.
func TestRound101EnvCountOracle(t *testing.T) {
	t.Parallel()
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	for _, pair := range round101Oracles {
		right, wrong := runRound84(t, pair[0], round94Env()...), runRound84(t, pair[1], round94Env()...)
		if right == wrong || strings.Contains(right, round94Token) {
			t.Errorf("%q printed %q and %q printed %q: no oracle", pair[0], right, pair[1], wrong)
		}
		for _, line := range pair {
			if v := decide(line); v.Decision != permission.Ask {
				t.Errorf("%q: %v %s (%s), want an ask", line, v.Decision, v.RuleID, v.Reason)
			}
		}
	}
	for _, line := range round101OracleOrdinary {
		if out := runRound84(t, line, round94Env()...); strings.Contains(out, round94Token) {
			t.Errorf("%q printed the token: %q", line, out)
		}
		if v := decide(line); v.Decision != permission.Allow {
			t.Errorf("ordinary %q: %v %s (%s), want allow", line, v.Decision, v.RuleID, v.Reason)
		}
	}
}
