package shellscan

import "strings"

// ImageMagick runs scripts that name their own files (gate63): an MSL
// script (msl:FILE, or a FILE.msl that a build selects by its suffix;
// conjure, magick-script) writes any path its <write filename=…> names
// and reads any its <read> names, "@FILE" reads the options (-write PATH
// among them) from a file, and magick -script reads a whole command line
// from one; the line may have written any of them. The system's
// policy.xml may refuse some (Debian's refuses "@*" paths and explicit
// coders in a nested read, and its 6.9.11 crashes on an MSL <image>), but
// the analysis does not read it, and ImageMagick 7's default policy is
// open: such a command is opaque. The rest (convert a.png b.webp,
// mogrify -resize 50% *.png) is judged as any program's paths are.

// imageMagickPrograms are ImageMagick's programs, by the name before a
// Debian suffix (convert-im6.q16).
var imageMagickPrograms = lazy[map[string]bool]{build: func() map[string]bool {
	return wordSet(`convert magick mogrify montage composite compare identify stream display animate import conjure
		magick-script`)
}}

// imageMagickScript returns why the ImageMagick program name args runs a
// script or reads its options from a file, or "".
func imageMagickScript(name string, args []word) string {
	base, _, _ := strings.Cut(name, "-im")
	if !imageMagickPrograms.get()[base] || onlyVersion(args) {
		return ""
	}
	if base == "conjure" || base == "magick-script" {
		return name + " runs a Magick Scripting Language script, which writes any file it names"
	}
	for _, a := range args {
		t := strings.ToLower(a.text)
		switch {
		case strings.HasPrefix(t, "msl:") || strings.HasSuffix(t, ".msl"):
			return name + " " + clipName(a.text) + " runs a Magick Scripting Language script, which writes any file it names"
		case t == "-script":
			return name + " -script runs the command line of a file, which may write any file"
		case len(t) > 1 && t[0] == '@':
			return name + " " + clipName(a.text) + " reads its options from a file, which may write any file"
		}
	}
	return ""
}
