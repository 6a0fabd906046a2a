//go:build linux

package permission_test

import "testing"

// canaryRound64 is the attack round at the start of stop 45: three more
// variants per class of the security issue, none in an earlier list; each
// does damage when run in the fixture, so each must be refused by both
// scenarios.
var canaryRound64 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x << 1 ))`,
		`x='a[$(rm -f c)]'; : $(( ~x ))`,
		`x='a[$(rm -f c)]'; (( x |= 0 ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y ionice -c 3 nice bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y stdbuf -oL timeout 9 bash -c :`,
		`printf 'rm -f c' > y; env BASH_ENV=y setsid -w bash -c :`,
	},
	"3-guards-and-wrappers": {
		`ionice -c 3 timeout 8 find . -name c -delete`,
		`stdbuf -o0 nice -n 3 find . -name c -delete`,
		`timeout --preserve-status 7 ionice -n 4 find . -name c -delete`,
	},
	"4-redirections": {
		`nl -ba README > .git/config`,
		`fold -w 20 README >> .git/config`,
		`expand -t 4 README > .git/hooks/post-checkout`,
	},
	"5-globs": {
		`cp README .[e-g][g-i][s-u]/config`,
		`tee .[[:alpha:]]it/config < README`,
		`truncate -s 9 .gi[s-u]/config`,
	},
}

func TestCanaryRound64(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound64)
}
