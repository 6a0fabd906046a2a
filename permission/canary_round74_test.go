//go:build linux

package permission_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound74 is review63g's attack on round 73's ghostscript fix:
// ghostscript's SAFER mode is also dropped by -sNOSAFER (a string
// definition, which gs_init.ps tests with "known" just as -dNOSAFER), and
// SAFER trusts the output file named on the command line, so
// -sOutputFile=%pipe%cmd (or -o '|cmd') runs cmd however safe the
// PostScript is. Each removes the fixture's canary when real bash runs it,
// so each must be refused by both scenarios.
var canaryRound74 = map[string][]string{
	"1-ghostscript-string-nosafer": {
		`printf '(c) deletefile\n' > x.ps; gs -q -sNOSAFER -dBATCH -dNODISPLAY x.ps`,
		`printf '(c) deletefile\n' > x.ps; gs -q -SNOSAFER=1 -dBATCH -dNODISPLAY x.ps`,
		`gs -q -sNOSAFER#true -dBATCH -dNODISPLAY -c '(c) deletefile'`,
	},
	"2-ghostscript-pipe-output": {
		`printf 'showpage\n' > x.ps; gs -q -dBATCH -dNOPAUSE -sDEVICE=pdfwrite -sOutputFile='%pipe%rm c' x.ps`,
		`printf 'showpage\n' > x.ps; gs -q -dBATCH -sDEVICE=pdfwrite -o '|rm c' x.ps`,
		`printf 'showpage\n' > x.ps; gs -q -dBATCH -sDEVICE=pdfwrite -o '%pipe%find . -name c -delete' x.ps`,
		`printf 'showpage\n' > x.ps; gs -q -dBATCH -dNOPAUSE -sDEVICE=pdfwrite -SOutputFile#'|rm c' x.ps`,
	},
}

func TestCanaryRound74(t *testing.T) {
	tooltest.Need(t, tooltest.CanaryTools, "git", "gs")
	template := canaryTemplate(t)
	checkCanaryRoundIn(t, template, canaryRound74)
	checkOrdinary(t, template, []string{
		`printf 'showpage\n' > x.ps; gs -q -dBATCH -dNOPAUSE -sDEVICE=pdfwrite -sOutputFile=x.pdf x.ps`,
		`printf 'showpage\n' > x.ps; gs -q -dBATCH -sDEVICE=pdfwrite -o x.pdf x.ps`,
		`printf 'showpage\n' > x.ps; gs -q -dBATCH -sDEVICE=png16m -sPAPERSIZE=a4 -o page-%d.png x.ps`,
	}, nil)
}
