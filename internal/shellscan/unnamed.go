package shellscan

import (
	"path"
	"strings"
)

// An unnamedWrite is a directory a command writes files into under names
// the analysis does not list: the matches of a pattern cp copies there
// (cp kit/* .), the files git checks out. anywhere marks a directory only
// known when the line runs, or git's worktree; unit is the command's.
type unnamedWrite struct {
	dir      string
	anywhere bool
	unit     int
}

// An optionWord is a word that starts with '-' given to a command the
// analysis does not model, in the command's unit (see optionWordsGiven).
type optionWord struct {
	text string
	unit int
}

// writesUnnamed records that the command being analyzed writes files into
// the directory dir under names the analysis does not list (see
// patternsMeetUnnamed).
func (an *analyzer) writesUnnamed(dir word) {
	if len(an.unnamed) >= maxAccessPaths {
		an.opaque("the line writes files under names it does not list into too many directories to check")
		return
	}
	an.unnamed = append(an.unnamed, unnamedWrite{dir: dir.text, anywhere: dir.dynamic || dir.pattern, unit: an.cur})
}

// optionWordsGiven records the words of args, given to a command the
// analysis does not model, that start with '-': one may be the value of
// an option that names a file the command writes (ssh-keygen -f -delete,
// openssl rand -out -delete 1), which the analysis cannot tell from the
// command's own options (see patternsMeetUnnamed).
func (an *analyzer) optionWordsGiven(args []word) {
	for _, a := range args {
		if len(a.text) < 2 || a.text[0] != '-' || a.dynamic {
			continue
		}
		if len(an.optionWords) >= maxAccessPaths {
			an.opaque("the line gives too many options to commands the analysis does not model to check")
			return
		}
		an.optionWords = append(an.optionWords, optionWord{text: a.text, unit: an.cur})
	}
}

// patternsMeetUnnamed makes the line opaque when a glob given to a
// command (see Analysis.Patterns) may expand to a file named like an
// option (-delete, --checkpoint-action=exec=…) that an earlier command
// wrote where the caller, which only finds the files that exist before
// the line runs, cannot see it: under a name the analysis does not list,
// in a directory the glob expands in (a tree it copied or moved, cp -r
// kit/. .; the matches of a pattern, cp kit/* .; the files git checked
// out, git checkout opt), or under a name a command the analysis does not
// model was given (openssl rand -out ./-delete 1), which it does not list
// as a write. A command's own writes come after bash expanded its words.
func (an *analyzer) patternsMeetUnnamed() {
	if len(an.a.patterns) == 0 {
		return
	}
	// A word that starts with '-' given to an earlier command the
	// analysis does not model, which a glob matches: the command may have
	// written a file of that name (ssh-keygen -f -delete).
	budget := maxCodeChecks
	for _, w := range an.optionWords {
		if !an.unordered && w.unit >= an.patternUnit {
			continue
		}
		for _, p := range an.a.patterns {
			if budget--; budget < 0 {
				an.opaque("the line gives too many options and globs to commands to check")
				return
			}
			if m, err := path.Match(p, w.text); m || err != nil || strings.ContainsAny(p, "{}") {
				an.opaque("a glob may expand to " + clipName(w.text) + ", which an earlier command may write, a name it would take as an option")
				return
			}
		}
	}
	var writes []unnamedWrite
	for _, w := range an.unnamed {
		if an.unordered || w.unit < an.patternUnit {
			writes = append(writes, w)
		}
	}
	for i, acc := range an.a.accesses {
		if !an.unordered && i >= an.patternsAt {
			break
		}
		if acc.tree && acc.mode != modeRead {
			writes = append(writes, unnamedWrite{dir: acc.path, anywhere: acc.pattern})
		}
		if acc.unknown && optionComponent(acc.path) {
			an.opaque("a glob may expand to " + clipName(acc.path) + ", which an earlier command may write, a name it would take as an option")
			return
		}
	}
	// The directories the globs expand in: each candidate working
	// directory.
	dirs := make([]string, 0, len(an.a.cwds))
	for _, c := range an.a.cwds {
		dirs = append(dirs, an.resolve(c, "."))
	}
	seen := map[string]bool{}
	for _, w := range writes {
		if w.anywhere {
			an.opaque("a glob may expand to a file an earlier command writes under a name the line does not show, which may be an option")
			return
		}
		if seen[w.dir] {
			continue
		}
		seen[w.dir] = true
		for _, c := range an.a.cwds {
			wd := an.resolve(c, w.dir)
			for _, d := range dirs {
				if within(d, wd) {
					an.opaque("a glob may expand to a file an earlier command writes into " + clipName(w.dir) + " under a name the line does not show, which may be an option")
					return
				}
			}
		}
	}
}

// optionComponent reports whether a component of the path p starts with
// '-' and is not "-" alone.
func optionComponent(p string) bool {
	for _, c := range strings.Split(p, "/") {
		if len(c) > 1 && c[0] == '-' {
			return true
		}
	}
	return false
}
