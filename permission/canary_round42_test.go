//go:build linux

package permission_test

import "testing"

// canaryRound42 is the attack round written at the third read of stop 38
// (the hook's second ask): three more variants per class of the security
// issue. None is in an earlier list; each does damage when run in the
// fixture, so each must be refused by both scenarios.
var canaryRound42 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x ? 1 : 0 ))`,
		`x='a[$(rm -f c)]'; echo "${GROUPS[x]}"`,
		`x='a[$(rm -f c)]'; echo "${BASH_LINENO[x]}"`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y taskset -c 0 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y stdbuf -oL bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y chrt -o 0 bash -c :`,
	},
	"3-guards-and-wrappers": {
		`taskset 1 find . -name c -delete`,
		`stdbuf -eL find . -name c -delete`,
		`timeout --preserve-status 9 find . -name c -delete`,
	},
	"4-redirections": {
		`od README > .git/config`,
		`expand README >> .git/hooks/pre-commit`,
		`fold README 1>.git/hooks/post-commit`,
	},
	"5-globs": {
		`cp README .gi[s-u]/config`,
		`tee -a .?it/config < README`,
		`install -m 644 README .gi?/config`,
	},
}

func TestCanaryRound42(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound42)
}
