//go:build linux

package permission_test

import "testing"

// canaryRound62 is the attack round at stop 44's end, after the merges of
// review45g and the hook-manager fix: three more variants per class of the
// security issue, none in an earlier list; each does damage when run in
// the fixture, so each must be refused by both scenarios.
var canaryRound62 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x == 0 ))`,
		`x='a[$(rm -f c)]'; : $(( x * 0 ))`,
		`x='a[$(rm -f c)]'; : $(( x + 0x10 ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y timeout -s HUP 14 nice bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y nice -n 9 taskset -c 1 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y timeout -k 4 22 taskset -c 0 bash -c :`,
	},
	"3-guards-and-wrappers": {
		`timeout -s HUP 14 nice find . -name c -delete`,
		`nice -n 9 taskset -c 1 find . -name c -delete`,
		`timeout -k 4 22 taskset -c 0 find . -name c -delete`,
	},
	"4-redirections": {
		`nl -w3 README > .git/config`,
		`od -c README >> .git/config`,
		`column -t README > .git/hooks/pre-auto-gc`,
	},
	"5-globs": {
		`cp README .[d-h]i[s-u]/config`,
		`tee .?[h-j]t/config < README`,
		`truncate -s 5 .[g][i][t]/config`,
	},
}

func TestCanaryRound62(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound62)
}
