//go:build linux

package permission_test

import "testing"

// canaryRound68 is the attack round of stop 46's last review: three more
// variants per class of the security issue, none in an earlier list; each
// does damage when run in the fixture, so each must be refused by both
// scenarios.
var canaryRound68 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; : $(( 1, x ))`,
		`x='a[$(rm -f c)]'; (( x > 0 )) || :`,
		`x='a[$(rm -f c)]'; a=(1 2); echo ${a[@]:x}`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=./y prlimit --cpu=60 bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y nohup setsid bash -c : > /dev/null`,
		`printf 'rm -f c' > y; (export BASH_ENV=y; bash -c :)`,
	},
	"3-guards-and-wrappers": {
		`nohup setpriv find . -name c -delete`,
		`prlimit --cpu=60 find . -name c -delete`,
		`flock -n lk find . -name c -delete`,
	},
	"4-redirections": {
		`cksum README >> .git/config`,
		`printf x >| .git/config`,
		`md5sum README 1<> .git/config`,
	},
	"5-globs": {
		`tee .[e-h]it/config < README`,
		`cp README .gi[s-u]/c[n-p]nfig`,
		`truncate -s 1 .?it/conf?g`,
	},
}

func TestCanaryRound68(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound68)
}
