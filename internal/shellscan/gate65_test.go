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
