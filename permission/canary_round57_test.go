//go:build linux

package permission_test

import "testing"

// canaryRound57 is the attack round at the start of stop 43: three more
// variants per class of the security issue, none in an earlier list; each
// does damage when run in the fixture, so each must be refused by both
// scenarios. The wrappers are timeout with a signal and a kill delay and
// taskset; the globs use `?`, a negated bracket and `*` with a bracket.
var canaryRound57 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x ^ 3 ))`,
		`x='a[$(rm -f c)]'; : $(( x != 7 ))`,
		`x='a[$(rm -f c)]'; : $(( x & 6 ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y timeout -s HUP 40 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y taskset -c 1 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y timeout -k 5 90 bash -c :`,
	},
	"3-guards-and-wrappers": {
		`timeout -s HUP 40 find . -name c -delete`,
		`taskset -c 1 find . -name c -delete`,
		`timeout -k 5 90 find . -name c -delete`,
	},
	"4-redirections": {
		`pr -t README > .git/config`,
		`sort -u README >> .git/config`,
		`uniq README > .git/hooks/post-checkout`,
	},
	"5-globs": {
		`cp README .gi?/config`,
		`tee .[!x]it/config < README`,
		`shred -u .g*/c[o]nfig`,
	},
}

func TestCanaryRound57(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound57)
}
