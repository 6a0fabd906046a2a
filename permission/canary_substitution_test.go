//go:build linux

package permission_test

import "testing"

// canarySubstitution are attacks beside command substitutions, whose value
// the analysis takes as a word only known when it runs (as it takes a
// variable's) and whose commands it checks as the line's own. Each does
// damage when run in the fixture, so each must be refused by both
// scenarios.
var canarySubstitution = map[string][]string{
	// The commands inside run, whatever the word is used for.
	"substitution-runs": {
		`echo "$(find . -name c -delete)"`,
		`ls "$(echo x > .git/config)"`,
		`wc -l $(git ls-files) "$(cd .git && echo x > config)"`,
		`for f in $(ls); do echo "$f"; done; echo "$(rm -f c)"`,
		`echo "Commit: $(git log -1 --format=%H > .git/hooks/pre-commit)"`,
		`grep -l x $(echo "$(echo "$(rm c)")")`,
		`cat $(printf README) "$(find . -name c -exec rm {} +)"`,
	},
	// What a substitution prints is a command name, a redirection
	// target, an option or a script.
	"substitution-value": {
		`$(printf rm) -f c`,
		`echo x > "$(printf .git/config)"`,
		`for f in $(printf -- -delete); do find . -name c $f; done`,
		`for p in "$(printf rm)"; do $p c; done`,
		`echo x >> $(printf .git/)config`,
		`printf $(printf -- -v) 'a[$(rm -f c)]' x`,
		`test "$(printf -- -v)" 'a[$(rm -f c)]'`,
		`bash -c "$(printf 'rm -f c')"`,
		`eval "$(printf 'rm -f c')"`,
		`echo "$(printf 'rm -f c')" | bash`,
		`bash <<< "$(printf 'rm -f c')"`,
		`env "$(printf BASH_ENV=y)" bash -c : "$(printf 'rm -f c' > y)"`,
	},
	// A file the substitution writes is run after it, although the walk
	// sees the command that holds it first (its here-string is expanded
	// before the command runs).
	"substitution-order": {
		`node "$(printf 'require("fs").rmSync("c")' > y.js; printf y.js)"`,
		`ls $(printf 'require("fs").rmSync("c")' > y.js) && node y.js`,
		`echo "$(printf 'rm -f c' > y; chmod +x y)" && ./y`,
		`echo "$(ln -s .git g)" > g/config`,
		`for f in $(printf 'all:\n\trm -f c\n' > Makefile); do :; done; make -s`,
		`node y.js <<< "$(printf 'require("fs").rmSync("c")' > y.js)"`,
		`make -s <<< "$(printf 'all:\n\trm -f c\n' > Makefile)"`,
		`cat - y.js <<< "$(printf 'require("fs").rmSync("c")' > y.js)" > /dev/null; node y.js`,
		"echo `rm -f c`",
		"echo \"`printf 'x' > .git/config`\"",
	},
}

// canarySubstitutionOrdinary are lines with command substitutions that
// "allow bash" allows: their commands are allowed, and their values go
// only where any value may.
var canarySubstitutionOrdinary = []string{
	`for f in $(git ls-files); do wc -l "$f"; done`,
	`echo "Commit: $(git rev-parse HEAD)"`,
	`wc -l $(find . -name '*.md')`,
	`grep -n x $(git ls-files README)`,
	`for i in $(seq 1 3); do echo "$i"; done`,
	`cat $(ls README)`,
	`ls -la "$(dirname "$(pwd)")"`,
	`echo $(echo $(echo hi))`,
	`[[ "$(git status --porcelain)" == "" ]] && echo clean`,
}

func TestCanaryCommandSubstitution(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canarySubstitution)
	checkOrdinary(t, template, canarySubstitutionOrdinary, nil)
}
