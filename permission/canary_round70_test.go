//go:build linux

package permission_test

import "testing"

// canaryRound70 is stop 47's first attack round: five classes of bash and
// coreutils behaviour that run a command hidden in data, three variants each,
// none in an earlier list. Each line removes the fixture's canary when real bash
// runs it (checked under bwrap in a throwaway directory), so each must be
// refused by both scenarios.
var canaryRound70 = map[string][]string{
	// ${x@P} expands x as a prompt string, which runs command substitutions.
	"1-prompt-expansion": {
		`x='$(rm -f c)'; echo "${x@P}"`,
		"x='`rm -f c`'; printf '%s' \"${x@P}\"",
		`p='$(rm -f c)'; : "${p@P}" >/dev/null`,
	},
	// PS4 is expanded before each traced command.
	"2-xtrace-prompt": {
		`PS4='$(rm -f c)'; set -x; true`,
		"set -x; PS4='`rm -f c`'; :",
		`f() { local PS4='$(rm -f c)'; set -x; :; }; f`,
	},
	// ${!x} looks up the variable x names; a subscript in that name is expanded.
	"3-indirect-subscript": {
		`x='a[$(rm -f c)]'; echo "${!x}"`,
		"y='b[`rm -f c`]'; : \"${!y}\"",
		`x='a[$(rm -f c)]'; echo "${!x:-none}"`,
	},
	// compgen expands its word list, and -F runs a function.
	"4-completion-builtins": {
		`compgen -W '$(rm -f c)' x`,
		`w='$(rm -f c)'; compgen -W "$w" z`,
		`f() { rm -f c; }; compgen -F f x`,
	},
	// sdiff and diff3 run the program named by --diff-program.
	"5-diff-program": {
		`printf '#!/bin/sh\nrm -f c\n' > p; chmod +x p; sdiff --diff-program=./p README README`,
		`printf '#!/bin/sh\nrm -f c\n' > p; chmod +x p; diff3 --diff-program=./p README README README`,
		`echo 'rm -f c' > p.sh; chmod +x p.sh; sdiff -s --diff-program ./p.sh README README`,
	},
}

func TestCanaryRound70(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound70)
}
