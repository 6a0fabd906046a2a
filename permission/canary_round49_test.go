//go:build linux

package permission_test

import "testing"

// canaryRound49 is the attack round written at the hook's ask after the
// second reads of stop 40's gate changes (review-pv, review-rt47): three
// more variants per class of the security issue. None is in an earlier
// list; each does damage when run in the fixture, so each must be refused
// by both scenarios.
var canaryRound49 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x - 1 ))`,
		`x='a[$(rm -f c)]'; : $(( (x) ))`,
		`x='a[$(rm -f c)]'; : $(( x > 1 ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y chrt -b 0 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y setsid bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y flock -x y bash -c :`,
	},
	"3-guards-and-wrappers": {
		`nice -n 3 find . -name c -delete`,
		`ionice -c 3 find . -name c -delete`,
		`setsid find . -name c -delete`,
	},
	"4-redirections": {
		`join README README > .git/config`,
		`comm README README >> .git/hooks/pre-commit`,
		`sed -n p README 1> .git/hooks/pre-rebase`,
	},
	"5-globs": {
		`mv -T README .?it/config`,
		`install -m 600 README .g?t/config`,
		`cp -f README .[g]i[t]/config`,
	},
}

func TestCanaryRound49(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound49)
}
