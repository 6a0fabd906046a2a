//go:build linux

package permission_test

import "testing"

// canaryRound48 is the attack round written at the hook's ask after stop
// 40's gate changes (pip in a virtual environment, the running system,
// full case folding): three more variants per class of the security
// issue. None is in an earlier list; each does damage when run in the
// fixture, so each must be refused by both scenarios.
var canaryRound48 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x * 2 ))`,
		`x='a[$(rm -f c)]'; : $(( !x ))`,
		`x='a[$(rm -f c)]'; : $(( 1 + x ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y nice -n 3 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y stdbuf -i0 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y prlimit --nofile=512 bash -c :`,
	},
	"3-guards-and-wrappers": {
		`stdbuf -i0 find . -name c -delete`,
		`prlimit --nofile=512 find . -name c -delete`,
		`flock -x README find . -name c -delete`,
	},
	"4-redirections": {
		`nl -ba README > .git/config`,
		`grep -v zzz README > .git/hooks/pre-push`,
		`awk 1 README >> .git/hooks/post-checkout`,
	},
	"5-globs": {
		`install README .gi?/config`,
		`tee -a .[g]it/config < README`,
		`cat README > .g?t/config`,
	},
}

func TestCanaryRound48(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound48)
}
