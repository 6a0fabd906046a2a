//go:build linux

package permission_test

import "testing"

// canaryRound59 is the attack round of stop 43's last review, at its
// final commit: three more variants per class of the security issue, none
// in an earlier list; each does damage when run in the fixture, so each
// must be refused by both scenarios.
var canaryRound59 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x % 9 ))`,
		`x='a[$(rm -f c)]'; : $(( x <= 6 ))`,
		`x='a[$(rm -f c)]'; : $(( x + 11 ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y nice -n 17 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y timeout -s TERM 25 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y taskset -c 1 nice bash -c :`,
	},
	"3-guards-and-wrappers": {
		`nice -n 17 find . -name c -delete`,
		`timeout -s TERM 25 find . -name c -delete`,
		`taskset -c 1 nice find . -name c -delete`,
	},
	"4-redirections": {
		`tail -n 3 README > .git/config`,
		`cut -c 1-3 README >> .git/config`,
		`paste -s README > .git/hooks/pre-merge-commit`,
	},
	"5-globs": {
		`cp README .[g]i?/config`,
		`tee .gi[st]/config < README`,
		`truncate -s 1 .g?[t]/config`,
	},
}

func TestCanaryRound59(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound59)
}
