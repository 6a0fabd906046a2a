//go:build linux

package permission_test

import (
	"testing"
)

// canaryRound105Braces are round 105's lines where bash's brace
// expansion makes printenv's name of a credential variable: the gate
// checked the word as written (GITHUB_TOKE{N,}), no such name, and
// allowed each line, also through a wrapper or bash -c.
var canaryRound105Braces = []string{
	`printenv GITHUB_TOKE{N,}`, `printenv GITHUB_TOKE{M..N}`, `printenv GITHUB_TOK{E,}N`, `printenv PATH GITHUB_TOKE{N,}`,
	`timeout 5 printenv GITHUB_TOKE{N,}`, `env printenv GITHUB_TOKE{N,}`, `nice printenv GITHUB_TOKE{N,}`,
	`bash -c 'printenv GITHUB_TOKE{N,}'`, `printenv ANTHROPIC_API_{KEY,}`, `printenv DATABASE_{URL,}`, `printenv PGPASS{WORD,}`,
}

// roundOrdinary105Braces are ordinary lines near them, which stay
// allowed.
var roundOrdinary105Braces = []string{`printenv {PATH,HOME}`, `printenv PATH`, `printenv HOME{,}`, `echo GITHUB_TOKE{N,}`}

// TestCanaryRound105 checks that each line prints the token or the key
// in real bash and asks, and that the ordinary lines stay allowed.
func TestCanaryRound105(t *testing.T) {
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	wantPrintedAndAsked(t, decide, canaryRound105Braces, nil)
	wantQuietAndAllowed(t, decide, roundOrdinary105Braces)
}
