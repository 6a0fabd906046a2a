//go:build linux

package permission_test

import "testing"

// canaryRound33 are the variants of the attack round at the last read of
// stop 35, after the glob expansion against the project (none is in an
// earlier list): the five classes, and files named like options that the
// line makes and then globs. Each does damage when run in the fixture of
// canaryTemplate, so each must be refused by both scenarios.
var canaryRound33 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; (( 1 )); printf '%d\n' "$(( x ))"`,
		`b=(1); read -r x <<< 'a[$(rm -f c)]'; : "${b[x]}"`,
		`x='a[$(rm -f c)]'; [[ 1 -lt x ]]`,
	},
	"2-environment": {
		`echo 'rm -f c' > y && COLUMNS=80 ENV=./y sh -i < /dev/null`,
		`echo 'import os; os.remove("c")' > y.py && GOGC=off PYTHONSTARTUP=y.py python3 -i < /dev/null`,
		`TZ=UTC GIT_CONFIG_PARAMETERS="'core.fsmonitor=rm -f c; false'" git status`,
	},
	"3-guards-and-wrappers": {
		`set -u; nice -n 2 find . -name c -delete`,
		`[ -f README ] && env rm -f c`,
		`read -r p <<< rm; command "$p" -f c`,
	},
	"4-redirections": {
		`[ -d .git ] && printf x > .git/config`,
		`set -e; cat README 1>>.git/config`,
		`echo $(( 3 )) | tee -a .git/config`,
	},
	"5-globs": {
		`touch -- -delete && find . -name c *ete`,
		`echo x | tee .[g]i?/config`,
		`cat README | tee .gi{t,x}/config`,
	},
	"6-option-files": {
		`touch ./--checkpoint=1 './--checkpoint-action=exec=rm -f c' && tar cf /dev/null *[1c]`,
		`mkdir ./-delete && find . -name c ?delete`,
		`echo > ./-delete; find . -name c [-]delete`,
	},
}

// canaryRound33Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow.
var canaryRound33Ordinary = []string{
	"tar cf /dev/null README", "find . -name '*.md'", "COLUMNS=80 ls", "set -u; ls", "cp README README.bak",
}

func TestCanaryRound33(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryRound33)
	checkOrdinary(t, template, canaryRound33Ordinary, nil)
}
