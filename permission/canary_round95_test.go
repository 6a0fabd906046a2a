//go:build linux

package permission_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound95 holds command strings whose program runs code from the
// directory the string's cd went to (gatestr69): the string reader
// analyzed each command of a string as a guess (see guessCommand), which
// drops its accesses and takes a command given no operand (make, ninja) as
// doing nothing, so the build file or conftest.py the line wrote there was
// never checked as code the line runs. Each removed the canary in real
// bash under bwrap and was allowed by "allow bash" before the string's
// commands went through the analyzer's own command model.
var canaryRound95 = map[string][]string{
	"1-build-file-where-the-string-cd-went": {
		`printf 'R=r\nall:\n\t$(R)m -f ../c\n' > sub/Makefile && hyperfine -r1 'cd sub && make'`,
		`printf 'R=r\nall:\n\t$(R)m -f ../c\n' > sub/Makefile && hyperfine -r1 'cd sub && command make'`,
		`printf 'R=r\nall:\n\t$(R)m -f ../c\n' > sub/Makefile && hyperfine -r1 -Sbash 'pushd sub && make'`,
		`mkdir -p sub/d && printf 'R=r\nall:\n\t$(R)m -f ../../c\n' > sub/d/Makefile && hyperfine -r1 'cd sub && cd d && make'`,
		`printf 'rule r\n  command = r$${x}m -f ../c\nbuild o: r\n' > sub/build.ninja && hyperfine -r1 'cd sub && ninja'`,
	},
	"2-conftest-where-the-string-cd-went": {
		`printf 'import os\nos.remove("../c")\n' > sub/conftest.py && hyperfine -i -r1 'cd sub && pytest'`,
		`printf 'import os\nos.remove("../c")\n' > sub/conftest.py && hyperfine -i -r1 'cd sub && pytest -q -p no:cacheprovider'`,
	},
	// The same behind a wrapper: the guessed wrapper's command was
	// guessed in turn, its accesses dropped with it.
	"3-wrapped-build-tool-where-the-string-cd-went": {
		`printf 'R=r\nall:\n\t$(R)m -f ../c\n' > sub/Makefile && hyperfine -r1 'cd sub && timeout 5 make'`,
		`printf 'R=r\nall:\n\t$(R)m -f ../c\n' > sub/Makefile && hyperfine -r1 'cd sub && env make'`,
		`printf 'R=r\nall:\n\t$(R)m -f ../c\n' > sub/Makefile && hyperfine -r1 'cd sub && nice make'`,
		`printf 'import os\nos.remove("../c")\n' > sub/conftest.py && hyperfine -i -r1 'cd sub && timeout 9 pytest'`,
	},
}

func TestCanaryRound95(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "hyperfine", "make", "ninja", "pytest")
	template := checkCanaryRound(t, canaryRound95)
	// Strings that cd and run the project's own commands stay ordinary.
	checkOrdinary(t, template, []string{
		`hyperfine -r1 'cd sub && ls'`,
		`hyperfine -r1 'cd sub && wc -l ../README'`,
		`hyperfine -r1 'cd sub && cd .. && wc -l README'`,
		`hyperfine -r1 'make -C sub -n'`,
		`hyperfine -r1 'cd sub && make -n'`,
		`hyperfine -r1 'cd sub && pytest --version'`,
		`hyperfine -r1 'sleep 0.1'`,
		`hyperfine -r1 'cat README | wc -l'`,
	}, nil)
}
