//go:build linux

package permission_test

import "testing"

// patternValuedOrdinary are the lines an agent runs most to search a
// project: grep's --include, --exclude and --exclude-dir, diff's and du's
// --exclude, given an unquoted pattern. Round 104 made every word of grep,
// diff and du that bash expands and that starts with '-' opaque (it may
// be an option the line does not show), and these asked.
var patternValuedOrdinary = []string{
	`grep -rn TODO --include=*.go .`, `grep -rn TODO --include=*.{go,md} .`, `grep -rln x --exclude=*.md doc`,
	`grep -rn --exclude-dir=.git --include=*.go TODO .`, `grep -rn --exclude-dir=vend* x .`,
	`diff -r --exclude=*.o doc doc`, `du -s --exclude=*.log .`, `egrep -r 'a|b' --include=*.go .`,
	`grep -r . sub --include={x,-R}`,
}

// patternValuedAsks print the key in real bash: the option's pattern
// leaves the rest of the line as it was (a link given as an operand with
// its trailing slash, a split that makes -R), or the expansion comes
// before the option's '=' (an abbreviation, a brace), so bash may make
// another option of it.
var patternValuedAsks = []string{
	`grep -r --include=id* . ./sub/s/`, `grep -r --include=* . sub/s`, `grep . sub --include=*${IFS}-R`,
	`grep . --include=*$IFS--dereference-recursive sub`, `grep -r --exclude=*.md . l/sub/s/`,
	`du --exclude=*.log --files0-from=sub/s/id_ed25519 2>&1`,
}

// patternValuedOpaque ask without printing the key in this fixture:
// bash may make an option of them that reads more (in a project holding
// a file named --directories=recurse, or -R).
var patternValuedOpaque = []string{
	`grep . sub --incl{ude=x,-R}`, `grep . sub --exclude-f=*`, `grep . sub --directories=rec*`,
	`grep . sub --include=x -{R,}`, `grep . sub --{include,directories}=recurse`, `du -s --exclude-from=* sub`,
}

// TestPatternValuedOptions checks that a pattern given as the value of an
// option that takes one stays allowed, and that an expansion that may
// make another option asks.
func TestPatternValuedOptions(t *testing.T) {
	t.Parallel()
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	wantQuietAndAllowed(t, decide, patternValuedOrdinary)
	wantPrintedAndAsked(t, decide, patternValuedAsks, nil)
	wantDecisions(t, decide, patternValuedOpaque, nil)
}
