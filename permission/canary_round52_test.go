//go:build linux

package permission_test

import "testing"

// canaryRound52 is the attack round written after stop 41's merges of the
// gate's pip settings and running-system work: three more variants per
// class of the security issue. None is in an earlier list; each does
// damage when run in the fixture, so each must be refused by both
// scenarios.
var canaryRound52 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x >> 2 ))`,
		`x='a[$(rm -f c)]'; : $(( x | 4 ))`,
		`x='a[$(rm -f c)]'; : $(( 9 > x ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y stdbuf -e0 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y nice -n 11 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y ionice -c 3 -t bash -c :`,
	},
	"3-guards-and-wrappers": {
		`nice -n 11 find . -name c -delete`,
		`stdbuf -e0 find . -name c -delete`,
		`ionice -c 2 -n 7 find . -name c -delete`,
	},
	"4-redirections": {
		`base64 README > .git/hooks/pre-commit`,
		`head -c 5 README >> .git/config`,
		`strings README > .git/config`,
	},
	"5-globs": {
		`rm -f .gi[t]/config`,
		`mv README .g?t/config`,
		`cp -p README .[g]it/config`,
	},
}

func TestCanaryRound52(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound52)
}
