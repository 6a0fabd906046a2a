//go:build linux

package permission_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound103 are the lead's lines of stop 54's first pass: bash splits
// the value of an unquoted expansion at its blanks, and IFS and PS4 ("+ ")
// hold one, so a word joined to such an expansion is several words and
// the text after it a path of its own: sub/s links to ~/.ssh. Each printed
// the key in real bash and was allowed: the word's known tail
// (sub/s/id_ed25519) ends no secret location, and "$PS4"sub was recorded
// as $PS4sub, a variable of another name.
var canaryRound103 = []string{
	`cat x${IFS}sub/s/id_ed25519`, `cat x$IFS"sub/s/id_ed25519"`, `cat x${PS4}sub/s/id_ed25519`,
	`cat "x"$PS4"sub/s/id_ed25519"`, `cat ${PS4}sub/s/id_ed25519`, `head -c 999 x${PS4}sub/s/id_ed25519`,
	`x=$PS4; cat q${x}sub/s/id_ed25519`, `for f in "$PS4"; do cat q${f}sub/s/id_ed25519; done`,
	`cat x${IFS}l2/work/sub/s/id_ed25519`, `cat x${IFS}sub/s/id_*`, `tail x${PS4}sub/a/credentials`,
	`for f in x${IFS}sub/s/id_ed25519; do cat $f; done`, `sh -c 'cat x${IFS}sub/s/id_ed25519'`,
	`x="$PS4"; y=q${x}sub/s/id_ed25519; cat $y`, `cat x${IFS}*/s/id_ed25519`, `cat x${IFS}s{u,}b/s/id_ed25519`,
}

// canaryRound103Strings are round 103's lines through a runner that hands
// its operand to sh: the word has no blank, so it was taken for a
// program's name; in a string, its program was "only known when it runs".
var canaryRound103Strings = []string{
	`hyperfine -r1 --show-output 'cat${PS4#+}sub/s/id_ed25519'`, `hyperfine -r1 --show-output 'cat${PS4#?}sub/s/id_ed25519'`,
	`hyperfine -r1 --show-output '${x}cat${PS4#+}sub/s/id_ed25519'`, `hyperfine -r1 --show-output 'nice${PS4#+}env'`,
	`hyperfine -r1 --show-output 'cat x${PS4}sub/s/id_ed25519'`, `hyperfine -r1 --show-output 'true;cat${PS4#+}sub/s/id_ed25519'`,
	`hyperfine -r1 --show-output 'true;cat x${PS4#+}sub/s/id_ed25519'`,
}

// roundOrdinary103 are ordinary lines near round 103's, which stay allowed.
var roundOrdinary103 = []string{
	`cat $X/README`, `cat "$d"/notes.txt`, `wc -l src/$name.go`, `ls x${PS4}sub/s`, `cat README`,
	`hyperfine -r1 'set -eu; $PAGER README'`, `hyperfine -r1 '${PAGER:-cat} README'`, `hyperfine -r1 'sleep ${N:-0}'`,
}

// TestCanaryRound103 checks that each line prints the key or the token in
// real bash and asks, and that the ordinary lines stay allowed.
func TestCanaryRound103(t *testing.T) {
	t.Parallel()
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	wantPrintedAndAsked(t, decide, canaryRound103, roundOrdinary103)
	wantDecisions(t, decide, canaryRound103Strings, nil)
	tooltest.Need(t, tooltest.CanaryTools, "hyperfine")
	wantPrintedAndAsked(t, decide, canaryRound103Strings, nil)
}
