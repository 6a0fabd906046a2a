//go:build linux

package permission_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound104Options are round 104's lines where bash's splitting of
// an unknown word makes an option of a reader the gate lets take such a
// word: grep given -R (or -r, -d recurse, --dereference-recursive) reads
// the links under sub and l2 (or the working directory, given no path)
// into ~/.ssh. The option came from the text after an expansion whose
// value holds a blank (IFS, PS4 is "+ "), from a value the line binds,
// from a command substitution or xargs of what echo or printf print or a
// here-string holds, or from the positional parameters sh -c is given;
// the gate checked only the words as written, none of them an option,
// and allowed each line.
var canaryRound104Options = []string{
	`grep . sub x${IFS}-R`, `grep . sub x$PS4-R`, `grep . sub $IFS-R`, `grep . sub "$x"${IFS}-R`,
	`grep . ${IFS}-R`, `grep -e . ${IFS}-R`, `grep ${IFS}-R${IFS}.`, `grep . ${IFS}--dereference-recursive`,
	`grep . sub x${IFS}--dereference-recursive`, `grep . sub x${IFS}-iR`, `egrep . sub x${IFS}-R`,
	`fgrep -e ROUND sub x${IFS}-R`, `x=$PS4; grep . sub y${x}-R`, `d=sub; grep . $d x${IFS}-R`,
	`grep . l2 x${IFS}-r`, `grep . l2 x${IFS}-d${IFS}recurse`, `grep . l2 x${IFS}-drecurse`,
	`grep . l2 x${IFS}--directories=recurse`, `grep . l2 x${IFS}--dir${IFS}recurse`,
	`x="y -R"; grep . sub $x`, `x=-R; grep . sub $x`, `x=-R; grep . sub "$x"`,
	`grep . sub $(echo -R)`, `grep . sub $(echo x -R)`, `grep . sub $(printf -- -R)`, `grep . sub $(printf %s -R)`,
	`echo -R > o; grep . sub $(cat o)`, `sh -c 'grep . sub $1' _ -R`, `sh -c 'grep . sub x$1' _ " -R"`,
	`bash -c 'grep . sub "$@"' _ -R`, `bash -c 'grep . sub $*' _ "x -R"`, `sh -c 'grep . sub $0' -R`, `du ${IFS}--files0-from=sub/s/id_ed25519`, `du ${IFS}--files0-from sub/s/id_ed25519`,
	`xargs grep . sub <<< -R`, `xargs grep . sub <<< "x -R"`, `grep . sub $(cat <<< -R)`, `echo -R | xargs grep . sub`,
	`echo --files0-from=sub/s/id_ed25519 | xargs du`, `printf -- '-R\n' | xargs grep . sub`,
}

// canaryRound104Globs are lines where a brace expansion makes grep's or
// du's option (grep . sub {x,-R}): a reader of dataArgs had its words'
// expansions checked as operands only. In a project holding a file named
// -R, a glob makes one too (canaryRound104DashFile).
var canaryRound104Globs = []string{
	`grep . sub {-R,}`, `grep . sub {x,-R}`, `egrep . sub {x,--dereference-recursive}`, `du {--files0-from=sub/s/id_ed25519,}`,
}

// canaryRound104DashFile are lines that print the key when the project
// holds a file named -R (a cloned repository may): bash hands it to grep
// as an option.
var canaryRound104DashFile = []string{`grep . sub *`, `grep . sub -?`, `grep . * sub`}

// canaryRound104Runners are lines whose reader is in a command string
// hyperfine runs: a command of such a string is marked Wrapper, and the
// gate took a wrapper for no reader that follows links (grep -R, cp -r
// then cat through the copy's link), nor looked at the programs it only
// guessed (ctags -R), nor at a value the string binds (x=-R).
var canaryRound104Runners = []string{
	`hyperfine -r1 --show-output 'grep -R . sub'`, `hyperfine -r1 --show-output 'grep --dereference-recursive . sub'`,
	`hyperfine -r1 --show-output 'grep -R PRIVATE'`, `hyperfine -r1 --show-output 'diff -rN sub doc'`,
	`hyperfine -r1 --show-output 'cp -rL sub t; cat t/s/id_ed25519'`, `hyperfine -r1 --show-output 'cp -r sub t; cat t/s/id_ed25519'`,
	`hyperfine -r1 --show-output 'ctags -R -x --language-force=Iniconf sub'`,
	`hyperfine -r1 --show-output 'x=-R; grep . sub $x'`, `hyperfine -r1 --show-output 'x="y -R"; grep . sub $x'`,
	`hyperfine -r1 --show-output 'x=--dereference-recursive; grep . sub $x'`,
}

// roundOrdinary104Runners are ordinary lines near canaryRound104Runners,
// which stay allowed.
var roundOrdinary104Runners = []string{
	`hyperfine -r1 'grep -r x sub'`, `hyperfine -r1 'cp -r sub t'`, `hyperfine -r1 'grep -R x doc'`, `timeout 5 cp -r sub t`,
	`hyperfine -r1 'ctags -R -x doc'`,
}

// roundOrdinary104 are ordinary lines near round 104's, which stay
// allowed.
var roundOrdinary104 = []string{
	`grep . l2`, `grep -n main src/$name.go`,
	`grep -r . sub`, `grep . sub x${IFS}-n`, `grep -i x ${IFS}README`, `du -sh $d`, `x=-n; grep $x . doc/a`,
}

// TestCanaryRound104 checks that each line prints the key in real bash
// and asks, and that the ordinary lines stay allowed.
func TestCanaryRound104(t *testing.T) {
	t.Parallel()
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	wantPrintedAndAsked(t, decide, canaryRound104Options, roundOrdinary104)
	wantDecisions(t, decide, canaryRound104Runners, roundOrdinary104Runners)
	wantPrintedAndAsked(t, decide, canaryRound104Globs, []string{`grep -n x {README,doc/a}`, `cat {a,b}-x.txt`, `ls *`, `grep x *.go`})
	for _, line := range canaryRound104DashFile {
		wantCredentialPrinted(t, "touch ./-R; "+line)
	}
	if err := os.WriteFile(filepath.Join(wd, "-R"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	wantDecisions(t, decide, canaryRound104DashFile, []string{`cat *`, `ls *`, `head -n1 doc/*`})
	tooltest.Need(t, tooltest.CanaryTools, "hyperfine", "ctags")
	for _, line := range canaryRound104Runners {
		wantCredentialPrinted(t, line)
	}
}
