//go:build linux

package permission_test

import "testing"

// canaryRound58 is the attack round of stop 43's last review, after the
// merges of the gate's helpers (redteam57, gate57): three more variants per
// class of the security issue, none in an earlier list; each does damage
// when run in the fixture, so each must be refused by both scenarios.
var canaryRound58 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x | 8 ))`,
		`x='a[$(rm -f c)]'; : $(( x == 5 ))`,
		`x='a[$(rm -f c)]'; : $(( x - 4 ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y nice -n 14 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y timeout -s USR1 30 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y taskset -c 0,1 bash -c :`,
	},
	"3-guards-and-wrappers": {
		`nice -n 14 find . -name c -delete`,
		`timeout -s USR1 30 find . -name c -delete`,
		`taskset -c 0,1 find . -name c -delete`,
	},
	"4-redirections": {
		`head -n 2 README > .git/config`,
		`nl -ba README >> .git/config`,
		`sed 's/a/b/' README > .git/hooks/pre-applypatch`,
	},
	"5-globs": {
		`cp README .g?t/config`,
		`tee -a .?it/conf?g < README`,
		`truncate -s 2 .g[!a]t/config`,
	},
}

func TestCanaryRound58(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound58)
}
