//go:build linux

package permission_test

import "testing"

// canaryRound61 is the attack round of stop 44 after the merges of gate58
// and redteam58: three more variants per class of the security issue, none
// in an earlier list; each does damage when run in the fixture, so each
// must be refused by both scenarios.
var canaryRound61 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x - 9 ))`,
		`x='a[$(rm -f c)]'; : $(( x <= 13 ))`,
		`x='a[$(rm -f c)]'; : $(( x << 3 ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y timeout -s QUIT 12 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y taskset -c 0 timeout 9 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y nice -n 11 timeout 7 bash -c :`,
	},
	"3-guards-and-wrappers": {
		`timeout -k 2 30 find . -name c -delete`,
		`nice -n 13 timeout 4 find . -name c -delete`,
		`taskset -c 0 nice -n 8 find . -name c -delete`,
	},
	"4-redirections": {
		`sort -f README > .git/config`,
		`tr a-z A-Z < README >> .git/config`,
		`fmt -w 20 README > .git/hooks/post-merge`,
	},
	"5-globs": {
		`cp README .[e-g]i[r-t]/config`,
		`tee .?[i]?/config < README`,
		`truncate -s 4 .g[h-j]t/config`,
	},
}

func TestCanaryRound61(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound61)
}
