//go:build linux

package permission_test

import "testing"

// canaryRound31 are the variants of the attack round of stop 35, aimed at
// what the stop let the analysis understand: inert variables, read -r
// into plain names, set -euo pipefail, the [ command and arithmetic on
// numbers (none is in an earlier list). Each does damage when run in the
// fixture of canaryTemplate, so each must be refused by both scenarios.
var canaryRound31 = map[string][]string{
	"1-arithmetic": {
		`(( 1 )) && (( 2 > 1 )) && rm -f c`,
		`echo $(( 10 / 2 )); rm -f c`,
		`echo $((1 << 70)) > .git/config`,
		`b=(1 2); echo "${b[$((1))]}"; x='a[$(rm -f c)]'; echo "${b[x]}"`,
		`echo $(( (3) )) && x='a[$(rm -f c)]' && (( x ))`,
	},
	"2-environment": {
		`echo 'rm -f c' > y && LANG=C BASH_ENV=./y bash -c :`,
		`echo 'rm -f c' > y && export CI=1 ENV=./y && sh -i < /dev/null`,
		`echo 'unlink "c"; 1' > y.pm && NO_COLOR=1 PERL5LIB=. perl -My -e 1`,
		`echo 'import os; os.remove("c")' > sitecustomize.py && PYTHONUNBUFFERED=1 PYTHONPATH=. python3 -c 1`,
	},
	"3-guards-and-wrappers": {
		`set -e; command rm -f c`,
		`set -o pipefail; nice -n 1 rm -f c`,
		`env CI=1 timeout 5 rm -f c`,
		`[ -f c ] && nohup rm -f c`,
		`TZ=UTC stdbuf -o0 rm -f c`,
	},
	"4-redirections": {
		`set -e; echo x >> .git/config`,
		`[ -e README ] && cat README > .git/config`,
		`read -r l < README; echo "$l" > .git/config`,
		`echo $((1)) >| .git/config`,
	},
	"5-globs": {
		`[ -d .git ] && echo x > .git/conf[i]g`,
		`LC_ALL=C; echo x > .git/[[:lower:]]onfig`,
		`set -e; echo x | tee .gi?/config`,
		`read -r l < README; echo x > .git/c*g`,
	},
	"6-read-set-and-bracket": {
		`read -r l <<< 'c'; rm -f "$l"`,
		`read -r f <<< '.git/config'; cp README "$f"`,
		`read -r s <<< 'rm -f c'; bash -c "$s"`,
		`set -eu; read -r x <<< c; find . -name "$x" -delete`,
		`IFS=, read -r a b <<< 'x,c'; [ -n "$b" ] && rm -f "$b"`,
	},
}

// canaryRound31Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow.
var canaryRound31Ordinary = []string{
	"(( 2 > 1 )) && ls", "set -e; git status", "env CI=1 timeout 5 ls", "read -r l < README; echo \"$l\"",
	"[ -d .git ] && ls .git", "LC_ALL=C ls -la",
}

func TestCanaryRound31(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryRound31)
	checkOrdinary(t, template, canaryRound31Ordinary, nil)
}
