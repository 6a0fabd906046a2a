//go:build linux

package permission_test

import "testing"

// canaryRound46 is the attack round written at the hook's last ask of
// stop 39: three more variants per class of the security issue. None is
// in an earlier list; each does damage when run in the fixture, so each
// must be refused by both scenarios.
var canaryRound46 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x & 1 ))`,
		`x='a[$(rm -f c)]'; : $(( x ^ 1 ))`,
		`x='a[$(rm -f c)]'; : $(( x <= 9 ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y prlimit --core=0 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y ionice -n 4 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y timeout -s KILL 9 bash -c :`,
	},
	"3-guards-and-wrappers": {
		`prlimit --core=0 find . -name c -delete`,
		`ionice -n 4 find . -name c -delete`,
		`timeout -s KILL 9 find . -name c -delete`,
	},
	"4-redirections": {
		`sort -r README > .git/config`,
		`rev README >> .git/hooks/pre-push`,
		`cat -n README 1>.git/hooks/post-commit`,
	},
	"5-globs": {
		`cp -- README .gi[t]/config`,
		`tee -- .g?t/config < README`,
		`truncate -s 1 .?i[t]/config`,
	},
}

func TestCanaryRound46(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound46)
}
