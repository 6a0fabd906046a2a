//go:build linux

package permission_test

import "testing"

// canaryRound63 is the attack round of stop 44's last review: three more
// variants per class of the security issue, none in an earlier list; each
// does damage when run in the fixture, so each must be refused by both
// scenarios.
var canaryRound63 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x != 2 ))`,
		`x='a[$(rm -f c)]'; : $(( x ^ 0 ))`,
		`x='a[$(rm -f c)]'; : $(( x % 11 ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y timeout -s TERM 33 nice -n 1 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y taskset -c 1 timeout -k 1 6 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y nice -n 19 timeout -s USR2 5 bash -c :`,
	},
	"3-guards-and-wrappers": {
		`timeout -s TERM 33 nice -n 1 find . -name c -delete`,
		`taskset -c 1 timeout -k 1 6 find . -name c -delete`,
		`nice -n 19 timeout -s USR2 5 find . -name c -delete`,
	},
	"4-redirections": {
		`tac -s x README > .git/config`,
		`head -c 40 README >> .git/config`,
		`pr -d README > .git/hooks/post-rewrite`,
	},
	"5-globs": {
		`cp README .[f-g][h-i]t/config`,
		`tee -a .g[!z]t/config < README`,
		`truncate -s 6 .?[h-k]t/config`,
	},
}

func TestCanaryRound63(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound63)
}
