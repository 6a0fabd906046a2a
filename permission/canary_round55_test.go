//go:build linux

package permission_test

import "testing"

// canaryRound55 is the attack round of stop 42 after the gate merges
// (gatefix, redteam54): three more variants per class of the security
// issue. None is in an earlier list; each does damage when run in the
// fixture, so each must be refused by both scenarios.
var canaryRound55 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x >= 1 ))`,
		`x='a[$(rm -f c)]'; : $(( -x ))`,
		`x='a[$(rm -f c)]'; : $(( x < 4 ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y nice -n 5 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y timeout -s TERM 70 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y stdbuf -e0 -o0 bash -c :`,
	},
	"3-guards-and-wrappers": {
		`timeout -s TERM 70 find . -name c -delete`,
		`nice -n 6 find . -name c -delete`,
		`stdbuf -o0 -e0 find . -name c -delete`,
	},
	"4-redirections": {
		`paste README > .git/config`,
		`fmt README >> .git/config`,
		`expand README > .git/hooks/pre-push`,
	},
	"5-globs": {
		`sed -i d .gi?/config`,
		`tee -a .g*t/config < README`,
		`truncate -s 1 .gi[t]/conf*`,
	},
}

func TestCanaryRound55(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound55)
}
