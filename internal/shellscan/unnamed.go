package shellscan

// An unnamedWrite is a directory a command writes files into under names
// the analysis does not list: the matches of a pattern cp copies there
// (cp kit/* .), the files git checks out. anywhere marks a directory only
// known when the line runs, or git's worktree; from is the number of
// accesses recorded before the command.
type unnamedWrite struct {
	dir      string
	anywhere bool
	from     int
}

// writesUnnamed records that the command being analyzed writes files into
// the directory dir under names the analysis does not list (see
// patternsMeetUnnamed).
func (an *analyzer) writesUnnamed(dir word) {
	if len(an.unnamed) >= maxAccessPaths {
		an.opaque("the line writes files under names it does not list into too many directories to check")
		return
	}
	an.unnamed = append(an.unnamed, unnamedWrite{dir: dir.text, anywhere: dir.dynamic || dir.pattern, from: len(an.a.accesses)})
}

// patternsMeetUnnamed makes the line opaque when a glob given to a
// command (see Analysis.Patterns) may expand in a directory where an
// earlier command wrote files under names the analysis does not list: a
// tree it copied or moved (cp -r kit/. .), the matches of a pattern (cp
// kit/* .), the files git checked out (git checkout opt). One of them may
// be named like an option (-delete, --checkpoint-action=exec=…), which
// the glob hands to the command; the caller only finds the files that
// exist before the line runs.
func (an *analyzer) patternsMeetUnnamed() {
	if len(an.a.patterns) == 0 {
		return
	}
	writes := append([]unnamedWrite(nil), an.unnamed...)
	for i, acc := range an.a.accesses {
		if acc.tree && acc.mode != modeRead {
			writes = append(writes, unnamedWrite{dir: acc.path, anywhere: acc.pattern, from: i + 1})
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
		if !an.unordered && w.from > an.patternsAt || seen[w.dir] && !w.anywhere {
			continue
		}
		seen[w.dir] = true
		if w.anywhere {
			an.opaque("a glob may expand to a file an earlier command writes under a name the line does not show, which may be an option")
			return
		}
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
