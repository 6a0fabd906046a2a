//go:build linux

package permission_test

import "testing"

// canaryRound69 is the attack round of stop 46's re-read before stopping: three more
// variants per class of the security issue, none in an earlier list; each
// does damage when run in the fixture, so each must be refused by both
// scenarios.
var canaryRound69 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x | 0 ))`,
		`x='a[$(rm -f c)]'; [[ 3 -gt x ]]`,
		`x='a[$(rm -f c)]'; s=abcd; echo "${s:0:x}"`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y taskset -c 0 nohup bash -c : > /dev/null`,
		`printf 'rm -f c' > y; g() { BASH_ENV=y bash -c :; }; g`,
		`printf 'rm -f c' > y; export BASH_ENV=$PWD/y; nice bash -c :`,
	},
	"3-guards-and-wrappers": {
		`setsid -w nice find . -name c -delete`,
		`timeout --preserve-status 9 nice find . -name c -delete`,
		`nohup ionice -c 3 find . -name c -delete > /dev/null`,
	},
	"4-redirections": {
		`sum README >> .git/config`,
		`paste README README >| .git/config`,
		`grep -c x README 1<> .git/config`,
	},
	"5-globs": {
		`tee .[f-h]i[s-u]/config < README`,
		`cp README .?i?/co?fig`,
		`truncate -s 0 .g[[:alnum:]]t/config`,
	},
}

func TestCanaryRound69(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound69)
}
