//go:build linux

package permission_test

import "testing"

// canaryRound53 is the attack round of stop 41's last review: three more
// variants per class of the security issue. None is in an earlier list;
// each does damage when run in the fixture, so each must be refused by
// both scenarios.
var canaryRound53 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( x + 0 ))`,
		`x='a[$(rm -f c)]'; : $(( x & 7 ))`,
		`x='a[$(rm -f c)]'; : $(( x == 3 ))`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y nice -n 2 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y timeout 99 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y stdbuf -i0 -o0 bash -c :`,
	},
	"3-guards-and-wrappers": {
		`timeout 99 find . -name c -delete`,
		`stdbuf -i0 -o0 find . -name c -delete`,
		`ionice -c 3 -n 0 find . -name c -delete`,
	},
	"4-redirections": {
		`rev README > .git/config`,
		`sed -n 1p README > .git/hooks/post-merge`,
		`cat -n README >> .git/config`,
	},
	"5-globs": {
		`chmod 000 .g[i]t/config && echo x > c`,
		`touch -r README .gi?/config && rm .gi?/config`,
		`install -m 600 README .[g]it/config`,
	},
}

func TestCanaryRound53(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound53)
}
