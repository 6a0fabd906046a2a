//go:build linux

package permission_test

import "testing"

// canaryRound104Options are round 104's lines where bash's splitting of
// an unknown word makes an option of a reader the gate lets take such a
// word: grep given -R (or -r, -d recurse, --dereference-recursive) reads
// the links under sub and l2 (or the working directory, given no path)
// into ~/.ssh. The option came from the text after an expansion whose
// value holds a blank (IFS, PS4 is "+ "), from a value the line binds, or
// from a command substitution of what echo or printf print; the gate
// checked only the words as written, none of them an option, and allowed
// each line.
var canaryRound104Options = []string{
	`grep . sub x${IFS}-R`, `grep . sub x$PS4-R`, `grep . sub $IFS-R`, `grep . sub "$x"${IFS}-R`,
	`grep . ${IFS}-R`, `grep -e . ${IFS}-R`, `grep ${IFS}-R${IFS}.`, `grep . ${IFS}--dereference-recursive`,
	`grep . sub x${IFS}--dereference-recursive`, `grep . sub x${IFS}-iR`, `egrep . sub x${IFS}-R`,
	`fgrep -e ROUND sub x${IFS}-R`, `x=$PS4; grep . sub y${x}-R`, `d=sub; grep . $d x${IFS}-R`,
	`grep . l2 x${IFS}-r`, `grep . l2 x${IFS}-d${IFS}recurse`, `grep . l2 x${IFS}-drecurse`,
	`grep . l2 x${IFS}--directories=recurse`, `grep . l2 x${IFS}--dir${IFS}recurse`,
	`x="y -R"; grep . sub $x`, `x=-R; grep . sub $x`, `x=-R; grep . sub "$x"`,
	`grep . sub $(echo -R)`, `grep . sub $(echo x -R)`, `grep . sub $(printf -- -R)`, `grep . sub $(printf %s -R)`,
	`echo -R > o; grep . sub $(cat o)`, `du ${IFS}--files0-from=sub/s/id_ed25519`, `du ${IFS}--files0-from sub/s/id_ed25519`,
}

// roundOrdinary104 are ordinary lines near round 104's, which stay
// allowed.
var roundOrdinary104 = []string{
	`grep . l2`, `grep -n TODO $(git ls-files)`, `grep -n foo $(find . -name '*.go')`, `grep -n main src/$name.go`,
	`wc -l $(ls doc)`, `grep -r . sub`, `grep . sub x${IFS}-n`, `grep -i x ${IFS}README`, `du -sh $d`, `x=-n; grep $x . doc/a`,
}

// TestCanaryRound104 checks that each line prints the key in real bash
// and asks, and that the ordinary lines stay allowed.
func TestCanaryRound104(t *testing.T) {
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	for _, line := range canaryRound104Options {
		wantCredentialPrinted(t, line)
	}
	wantDecisions(t, decide, canaryRound104Options, roundOrdinary104)
}
