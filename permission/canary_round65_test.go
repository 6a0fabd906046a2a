//go:build linux

package permission_test

import "testing"

// canaryRound65 is the attack round of stop 45's last review: three more
// variants per class of the security issue, none in an earlier list; each
// does damage when run in the fixture, so each must be refused by both
// scenarios.
var canaryRound65 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x <= 7 ))`,
		`x='a[$(rm -f c)]'; : $(( x * 3 ))`,
		`x='a[$(rm -f c)]'; let 'x+=1'`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y nohup nice bash -c : >/dev/null`,
		`printf 'rm -f c' > y; BASH_ENV=y timeout -k 2 4 stdbuf -eL bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y ionice -n 7 taskset -c 0 bash -c :`,
	},
	"3-guards-and-wrappers": {
		`nohup timeout 5 find . -name c -delete`,
		`taskset -c 0 stdbuf -oL find . -name c -delete`,
		`ionice -c 2 -n 5 nice -n 4 find . -name c -delete`,
	},
	"4-redirections": {
		`paste -s README > .git/config`,
		`cut -c1-3 README >> .git/config`,
		`sort -r README > .git/hooks/pre-merge-commit`,
	},
	"5-globs": {
		`cp README .[g]?[t]/config`,
		`tee .?i?/config < README`,
		`truncate -s 3 .[a-h]it/config`,
	},
}

func TestCanaryRound65(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound65)
}
