//go:build linux

package permission_test

import "testing"

// canaryRound50 is the attack round written at the last review of stop
// 40: three more variants per class of the security issue. None is in an
// earlier list; each does damage when run in the fixture, so each must be
// refused by both scenarios.
var canaryRound50 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x % 3 ))`,
		`x='a[$(rm -f c)]'; : $(( 2 * x ))`,
		`x='a[$(rm -f c)]'; : $(( 0 - x ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y nice -n 7 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y timeout 30 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y taskset -a 0x1 bash -c :`,
	},
	"3-guards-and-wrappers": {
		`timeout 30 find . -name c -delete`,
		`stdbuf -oL find . -name c -delete`,
		`chrt -f 1 find . -name c -delete`,
	},
	"4-redirections": {
		`expand -t 4 README > .git/config`,
		`cut -c 1-3 README >> .git/hooks/pre-commit`,
		`tr a-z A-Z < README > .git/hooks/pre-push`,
	},
	"5-globs": {
		`cp --remove-destination README .gi[t]/config`,
		`cat README | tee .g[i]?/config`,
		`sed -i 1d .g?[t]/config`,
	},
}

func TestCanaryRound50(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound50)
}
