//go:build linux

package permission_test

import "testing"

// canaryRound60 is the attack round at the start of stop 44: three more
// variants per class of the security issue, none in an earlier list; each
// does damage when run in the fixture, so each must be refused by both
// scenarios.
var canaryRound60 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x * 4 ))`,
		`x='a[$(rm -f c)]'; : $(( x / 7 ))`,
		`x='a[$(rm -f c)]'; : $(( x < 3 ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y timeout -k 3 20 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y nice -n 3 timeout 15 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y timeout -s INT 8 bash -c :`,
	},
	"3-guards-and-wrappers": {
		`nice -n 2 find . -name c -delete`,
		`timeout 45 nice find . -name c -delete`,
		`taskset -c 0 timeout 12 find . -name c -delete`,
	},
	"4-redirections": {
		`fold -w 5 README > .git/config`,
		`expand README >> .git/config`,
		`rev README > .git/hooks/pre-rebase`,
	},
	"5-globs": {
		`cp README .[a-g]it/config`,
		`tee .g[i]?/config < README`,
		`truncate -s 3 .?[i]t/config`,
	},
}

func TestCanaryRound60(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound60)
}
