//go:build linux

package permission_test

import "testing"

// canaryReviewLoosen are attacks found reviewing what the analysis came to
// understand with read -r, the test command spelled [, arithmetic on
// numbers, set -euo pipefail and a bare env. Each does damage when run in
// the fixture, so each must be refused by both scenarios.
var canaryReviewLoosen = map[string][]string{
	// bash expands a brace or a glob among test's operands before test
	// sees them: {-v,} is -v, and -[v] is -v where a file of that name
	// exists; bash's test -v then evaluates the subscript of its operand.
	"test-expanded-operand": {
		`[ {-v,} 'a[$(rm -f c)]' ]`,
		`test {-v,} 'a[$(rm -f c)]'`,
		`[ {-v,} 'a[$(rm -f c)]' ] && ls`,
		`touch ./-v && [ -[v] 'a[$(rm -f c)]' ]`,
		`touch ./-v && test -? 'a[$(rm -f c)]'`,
		`touch ./-v 'a[$(rm -f c)]' && [ -? a\[* ]`,
	},
	// The same expansion gives any command an option that its checks,
	// reading each word's text, took for an operand.
	"expanded-option": {
		`printf {-v,} 'a[$(rm -f c)]' x`,
		`find . -name c {-delete,}`,
		`sort {-o,} .git/config README`,
		`sort README {-o.git/config,}`,
		`git log {--output=.git/config,}`,
		`touch ./-delete && find . -name c -[d]elete`,
		`find . -name {c,-delete}`,
		`find . -name {c,$'\x2d'delete}`,
		`sort {$'\x2d'o,} .git/config README`,
	},
	// A glob that starts with *, ? or [ matches a file the line made,
	// whose name is an option.
	"glob-matches-an-option-file": {
		`touch ./-delete && find . -name c *lete`,
		`touch ./-delete && find . -name c ?delete`,
		`touch ./-delete && find . -name c [-]delete`,
		`touch -- -delete && find . -name c *lete`,
		`echo > -delete && find . -name c *lete`,
		`mkdir ./-delete && find . -name c *lete`,
	},
	// What read -r takes is data: an option, a subscript, a path with a
	// slash, a prompt string; each use of it stays opaque.
	"plain-read-uses": {
		`read -r o n <<< '-v a[$(rm -f c)]'; printf "$o" "$n" x`,
		`read -r n <<< 'a[$(rm -f c)]'; [ -v "$n" ]`,
		`read -r d <<< .git; cd "$d" && echo x > config`,
		`read -r x <<< '-o.git/config'; sort $x README`,
		`read -r a b <<< '-c core.fsmonitor=rm -f c; false'; git "$a" "$b" status`,
		`read -r x <<< '--output=.git/config'; git log -1 $x`,
		`for f in README; do read -r f <<< c; rm -f "$f"; done`,
		`read -r x <<< '$(rm -f c)'; echo "${x@P}"`,
		`while read -r l; do cd ..; done < README; echo x >> home/.bashrc`,
	},
	// [ and arithmetic on numbers beside redirections, loops and
	// spellings of -v.
	"bracket-and-arithmetic": {
		`(( 1 )) > .git/config`,
		`(( 1 )) 2> .git/config`,
		`cd .git && echo $((1) > config)`,
		`echo $[1+1] > .git/config`,
		`echo x > .git/hooks/pre-commit$((0))`,
		`while [ ! -e home ]; do cd ..; done; echo x >> home/.bashrc`,
		`until [ -e home ]; do cd ..; done; echo x >> home/.bashrc`,
		`[ x -a -v 'a[$(rm -f c)]' ]`,
		`[ '(' -v 'a[$(rm -f c)]' ')' ]`,
		`cd .git/hooks && [ x ] > pre-commit`,
		`[ $'\x2dv' 'a[$(rm -f c)]' ]`,
	},
	// set -euo pipefail and env alone beside redirections and the
	// commands they change the course of.
	"strict-set-and-env": {
		`env > .git/config`,
		`env >> ../home/.bashrc`,
		`set -e > .git/config`,
		`set -euo pipefail 2> .git/config`,
		`set -o pipefail; false | true || rm -f c`,
		`set -e -u -- ; rm -f c`,
		`set -ue; env; echo x > .git/hooks/pre-commit`,
	},
}

// canaryReviewLoosenOrdinary are lines near the attacks that "allow bash"
// allows.
var canaryReviewLoosenOrdinary = []string{
	// read -r
	`while IFS= read -r l; do echo "$l"; done < README`, `read -r a b <<< 'x y' && echo "$b"`,
	`IFS=: read -r u p <<< 'a:b'; echo "$u"`, `cat README | while read -r l; do echo "$l"; done`,
	`read -rs x < README; echo done`, `while read -r f; do cat "$f"; done <<< README`,
	// [ and arithmetic
	"echo $(( 3 * 4 ))", "(( 10 > 2 )) && git status", "echo $[2+2]", "while [ -e missing ]; do ls; done",
	"[ -s README ] && wc -l README", "echo $(( (7 + 1) % 3 ))",
	// set and env (env without a command prints the environment's
	// credentials and asks since round 94; printenv of a named variable
	// stays ordinary)
	"set -euo pipefail; git status", "set -e; set -u; ls", "set +e; ls missing; echo ok",
	"set -o errexit -o nounset; cat README", "printenv PATH | grep -c /", "printenv HOME > /dev/null",
	// tests and expansions near the fixed attacks
	"[ -f README ] && cat README", "[ -d sub ] || ls", "test -e README && wc -l README",
	`[ "a" = "b" ] || echo differ`, "[ ! -e missing ] && echo none",
	"sed -i s/a/b/ *EADME", "cp README sub/{a,b}.txt", "wc -l {README,c}", "ls -{l,a}", "grep -r x {sub,bin}",
	"touch {x,y}.txt", "mkdir {d1,d2}", "sed -i s/a/b/ {README,c}",
	"touch new.txt && ls *.txt", "echo x > out.txt && wc -l *.txt", "tar -cf - README | wc -c", "echo hi > -",
}

func TestCanaryReviewLoosen(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryReviewLoosen)
	checkOrdinary(t, template, canaryReviewLoosenOrdinary, nil)
}
