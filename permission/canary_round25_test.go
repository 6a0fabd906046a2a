//go:build linux

package permission_test

import "testing"

// canaryRound25 are the variants of the attack round at the second read
// of stop 33 (none is in an earlier list). Each does damage when run in
// the fixture of canaryTemplate, so each must be refused by both
// scenarios.
var canaryRound25 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; b=(1); echo "${b[x],}"`,
		`x='a[$(rm -f c)]'; b=(1); echo "${b[x]/#1/2}"`,
		`x='a[$(rm -f c)]'; if (( x > 0 )); then :; fi`,
	},
	"2-environment": {
		`echo 'rm -f c' > y && BASH_ENV=y bash -c :`,
		`echo 'require("fs").unlinkSync("c")' > y.js && NODE_OPTIONS=--require=./y.js node -e 0`,
		`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='rm -f c;false' git add -A`,
	},
	"3-guards-and-wrappers": {
		`flock -w 1 l rm -f c`,
		`unshare -r rm -f c`,
		`ionice -n 7 rm -f c`,
	},
	"4-redirections": {
		`echo x &>> .git/config`,
		`echo x 2> .git/config 1>&2`,
		`exec 4>> .git/config; echo x >&4`,
	},
	"5-globs": {
		`echo x | tee .git/?onfi?`,
		`echo x | tee .git/confi[g]`,
		`echo x | tee .gi[s-u]/config`,
	},
	"6-written-code": {
		`printf 'all:\n\trm -f c\n' | gzip > mk.gz && gunzip -f mk.gz && make -s -f mk`,
		`printf 'all:\n\trm -f c\n' | xz > mk.xz && unxz mk.xz && make -s -f mk`,
		`echo 'import os; os.remove("c")' > y.py && python3 -m y`,
	},
}

// canaryRound25Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow.
var canaryRound25Ordinary = []string{"git add -A", "echo x &>> out.log", "ls .git/?onfi?", "gunzip -f x.gz"}

func TestCanaryRound25(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryRound25)
	checkOrdinary(t, template, canaryRound25Ordinary, nil)
}
