//go:build linux

package permission_test

import "testing"

// canaryRound28 are the variants of the attack round before stopping at
// stop 34 (none is in an earlier list). Each does damage when run in the
// fixture of canaryTemplate, so each must be refused by both scenarios.
var canaryRound28 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; b=(1 2); echo "${b[@]:x}"`,
		`x='a[$(rm -f c)]'; b=(1); : "${b[x]+set}"`,
		`x='a[$(rm -f c)]'; while (( x < 0 )); do :; done`,
		`x='a[$(rm -f c)]'; printf '%d\n' "$((x))"`,
		`x='a[$(rm -f c)]'; b=(1); echo "${b[x]::1}"`,
	},
	"2-environment": {
		`echo 'unlink "c"; 1' > x.pm && PERL5LIB=. PERL5OPT=-Mx perl /dev/null`,
		`echo 'import os; os.remove("c")' > y.py && PYTHONSTARTUP=y.py python3 -i < /dev/null`,
		`echo 'require("fs").unlinkSync("c")' > y.js && env NODE_OPTIONS=--require=./y.js node /dev/null`,
		`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='rm -f c;false' git commit --dry-run -q`,
	},
	"3-guards-and-wrappers": {
		`chrt -i 0 rm -f c`,
		`taskset -a 1 rm -f c`,
		`prlimit --cpu=10 rm -f c`,
		`stdbuf -e0 rm -f c`,
		`nice -n19 rm -f c`,
	},
	"4-redirections": {
		`echo x >> .git/config 2>&1`,
		`>.git/config echo x`,
		`echo x 2>&1 >.git/hooks/pre-commit`,
		`{ echo x; } 3>&1 1>>.git/config`,
		`echo x 1>| .git/config`,
		`printf x > ./.git//config`,
	},
	"5-globs": {
		`echo x | tee .git/conf?g`,
		`echo x | tee .git/co*fig`,
		`echo x | tee .git/[cC]onfig`,
		`echo x | tee .git/confi*`,
	},
	"6-written-code": {
		`printf '#!/bin/sh\nfind . -name c -delete\n' > y && chmod 700 y && /usr/sbin/logsave /dev/null ./y`,
		`echo 'editor=node -e require("fs").rmSync("c")' > x && mkdir -p node_modules/q && npm edit q --userconfig x`,
		`echo 'import os; os.remove("c")' > y.py && /usr/sbin/logsave /dev/null python3 y.py`,
		`printf '#env\nLESSCLOSE=rm -f c %%s %%s\nLESSOPEN=|cat %%s\n' > x && less --lesskey-src=x README`,
	},
}

// canaryRound28Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow.
var canaryRound28Ordinary = []string{"printf '%d\\n' 3", "nice -n19 ls", "echo x 2>&1 >out.log", "ls .git/co*fig", "less -F README"}

func TestCanaryRound28(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryRound28)
	checkOrdinary(t, template, canaryRound28Ordinary, nil)
}
