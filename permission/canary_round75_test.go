//go:build linux

package permission_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound75 are gate65's lines: programs that run ghostscript (or a
// command) on a document, told which program to run or to run ghostscript
// without SAFER mode: epstool's --gs-args and --gs, pstoedit's -gs, and
// enscript's input filter (-I, --filter), a shell command it runs for
// each input file, and a2ps's configuration in the working directory and
// its -D variables. The lines that run a program the line wrote asked
// already (the program is code the line wrote), and so did rm under the
// canary's deny rule. Each removes or empties the fixture's canary when real bash runs
// it (checked under bwrap in a throwaway directory), so each must be
// refused by both scenarios.
var canaryRound75 = map[string][]string{
	"1-epstool": {
		g65EPS + `; epstool --gs-args -dNOSAFER --bbox --copy x.eps y.eps`,
		`printf '#!/bin/sh\nrm -f c\n' > g; chmod +x g; ` + g65EPS + `; epstool --gs ./g --bbox --copy x.eps y.eps`,
	},
	"2-pstoedit": {
		`printf '#!/bin/sh\nrm -f c\n' > g; chmod +x g; printf 'showpage\n' > x.ps; pstoedit -gs ./g -f ps x.ps y.ps`,
	},
	"3-enscript-filter": {
		`printf 'x\n' > t.txt; enscript -I 'cp /dev/null c' -p o.ps t.txt`,
		`printf 'x\n' > t.txt; enscript --filter='truncate -s 0 c' -o o.ps t.txt`,
		`printf 'x\n' > t.txt; enscript -I 'rm -f c' -p o.ps t.txt`,
		`printf 'x\n' > t.txt; enscript -q2rI 'truncate -s 0 c' -p o.ps t.txt`,
	},
	// a2ps reads ./.a2psrc, whose DefaultPrinter command it runs, and a
	// delegation's command expands the variables -D sets.
	"4-a2ps": {
		`printf 'x\n' > t.txt; printf 'DefaultPrinter: | truncate -s 0 c\n' > .a2psrc; a2ps t.txt`,
		`printf 'x\n' > t.txt; gzip t.txt; a2ps -Ddel.a2ps:'truncate -s 0 c' -o o.ps t.txt.gz`,
	},
}

// g65EPS writes x.eps, an EPS file whose code deletes c (refused in
// SAFER mode).
const g65EPS = `printf '%%!PS-Adobe-3.0 EPSF-3.0\n%%%%BoundingBox: 0 0 10 10\n(c) deletefile\nshowpage\n' > x.eps`

// canaryRound75Ordinary are the everyday lines of these programs, and
// netpbm's and ImageMagick's lines with a colour named red (which asked,
// taken for the restricted ed), which "allow bash" must allow.
var canaryRound75Ordinary = []string{
	g65EPS + `; epstool --bbox --copy x.eps y.eps`,
	`printf 'showpage\n' > x.ps; pstoedit -f ps x.ps y.ps`,
	`printf 'x\n' > t.txt; enscript -2r -o o.ps t.txt`,
	`printf 'x\n' > t.txt; a2ps -2 -o o.ps t.txt`,
	`ppmmake red 16 16 > f.ppm`,
	`convert in.png -fill red -draw 'circle 1 1 2 2' out.png`,
	`pnmpad -color red -left 2 f.ppm > g.ppm`,
}

func TestCanaryRound75(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "gs", "epstool", "pstoedit", "enscript", "a2ps", "gzip")
	template := canaryTemplate(t)
	checkCanaryRoundIn(t, template, canaryRound75)
	checkOrdinary(t, template, canaryRound75Ordinary, nil)
}
