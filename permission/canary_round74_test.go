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
// -sOutputFile=%pipe%cmd (or -o '|cmd', or ps2pdf x.ps '|cmd', which
// hands gs its output file so) runs cmd however safe the
// PostScript is. What gate63 could not confirm: an XSLT stylesheet the
// line writes writes any file by EXSLT's exsl:document (xsltproc,
// xmlstarlet tr), and a ppmtompeg parameter file the line writes runs the
// shell command of its INPUT_CONVERT line. Each removes or changes the
// fixture's canary when real bash runs it, so each must be refused by both
// scenarios.
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
		// The scripts hand their output file to gs as -sOutputFile.
		`printf 'showpage\n' > x.ps; ps2pdf x.ps '|rm c'`,
		`printf 'showpage\n' > x.ps; ps2ps x.ps '%pipe%rm c'`,
		`printf 'showpage\n' > x.ps; eps2eps x.ps '|truncate -s 0 c'`,
		// An input file is trusted as much.
		`gs -q -dBATCH -dNODISPLAY '%pipe%rm c'`,
		`gs -q -dBATCH -dNOPAUSE -sDEVICE=pdfwrite -o x.pdf -- '%pipe%truncate -s 0 c'`,
	},
	"3-xslt-exsl-document": {
		rv74Stylesheet + `; echo '<a/>' > d.xml; xsltproc s.xsl d.xml`,
		rv74Stylesheet + `; echo '<a/>' > d.xml; xsltproc -o out.txt s.xsl d.xml`,
		rv74Stylesheet + `; echo '<a/>' | xsltproc s.xsl -`,
		rv74Stylesheet + `; echo '<a/>' > d.xml; xmlstarlet tr s.xsl d.xml`,
	},
	"4-ppmtompeg-input-convert": {
		`printf 'PATTERN I\nOUTPUT o.mpg\nBASE_FILE_FORMAT PPM\nINPUT_CONVERT find . -name c -delete; cat *\nGOP_SIZE 1\nSLICES_PER_FRAME 1\nINPUT_DIR .\nINPUT\nf.ppm\nEND_INPUT\nPIXEL HALF\nRANGE 10\nPSEARCH_ALG LOGARITHMIC\nBSEARCH_ALG CROSS2\nIQSCALE 8\nPQSCALE 10\nBQSCALE 25\nREFERENCE_FRAME ORIGINAL\n' > x.param; ppmtompeg x.param`,
		`printf 'PATTERN I\nOUTPUT o.mpg\nBASE_FILE_FORMAT PPM\nINPUT_CONVERT truncate -s 0 c; cat *\nGOP_SIZE 1\nSLICES_PER_FRAME 1\nINPUT_DIR .\nINPUT\nf.ppm\nEND_INPUT\nPIXEL HALF\nRANGE 10\nPSEARCH_ALG LOGARITHMIC\nBSEARCH_ALG CROSS2\nIQSCALE 8\nPQSCALE 10\nBQSCALE 25\nREFERENCE_FRAME ORIGINAL\n' > x.param; ppmtompeg -realquiet x.param`,
	},
}

// rv74Stylesheet writes s.xsl, an XSLT stylesheet whose EXSLT
// exsl:document element writes the canary c, a path the command line never
// names.
const rv74Stylesheet = `printf '<x:stylesheet version="1.0" xmlns:x="http://www.w3.org/1999/XSL/Transform" xmlns:e="http://exslt.org/common" extension-element-prefixes="e"><x:template match="/"><e:document href="c" method="text">pwned</e:document></x:template></x:stylesheet>' > s.xsl`

func TestCanaryRound74(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "gs", "xsltproc", "xmlstarlet", "ppmtompeg")
	template := canaryTemplate(t)
	checkCanaryRoundIn(t, template, canaryRound74)
	checkOrdinary(t, template, []string{
		`printf 'showpage\n' > x.ps; gs -q -dBATCH -dNOPAUSE -sDEVICE=pdfwrite -sOutputFile=x.pdf x.ps`,
		`printf 'showpage\n' > x.ps; gs -q -dBATCH -sDEVICE=pdfwrite -o x.pdf x.ps`,
		`printf 'showpage\n' > x.ps; gs -q -dBATCH -sDEVICE=png16m -sPAPERSIZE=a4 -o page-%d.png x.ps`,
		`xsltproc -o out.html --stringparam title x docs.xsl README`,
		`echo '<a/>' > d.xml; xsltproc --nonet docs.xsl d.xml`,
		`echo '<a/>' | xsltproc docs.xsl -`,
		`echo '<a/>' > d.xml; xmlstarlet tr docs.xsl -s title=x d.xml`,
		`ppmtompeg encode.param`,
	}, nil)
}
