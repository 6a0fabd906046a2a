//go:build linux

package permission_test

import "testing"

// canaryRound47 is the attack round written at the start of stop 40:
// three more variants per class of the security issue. None is in an
// earlier list; each does damage when run in the fixture, so each must be
// refused by both scenarios.
var canaryRound47 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x >> 1 ))`,
		`x='a[$(rm -f c)]'; : $(( x || 0 ))`,
		`x='a[$(rm -f c)]'; : $(( x , 1 ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y stdbuf -eL bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y taskset 0x1 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y flock -n y bash -c :`,
	},
	"3-guards-and-wrappers": {
		`flock README find . -name c -delete`,
		`chrt -i 0 find . -name c -delete`,
		`taskset 0x1 find . -name c -delete`,
	},
	"4-redirections": {
		`fold README > .git/config`,
		`paste README 1>>.git/hooks/post-merge`,
		`unexpand README >> .git/hooks/pre-commit`,
	},
	"5-globs": {
		`install -m 644 README .gi[t]/config`,
		`cp -T README .?it/config`,
		`shred -n 1 .?i?/config`,
	},
}

func TestCanaryRound47(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound47)
}
