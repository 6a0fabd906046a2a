//go:build linux

package permission_test

import "testing"

// canaryRound54 is the attack round at the start of stop 42: three more
// variants per class of the security issue. None is in an earlier list;
// each does damage when run in the fixture, so each must be refused by
// both scenarios.
var canaryRound54 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x % 5 ))`,
		`x='a[$(rm -f c)]'; : $(( x <= 2 ))`,
		`x='a[$(rm -f c)]'; : $(( x / 1 ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y nice -n 19 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y timeout -s KILL 50 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y ionice -c 2 -n 0 bash -c :`,
	},
	"3-guards-and-wrappers": {
		`nice -n 19 find . -name c -delete`,
		`timeout -s KILL 50 find . -name c -delete`,
		`nice -n 5 find . -name c -delete`,
	},
	"4-redirections": {
		`tr a-z A-Z < README > .git/config`,
		`nl README > .git/hooks/pre-commit`,
		`cut -c1-3 README > .git/config`,
	},
	"5-globs": {
		`shred -u .g?t/config`,
		`cp README .?it/config`,
		`tee .g*t/config < README`,
	},
}

func TestCanaryRound54(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound54)
}
