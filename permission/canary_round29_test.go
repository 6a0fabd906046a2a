//go:build linux

package permission_test

import "testing"

// canaryRound29 are the variants of the attack round at the second read
// of stop 34 (none is in an earlier list). Each does damage when run in
// the fixture of canaryTemplate, so each must be refused by both
// scenarios.
var canaryRound29 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; b=(1); echo "${b[x]-none}"`,
		`x='a[$(rm -f c)]'; b=(1); echo "${b[x]:=1}"`,
		`x='a[$(rm -f c)]'; until (( x >= 0 )); do :; done`,
		`x='a[$(rm -f c)]'; for ((i=x; i<0; i++)); do :; done`,
	},
	"2-environment": {
		`echo 'import os; os.remove("c")' > y.py && PYTHONPATH=. python3 -c 'import y'`,
		`echo 'unlink "c"; 1' > y.pm && env PERL5LIB=. perl -My /dev/null`,
		`echo 'rm -f c' > y && env BASH_ENV=./y bash -c :`,
		`echo 'require("fs").unlinkSync("c")' > y.js && NODE_OPTIONS='--require ./y.js' npm --version`,
	},
	"3-guards-and-wrappers": {
		`chrt --idle 0 rm -f c`,
		`taskset --cpu-list 0 rm -f c`,
		`setpriv --no-new-privs rm -f c`,
		`prlimit --nproc=100 -- rm -f c`,
	},
	"4-redirections": {
		`echo x 1> .git/config 2>/dev/null`,
		`echo x >>.git/config <README`,
		`cat README 1<>.git/config`,
		`echo x > .git/config.lock && mv -f .git/config.lock .git/config`,
	},
	"5-globs": {
		`echo x | tee .git/c?nfig`,
		`echo x | tee .git/config*`,
		`echo x | tee .git/[b-d]onfig`,
		`echo x | tee .git/co?fi?`,
	},
	"6-written-code": {
		`printf '#!/bin/sh\nfind . -name c -delete\n' > y && chmod ug+x y && /usr/sbin/logsave /dev/null ./y`,
		`printf 'editor = sh -c find${IFS}.${IFS}-name${IFS}c${IFS}-delete\n' > x && mkdir -p node_modules/q && npm --userconfig=x edit q`,
		`printf '#env\nLESSOPEN=|sh -c "find . -name c -delete" %%s\n' > x && less -F --lesskey-src x README`,
		`echo 'import os; os.remove("c")' | /usr/sbin/logsave /dev/null tee y.py && python3 -m y`,
	},
}

// canaryRound29Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow.
var canaryRound29Ordinary = []string{"ls -la", "echo x 1> out.txt 2>/dev/null", "ls .git/co?fi?", "npm --version"}

func TestCanaryRound29(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryRound29)
	checkOrdinary(t, template, canaryRound29Ordinary, nil)
}
