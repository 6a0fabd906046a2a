//go:build linux

package permission_test

import "testing"

// canaryRound32 are the variants of the attack round at the second read
// of stop 35, after the reviews of what it let the analysis understand
// (none is in an earlier list): the five classes, and options that bash
// makes of a brace or a glob. Each does damage when run in the fixture of
// canaryTemplate, so each must be refused by both scenarios.
var canaryRound32 = map[string][]string{
	"1-arithmetic": {
		`echo $(( 2 * 3 )) > /dev/null; x='a[$(rm -f c)]'; : $(( x ))`,
		`x='a[$(rm -f c)]'; b=(1); : "${b[x]:-}"`,
		`read -r x <<< 'a[$(rm -f c)]'; (( x > 0 ))`,
	},
	"2-environment": {
		`echo 'rm -f c' > y && DEBUG=1 BASH_ENV=y bash -c true`,
		`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='rm -f c; false' CI=1 git status`,
		`echo 'unlink "c"; 1' > y.pm && LC_ALL=C PERL5OPT=-My PERL5LIB=. perl -e 1`,
	},
	"3-guards-and-wrappers": {
		`set -e; timeout 5 find . -name c -delete`,
		`env LANG=C.UTF-8 nohup rm -f c`,
		`[ -e c ] && time rm -f c`,
	},
	"4-redirections": {
		`set -o pipefail; echo x | cat > .git/config`,
		`read -r l < README; echo "$l" >> .git/hooks/pre-commit`,
		`(( 1 )) && echo x 1>.git/config`,
	},
	"5-globs": {
		`find . -name c {,-delete}`,
		`touch ./-delete; find . -name c -?elete`,
		`echo x | tee .[g]it/con[f]ig`,
	},
	"6-option-expansion": {
		`sort {,-o} .git/config README`,
		`git diff HEAD {--output=.git/config,--stat}`,
		`printf {,-v} 'a[$(rm -f c)]' 1`,
	},
}

// canaryRound32Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow.
var canaryRound32Ordinary = []string{
	"touch {a,b}.txt", "cp README{,.bak}", "sort -u README", "git diff --stat", "[ -e README ] && wc -l README",
}

func TestCanaryRound32(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryRound32)
	checkOrdinary(t, template, canaryRound32Ordinary, nil)
}
