package shellscan

import "strings"

// Archive front ends extract the paths their archive names, as tar x and
// unzip do (see analyzer.archive), which the analysis cannot list: a cpio
// member named /abs/path, a member through a symbolic link another member
// made, a ../ name the program below does not refuse. Real aunpack of a
// cpio archive wrote its absolute member outside the workdir (gate61).
// aunpack, arepack (which extracts before it packs again), dtrx, unp, p7zip and
// xtract always extract; atool with -x, -X, -e or -r, patool's extract,
// repack and recompress, and 7-Zip's 7zr, 7zz and 7zzs (as 7z) but for
// the commands that list, test or hash are opaque. lsar only lists.

// extractorsOpaque makes the line opaque when the archive front end name
// extracts (see above).
func (an *analyzer) extractorsOpaque(name string, args []word) {
	if onlyVersion(args) {
		return
	}
	why := name + " extracts the paths its archive names, which the analysis does not list"
	switch name {
	case "aunpack", "arepack", "dtrx", "unp", "xtract", "p7zip":
		an.opaque(why)
	case "atool":
		for _, a := range args {
			t := a.text
			if a.dynamic || t == "-x" || t == "-X" || t == "-e" || t == "-r" ||
				strings.HasPrefix(t, "--extract") || t == "--each" || t == "--repack" ||
				strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsAny(t[1:], "xXer") {
				an.opaque(why)
				return
			}
		}
	case "patool":
		for _, a := range args {
			switch {
			case a.dynamic:
				an.opaque(why)
				return
			case strings.HasPrefix(a.text, "-"):
				continue
			}
			switch a.text {
			case "list", "test", "diff", "search", "formats", "create":
				return
			}
			an.opaque(why)
			return
		}
	case "7zr", "7zz", "7zzs":
		for _, a := range args {
			if strings.HasPrefix(a.text, "-") && !a.dynamic {
				continue
			}
			switch a.text {
			case "l", "t", "h", "i", "b":
				return
			}
			an.opaque(name + " extracts or changes archives in ways the analysis does not model, as 7z does")
			return
		}
	}
}
