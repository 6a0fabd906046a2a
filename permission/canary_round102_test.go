//go:build linux

package permission_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound102 are the lead's lines of stop 53's last pass: a command
// string whose program is joined to an expansion of IFS, which sh splits
// into words even in a word without blanks, so cat${IFS}x runs cat on x.
// Each printed the key or the token in real bash (hyperfine hands the
// string to sh) and was allowed before: the word had no blank and no
// operator, so it was no command string, and in a string with one its
// program was only "known when it runs".
var canaryRound102 = []string{
	`hyperfine -r1 --show-output 'cat${IFS}sub/s/id_ed25519'`, `hyperfine -S bash -r1 --show-output 'cat${IFS:0:1}sub/s/id_ed25519'`,
	`hyperfine -r1 --show-output 'nice${IFS}env'`, `hyperfine -r1 --show-output 'exec${IFS}env'`,
	`hyperfine -r1 --show-output 'timeout${IFS}9${IFS}env'`, `hyperfine -r1 --show-output 'true; cat$IFS"sub/s/id_ed25519"'`,
}

// TestCanaryRound102 checks that each line prints a credential in real
// bash and asks, and that strings whose program is one expansion alone
// stay allowed.
func TestCanaryRound102(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "hyperfine")
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	wantPrintedAndAsked(t, decide, canaryRound102, []string{
		`hyperfine -r1 'set -eu; $PAGER README'`, `hyperfine -r1 '${x:-echo} hi'`, `hyperfine -r1 'sleep ${N:-0}'`,
		`hyperfine -r1 '${PAGER:-cat} README'`,
	})
}
