package shellscan

import "strings"

// exiftoolMoveTags are the tags whose writing renames, moves or links the
// file (to a name exiftool builds from the value, which may be a format
// of other tags' values), rather than changing what it holds.
var exiftoolMoveTags = []string{"filename", "directory", "symlink", "hardlink", "testname"}

// exiftool returns why exiftool args runs code or writes a path the line
// does not show, or "": -@ reads more arguments from a file (among them
// -o, -w and -config), -stay_open keeps reading them; -config loads a
// Perl file; -if, -p and -api Filter, and any ${TAG;EXPR} of the advanced
// formatting, evaluate Perl; -w, -W (-textOut, -tagOut), -srcfile, and -o
// or -tagsFromFile with a %-format write or read files whose names it
// builds; writing FileName, Directory, SymLink, HardLink or TestName moves
// or links the file. Its options are in any letter case.
func exiftool(args []word) string {
	for i, a := range args {
		if a.dynamic || a.pattern && strings.HasPrefix(a.text, "-") {
			return "exiftool gets an option only known when it runs"
		}
		t := strings.ToLower(a.text)
		if strings.Contains(t, "${") {
			return "exiftool's advanced formatting (${TAG;EXPR}) evaluates Perl"
		}
		if !strings.HasPrefix(t, "-") || t == "-" {
			continue
		}
		opt := strings.TrimPrefix(t, "-")
		next := ""
		if i+1 < len(args) {
			next = args[i+1].text
		}
		switch {
		case opt == "@":
			return "exiftool -@ reads more arguments from a file, which may write or run code"
		case opt == "config":
			return "exiftool -config loads a configuration file, which is Perl code"
		case strings.HasPrefix(opt, "if") && strings.Trim(opt[2:], "0123456789") == "",
			opt == "p" || opt == "p-" || opt == "printformat",
			opt == "api":
			return "exiftool -" + clipName(opt) + " evaluates Perl expressions"
		case opt == "stay_open":
			return "exiftool -stay_open reads more arguments from a file"
		case contains([]string{"w", "textout", "tagout"}, strings.TrimRight(opt, "!+")):
			return "exiftool -" + clipName(opt) + " writes files whose names it builds"
		case opt == "srcfile":
			return "exiftool -srcfile chooses the files to read by a format"
		case opt == "o" || opt == "out" || opt == "tagsfromfile":
			if strings.Contains(next, "%") || strings.Contains(next, "$") {
				return "exiftool -" + opt + " names a file by a format the analysis does not expand"
			}
		}
		tag, _, _ := strings.Cut(opt, "=")
		tag, _, _ = strings.Cut(tag, "<")
		tag = strings.TrimRight(tag, "+-^")
		if j := strings.LastIndexByte(tag, ':'); j >= 0 {
			tag = tag[j+1:]
		}
		if contains(exiftoolMoveTags, tag) && strings.ContainsAny(opt, "=<") {
			return "exiftool -" + clipName(opt) + " moves or links the file to a name it builds"
		}
	}
	return ""
}
