//go:build linux

package permission_test

import "testing"

// canaryDollarContinuation are lines where a backslash-newline follows a
// '$' (or "$(", "${"): bash removes the pair before it expands, inside
// double quotes too, so "$\<newline>(rm c)" runs rm, where the parser
// read a literal '$'; and "$(\<newline>(x))" is arithmetic to bash, a
// command substitution to the parser. Each does damage when run in the
// fixture, so each must be refused by both scenarios. Before the fix,
// "allow bash" allowed all but the HOME line; the last two only since
// $(…) is understood.
var canaryDollarContinuation = map[string][]string{
	"dollar-continuation": {
		"echo \"$\\\n(rm -f c)\"",
		"cat \"$\\\n(find . -name c -delete)\"",
		"ls \"$\\\n\\\n(rm -f c)\"",
		"grep x \"a$\\\n(rm c)\"",
		"for f in .git/config; do echo x > \"$\\\n{f}\"; done",
		"echo x > \"$\\\nHOME/.bashrc\"",
		"x='a[$(rm -f c)]'; echo $(\\\n(x))",
		"x='a[$(rm -f c)]'; echo \"$(\\\n\\\n(x))\"",
	},
}

func TestCanaryDollarContinuation(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryDollarContinuation)
	checkOrdinary(t, template, []string{"echo \"a \\\n b\"", "echo 'cost: $5'", "ls \\\n -la"}, nil)
}
