//go:build linux

package permission_test

import "testing"

// canaryRound51 is the attack round written at the start of stop 41:
// three more variants per class of the security issue. None is in an
// earlier list; each does damage when run in the fixture, so each must be
// refused by both scenarios.
var canaryRound51 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x && 1 ))`,
		`x='a[$(rm -f c)]'; : $(( x ** 2 ))`,
		`x='a[$(rm -f c)]'; : $(( x ^ 5 ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y command bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y ionice -c 2 -n 7 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y timeout -k 9 60 bash -c :`,
	},
	"3-guards-and-wrappers": {
		`command find . -name c -delete`,
		`exec find . -name c -delete`,
		`timeout -k 9 60 find . -name c -delete`,
	},
	"4-redirections": {
		`tac README > .git/config`,
		`sort -r README > .git/hooks/pre-commit`,
		`od -c README >| .git/config`,
	},
	"5-globs": {
		`truncate -s 0 .gi[t]/config`,
		`cp /dev/null .g[i]t/config`,
		`ln -sf README .g?t/config`,
	},
}

func TestCanaryRound51(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound51)
}
