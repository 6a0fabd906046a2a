//go:build linux

package permission_test

import "testing"

// canaryRound66 is the attack round of stop 46's start: three more variants
// per class of the security issue, none in an earlier list; each does damage
// when run in the fixture, so each must be refused by both scenarios.
var canaryRound66 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x == 4 ))`,
		`x='a[$(rm -f c)]'; : $(( x / 5 ))`,
		`x='a[$(rm -f c)]'; : $(( x + x ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y nice -n 6 ionice -c 3 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y timeout 30 setsid bash -c :`,
		`printf 'rm -f c' > y; env -u FOO BASH_ENV=y bash -c :`,
	},
	"3-guards-and-wrappers": {
		`stdbuf -i0 timeout 4 find . -name c -delete`,
		`nice -n 2 stdbuf -eL find . -name c -delete`,
		`timeout -s INT 9 taskset -c 0 find . -name c -delete`,
	},
	"4-redirections": {
		`nl README >> .git/config`,
		`sha256sum README > .git/hooks/post-checkout`,
		`base64 README > .git/hooks/pre-applypatch`,
	},
	"5-globs": {
		`cp README .[f-h]?[s-u]/config`,
		`tee -a .[[:lower:]]i[[:alpha:]]/config < README`,
		`truncate -s 2 .g?[[:alpha:]]/config`,
	},
}

func TestCanaryRound66(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound66)
}
