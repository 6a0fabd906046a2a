//go:build linux

package permission_test

import "testing"

// canaryRound56 is the attack round of stop 42's last review, after every
// merge: three more variants per class of the security issue, the globs
// among them made by brace expansion. None is in an earlier list; each
// does damage when run in the fixture, so each must be refused by both
// scenarios.
var canaryRound56 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x > 9 ))`,
		`x='a[$(rm -f c)]'; : $(( x * 1 ))`,
		`x='a[$(rm -f c)]'; : $(( x ? 1 : 2 ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y nice -n 8 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y timeout -s INT 80 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y stdbuf -oL -eL bash -c :`,
	},
	"3-guards-and-wrappers": {
		`nice -n 8 find . -name c -delete`,
		`timeout -s INT 80 find . -name c -delete`,
		`stdbuf -oL -eL find . -name c -delete`,
	},
	"4-redirections": {
		`unexpand README > .git/config`,
		`fold -w 5 README >> .git/config`,
		`tac README > .git/hooks/pre-rebase`,
	},
	"5-globs": {
		`tee -a {.git,x}/config < README`,
		`truncate -s 0 .g{i,o}t/config`,
		`sed -i 1d .[g]i[t]/config`,
	},
}

func TestCanaryRound56(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound56)
}
