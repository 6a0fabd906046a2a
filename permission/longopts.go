package permission

import (
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/longopt"
)

// grepLong, cpLong, diffLong and gzipLong are the long options (from each program's
// --help, GNU grep 3, coreutils 9, diffutils 3, gzip 1.12) among
// which an abbreviation of a recursive option is matched (see
// [recursiveLongOption]): grep --recur and --derefer, cp --recur and --ar,
// diff --recur read whole trees as their full names do.
// They are tables of their own, not a map, so that the package allocates
// nothing for them at initialisation.
var (
	grepLong = longopt.Table{"--after-context", "--basic-regexp", "--before-context", "--binary", "--binary-files", "--byte-offset",
		"--color", "--colour", "--context", "--count", "--dereference-recursive", "--devices", "--directories",
		"--exclude", "--exclude-dir", "--exclude-from", "--extended-regexp", "--file", "--files-with-matches",
		"--files-without-match", "--fixed-strings", "--group-separator", "--help", "--ignore-case", "--include",
		"--initial-tab", "--invert-match", "--label", "--line-buffered", "--line-number", "--line-regexp",
		"--max-count", "--no-filename", "--no-group-separator", "--no-ignore-case", "--no-messages", "--null",
		"--null-data", "--only-matching", "--perl-regexp", "--quiet", "--recursive", "--regexp", "--silent",
		"--text", "--version", "--with-filename", "--word-regexp"}
	cpLong = longopt.Table{"--archive", "--attributes-only", "--backup", "--context", "--copy-contents", "--debug", "--dereference",
		"--force", "--help", "--interactive", "--keep-directory-symlink", "--link", "--no-clobber", "--no-dereference",
		"--no-preserve", "--no-target-directory", "--one-file-system", "--parents", "--preserve", "--recursive",
		"--reflink", "--remove-destination", "--sparse", "--strip-trailing-slashes", "--suffix", "--symbolic-link",
		"--target-directory", "--update", "--verbose", "--version"}
	diffLong = longopt.Table{"--recursive", "--report-identical-files", "--rcs"}
	gzipLong = longopt.Table{"--recursive", "--rsyncable"}
)

// treeOptions returns the long options of the program name, if it is
// one of grep, cp, diff and gzip.
func treeOptions(name string) (longopt.Table, bool) {
	switch name {
	case "grep":
		return grepLong, true
	case "cp":
		return cpLong, true
	case "diff":
		return diffLong, true
	case "gzip":
		return gzipLong, true
	}
	return nil, false
}

// duLong are du's long options (coreutils 9, du --help), among which an
// abbreviation of --files0-from is matched: du --files0-f F printed F's
// contents in its error as a name it could not find.
var duLong = longopt.Table{"--all", "--apparent-size", "--block-size", "--bytes", "--count-links", "--dereference",
	"--dereference-args", "--exclude", "--exclude-from", "--files0-from", "--help", "--human-readable", "--inodes",
	"--max-depth", "--no-dereference", "--null", "--one-file-system", "--separate-dirs", "--si", "--summarize",
	"--threshold", "--time", "--time-style", "--total", "--version"}

// readsNamesOption reports whether w, given to the lister name, is an
// abbreviation of an option that reads the names to list from a file (du
// --files0-f, --fi), which prints what the file holds.
func readsNamesOption(name, w string) bool {
	return name == "du" && duLong.Is(w, "--files0-from", "--exclude-from")
}

// recursiveLongOption reports whether w, given to the program name, is a
// long option that makes it read whole trees, spelled whole (--recursive,
// --archive, --dereference-recursive, for any program) or, for a program
// of treeOptions, abbreviated as its option parser takes it.
func recursiveLongOption(name, w string) bool {
	if w == "--recursive" || w == "--archive" || w == "--dereference-recursive" {
		return true
	}
	if strings.HasSuffix(name, "grep") {
		name = "grep"
	}
	t, ok := treeOptions(name)
	return ok && t.Is(w, "--recursive", "--archive", "--dereference-recursive")
}
