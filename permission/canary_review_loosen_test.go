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
}

// canaryReviewLoosenOrdinary are lines near the attacks that "allow bash"
// allows.
var canaryReviewLoosenOrdinary = []string{
	"[ -f README ] && cat README", "[ -d sub ] || ls", "test -e README && wc -l README",
	`[ "a" = "b" ] || echo differ`, "[ ! -e missing ] && echo none",
	"sed -i s/a/b/ *EADME", "cp README sub/{a,b}.txt", "wc -l {README,c}", "ls -{l,a}", "grep -r x {sub,bin}",
	"touch new.txt && ls *.txt", "echo x > out.txt && wc -l *.txt", "tar -cf - README | wc -c", "echo hi > -",
}

func TestCanaryReviewLoosen(t *testing.T) {
	template := checkCanaryRound(t, canaryReviewLoosen)
	checkOrdinary(t, template, canaryReviewLoosenOrdinary, nil)
}
