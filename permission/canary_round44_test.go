//go:build linux

package permission_test

import "testing"

// canaryRound44 is the attack round written at the end of stop 39, after
// the gate learned the programs that change state outside the workdir:
// three more variants per class of the security issue. None is in an
// earlier list; each does damage when run in the fixture, so each must be
// refused by both scenarios.
var canaryRound44 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x << 1 ))`,
		`x='a[$(rm -f c)]'; echo "${BASH_SOURCE[x]}"`,
		`x='a[$(rm -f c)]'; : $(( x >= 0 ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y nohup bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y timeout -k 1 9 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y env -u HOME bash -c :`,
	},
	"3-guards-and-wrappers": {
		`ionice -c 2 -n 0 find . -name c -delete`,
		`timeout -k 1 9 find . -name c -delete`,
		`env -u HOME find . -name c -delete`,
	},
	"4-redirections": {
		`uniq README >> .git/hooks/pre-commit`,
		`head -c 9 README 1> .git/config`,
		`xxd README > .git/config`,
	},
	"5-globs": {
		`ln -f README .gi?/config`,
		`cp -f README .[g]it/config`,
		`sed -i s/a/b/ .g*/config`,
	},
}

func TestCanaryRound44(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound44)
}
