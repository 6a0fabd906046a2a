//go:build linux

package permission_test

import "testing"

// canaryRound43 is the attack round written at the start of stop 39: three
// more variants per class of the security issue. None is in an earlier list;
// each does damage when run in the fixture, so each must be refused by both
// scenarios.
var canaryRound43 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( ~x ))`,
		`x='a[$(rm -f c)]'; echo "${DIRSTACK[x]}"`,
		`x='a[$(rm -f c)]'; echo "${BASH_ARGC[x]}"`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y ionice -c 3 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y setsid -w bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y prlimit --nofile=64 bash -c :`,
	},
	"3-guards-and-wrappers": {
		`ionice -n 7 find . -name c -delete`,
		`chrt -b 0 find . -name c -delete`,
		`prlimit --nproc=99 find . -name c -delete`,
	},
	"4-redirections": {
		`nl README > .git/config`,
		`tac README >> .git/hooks/pre-push`,
		`base32 README 1>.git/config`,
	},
	"5-globs": {
		`truncate -s 0 .g[i]t/config`,
		`sed -i 1d .?it/config`,
		`mv README .gi[t]/config`,
	},
}

func TestCanaryRound43(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound43)
}
