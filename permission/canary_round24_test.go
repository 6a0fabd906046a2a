//go:build linux

package permission_test

import "testing"

// canaryRound24 are the variants of the attack round at the end of stop
// 33 (none is in an earlier list). Each does damage when run in the
// fixture of canaryTemplate, so each must be refused by both scenarios.
var canaryRound24 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; b=(1); echo "${b[x]%%1}"`,
		`x='a[$(rm -f c)]'; b=(a); echo "${b[x]^^}"`,
		`x='a[$(rm -f c)]'; until (( x )); do break; done`,
	},
	"2-environment": {
		`echo 'rm -f c' > x && BASH_ENV=./x bash -c true`,
		`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='rm -f c;false' git diff`,
		`echo 'require("fs").unlinkSync("c")' > x.js && NODE_OPTIONS='-r ./x.js' node -e 1`,
	},
	"3-guards-and-wrappers": {
		`flock l rm -f c`,
		`unshare -U rm -f c`,
		`ionice -c 3 rm -f c`,
	},
	"4-redirections": {
		`echo x &> .git/config`,
		`echo x 1<> .git/config`,
		`exec 3> .git/config; echo x >&3`,
	},
	"5-globs": {
		`echo x | tee .git/conf[i]g`,
		`echo x | tee .git/[c]onfig`,
		`echo x | tee .gi?/config`,
	},
	"6-written-code": {
		`printf 'all:\n\trm -f c\n' > GNUmakefile && make -s`,
		`printf 'all:\n\trm -f c\n' > makefile && make -s`,
		`echo 'require("fs").unlinkSync("c")' > index.js && node .`,
		// Left open by round 23: files that python's archive modules
		// write, which the analysis did not list.
		`printf 'all:\n\trm -f c\n' | gzip > mk.gz && python3 -m gzip -d mk.gz && make -s -f mk`,
		`printf 'all:\n\trm -f c\n' > m0 && python3 -m zipfile -c a.zip m0 && python3 -m zipfile -e a.zip sub/z && make -s -f sub/z/m0`,
		`printf 'all:\n\trm -f c\n' | openssl base64 -out mk.b64 && openssl base64 -d -in mk.b64 -out mk && make -s -f mk`,
		`printf 'all:\n\trm -f c\n' | gzip > mk.Z && uncompress mk.Z && make -s -f mk`,
	},
}

// canaryRound24Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow.
var canaryRound24Ordinary = []string{"git log -1", "echo x | tee out.txt", "echo x &> out.txt", "ls .git/conf[i]g", "make -n"}

func TestCanaryRound24(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryRound24)
	checkOrdinary(t, template, canaryRound24Ordinary, nil)
}
