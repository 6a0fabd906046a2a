package shellscan

import "testing"

// A colour among the operands of a program the analysis does not model
// was guessed to be red, the restricted ed, which made the line opaque
// (gate65: ppmmake red 16 16 > f.ppm and convert in.png -fill red out.png
// asked). red edits only files of the working directory and runs no
// command, which the check of the outer command's words covers; ed, ex
// and vi among such operands still make the line opaque.
func TestG65ColourRed(t *testing.T) {
	opaque := []string{
		`mytool ed x 1`, `logsave log ex -sc '!rm -f c' x`, `mytool vi x`, `logsave log sh -c 'rm c'`,
	}
	clean := []string{
		`ppmmake red 16 16 > f.ppm`, `convert in.png -fill red -draw 'circle 1 1 2 2' out.png`,
		`pnmpad -color red -left 2 in.ppm > out.ppm`, `ppmrainbow red blue > r.ppm`,
		`pamgradient red blue red blue 10 10 > g.pam`, `convert in.png -fill red1 out.png`,
		`pbmtext -font f red > t.pbm`,
	}
	checkRT57Lines(t, opaque, clean)
}

// Programs that run ghostscript or a command on a document, told which
// program to run or to run ghostscript without SAFER mode (gate65: each
// opaque line was allowed; the first four deleted a file in real bash).
func TestG65GhostscriptRunners(t *testing.T) {
	opaque := []string{
		`epstool --gs-args -dNOSAFER --bbox --copy x.eps y.eps`, `epstool --gs ./g --bbox --copy x.eps y.eps`,
		`pstoedit -gs ./g -f ps x.ps y.ps`, `enscript -I 'rm -f c' -p o.ps t.txt`, `enscript --filter='rm -f c' -o o.ps t.txt`,
		`enscript -Icat t.txt`, `enscript -2rI cat t.txt`, `enscript --fil=cat t.txt`, `epstool --gs-args=-dNOSAFER --copy x y`,
		`epstopdf --nosafer x.eps`, `epstopdf -nosafer x.eps`, `epstopdf --nosa x.eps`, `epstopdf --gsopt=-dNOSAFER x.eps`,
		`epstopdf --gsopts '-dNOSAFER' x.eps`, `epstopdf --gscmd=./g x.eps`, `repstopdf --GSOPT=-dNOSAFER x.eps`,
		`gv --nosafer x.ps`, `gv -nosafer x.ps`, `gv --arguments=-dNOSAFER x.ps`, `enscript $F t.txt`,
		`a2ps -Ddel.a2ps:'truncate -s 0 c' -o o.ps t.txt.gz`, `a2ps --define=del.a2ps:x -o o.ps t.gz`,
		`a2ps -qD del.a2ps:x t.gz`, `printf 'DefaultPrinter: | rm c\n' > .a2psrc; a2ps t.txt`,
		`cp x .a2psrc && a2ps -o o.ps t.txt`,
	}
	clean := []string{
		`epstool --bbox --copy x.eps y.eps`, `pstoedit -f ps x.ps y.ps`, `pstoedit -psarg -r300x300 -f ps x.ps y.ps`,
		`enscript -p o.ps t.txt`, `enscript -2r -o o.ps t.txt`, `enscript -fTimes-Italic10 -o o.ps t.txt`,
		`enscript --filter-stdin=x -o o.ps t.txt`, `epstopdf x.eps`, `epstopdf --outfile=y.pdf x.eps`, `gv --safer x.ps`,
		`ps2eps -f x.eps`, `pstopnm -stdout x.ps > x.ppm`, `a2ps -o o.ps t.txt`, `a2ps -2 -oDoc.ps t.txt`,
		`a2ps --delegate=no -o o.ps t.txt`,
	}
	checkRT57Lines(t, opaque, clean)
}
