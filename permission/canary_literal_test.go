//go:build linux

package permission_test

import "testing"

// canaryLiteral are attacks behind the test command spelled [, which the
// analysis understands as it understands test (a lone '[' is no glob to
// bash), beside arithmetic on numbers only, which evaluates nothing but
// itself, and beside set -euo pipefail and a bare env, which run nothing. Each does damage when run in the fixture, so each must be
// refused by both scenarios.
var canaryLiteral = map[string][]string{
	"test-bracket": {
		`[ -e c ] && rm -f c`,
		`[ -f README ] && find . -name c -delete`,
		`[ -d .git ] && echo x > .git/config`,
		`[ -n x ] && echo x > .git/[c]onfig`,
		`[ -s README ] || [ -e c ] && rm c`,
	},
	"strict-set-and-bare-env": {
		`set -euo pipefail; rm -f c`,
		`set -e; echo x > .git/config`,
		`set -o pipefail; find . -name c -delete`,
		`set -e; echo 'rm -f c' > y && bash y`,
		`env > /dev/null; rm -f c`,
		`set +u -o errexit && printf 'rm -f c' | bash`,
	},
	"literal-arithmetic": {
		`echo $((1+2)) && rm -f c`,
		`echo $((1)) > .git/config`,
		`(( 2 > 1 )) && find . -name c -delete`,
		`x='a[$(rm -f c)]'; echo $((1 + x))`,
		`echo $(( 1 + $(rm -f c) 0 ))`,
	},
}

// canaryLiteralOrdinary are lines with [ and with arithmetic on numbers
// that "allow bash" allows.
var canaryLiteralOrdinary = []string{
	"[ -d .git ] && git status", "[ -f README ] || echo missing", "[ -d node_modules ] || ls",
	"echo $((1+2))", "echo $(( (60 * 5) / 2 ))", "(( 2 > 1 )) && ls",
	// env without a command prints the environment's credentials and
	// asks since round 94; printenv of a named variable stays ordinary.
	"set -euo pipefail; git status", "set -e; ls -la", "printenv PATH | sort",
}

func TestCanaryLiteral(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryLiteral)
	checkOrdinary(t, template, canaryLiteralOrdinary, nil)
}
