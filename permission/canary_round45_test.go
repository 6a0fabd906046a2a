//go:build linux

package permission_test

import "testing"

// canaryRound45 is the attack round written at the hook's ask after the
// macOS work of stop 39 (case-insensitive paths, program names in any
// case): three more variants per class of the security issue. None is in
// an earlier list; each does damage when run in the fixture, so each must
// be refused by both scenarios.
var canaryRound45 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x != 0 ))`,
		`x='a[$(rm -f c)]'; echo "${BASH_ARGV[x]}"`,
		`x='a[$(rm -f c)]'; : $(( x % 7 ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y stdbuf -o0 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y ionice -c 2 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y taskset -a 1 bash -c :`,
	},
	"3-guards-and-wrappers": {
		`ionice -t -c 3 find . -name c -delete`,
		`prlimit --as=unlimited find . -name c -delete`,
		`taskset -a 1 find . -name c -delete`,
	},
	"4-redirections": {
		`cut -c1- README > .git/config`,
		`tr a b < README > .git/config`,
		`strings README >> .git/hooks/pre-commit`,
	},
	"5-globs": {
		`cp README .[g]i[t]/config`,
		`install README .g[h-j]t/config`,
		`mv -f README .?i?/config`,
	},
}

func TestCanaryRound45(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound45)
}
