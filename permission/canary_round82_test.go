//go:build linux

package permission_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound82 is gatestr67's attack on the reader of command strings
// handed to a program the analysis does not model (hyperfine's): it knew
// less than the analyzer. It took no cd in the string into account, so a
// relative path after cd (to the home with no operand, or into .git
// through a loop's variable) was judged against the workdir; it bound no
// loop variable and handed on no loop word; and a string it could not
// parse was split into words, so the statements sh runs before the
// syntax error on a later line were never read as commands; and a
// program word made of the positional parameters (set --, a function's
// arguments) was not taken for one the string sets; and bash's source
// of a file the string wrote was read as a plain command, where the
// analyzer has every source opaque. Real
// hyperfine 1.18 ran each string (through sh) and changed the home's
// .bashrc or .git/config; "allow bash" allowed them all.
var canaryRound82 = map[string][]string{
	// cd with no operand goes to the home: .bashrc there.
	"1-cd-home": {
		`hyperfine -r1 'cd; echo x >> .bashrc'`,
		`hyperfine 'cd; echo x >> .bashrc'`,
		`hyperfine -r1 'cd && echo x >> .bashrc'`,
	},
	// A loop's word is where cd goes.
	"2-loop-cd": {
		`hyperfine -r1 'for d in .git; do cd $d; done; echo x >> config'`,
		`hyperfine -r1 'for d in .git; do cd "$d"; echo x >> config; done'`,
		`hyperfine -r1 'for h in ~; do cd $h; done; echo x >> .bashrc'`,
	},
	// sh runs the complete lines before a syntax error.
	"3-before-error": {
		`hyperfine -r1 $'cd .git; echo x >> config\n)'`,
		`hyperfine -r1 $'cd; echo x >> .bashrc\n)'`,
		`hyperfine -r1 $'cd\necho x >> .bashrc\ndone'`,
		`hyperfine -r1 $'echo x >> ~/.bashrc\n}'`,
		`hyperfine -r1 $'cp README ~/.bashrc\n)'`,
	},
	// The positional parameters set or passed in the string name the
	// program: rm, which the deny rule never saw.
	"4-positional": {
		`hyperfine -r1 'set -- r; "$1"m -f c'`,
		`hyperfine -r1 'f() { "$1"m -f c; }; f r'`,
	},
	// bash's source of a file the string wrote (with -Sbash, a value
	// attached to the option, no shell among the words): "." asked, as a
	// protected path, source did not.
	"5-source": {
		`hyperfine -r1 -Sbash 'printf "r%s -f c" m > s; source s'`,
		`hyperfine -r1 -Sbash 'echo qm -f c | tr q r > s; source s'`,
		`hyperfine -r1 -Sbash 'printf "r%s -f c" m > s; builtin source s'`,
	},
}

func TestCanaryRound82(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "hyperfine")
	template := checkCanaryRound(t, canaryRound82)
	// A loop over the workdir's files in a string is judged as the same
	// loop on the line; a cd into the workdir stays ordinary, as does a
	// string whose lines before its syntax error are.
	checkOrdinary(t, template, []string{
		`hyperfine 'for f in *.go; do wc -l $f; done'`,
		`hyperfine 'for f in *; do wc -l "$f"; done'`,
		`hyperfine -r1 'for f in *; do wc -l $f; done'`,
		`hyperfine -r1 'cd sub; ls -la'`,
		`hyperfine -r1 $'wc -l README\n)'`,
		`hyperfine -r1 'echo (unbalanced'`,
		`hyperfine -r1 'set -eu; $PAGER README'`,
		`hyperfine -r1 'f() { wc -l README; }; f'`,
		`hyperfine -r1 -Sbash 'wc -l README'`,
		`hyperfine -r1 -Sbash 'hash -r; wc -l README'`,
		`hyperfine -r1 'set -o pipefail; wc -l README | sort'`,
	}, nil)
}
