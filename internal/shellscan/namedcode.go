package shellscan

import (
	"path"
	"strings"
)

// bareName, among the names of a code use, stands for a file without an
// extension in the working directory or beside the script: node's require("./cfg") loads the
// file cfg itself before cfg.js, perl's require "./settings" and do
// "./settings" run it, make's include config and -include .env read it.
// Which such names the project's own code gives them the analysis cannot
// see, so one the line writes there before may be code (echo … > cfg &&
// node app.js). It holds a '/' in its middle, which no base name matches,
// so that baseMatches and baseMayMatch pass it over.
const bareName = "/(bare)"

// bareNamers are the programs that load files by whatever name their code
// gives them (see bareName).
var bareNamers = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"node": true, "nodejs": true, "bun": true, "perl": true}
}}

// makeIncludes are the names of the files makefiles most often include
// besides those of a bare name: makefile fragments, the dependency files
// of cc -MMD and configuration.
var makeIncludes = []string{"*.mak", "*.make", "*.d", "*.dep", "*.inc", "*.cfg", "*.conf", "*.env"}

// withBareName returns names, the files the interpreter name loads as
// code, with bareName added for those in bareNamers, unless the command
// is guessed among another's words, where only the names its own
// language gives files count.
func (an *analyzer) withBareName(name string, names []string) []string {
	if !bareNamers.get()[name] || an.guess {
		return names
	}
	return append(names[:len(names):len(names)], bareName)
}

// includedNames returns names, the files make builds from, with the files
// its makefiles may include: makeIncludes, and, unless make is guessed
// among another command's words, bareName.
func (an *analyzer) includedNames(names []string) []string {
	out := append(append([]string(nil), names...), makeIncludes...)
	if !an.guess {
		out = append(out, bareName)
	}
	return out
}

// bareWrites returns a function that reports whether the write acc, the
// line's access or guessed write numbered key, may create a file without
// an extension (see bareName) directly in a candidate working directory
// or beside a file a code use names (the script, the makefile): a base
// name with no '.' but a leading one (cfg, .env), or a pattern that
// may expand to one. A directory mkdir makes, one a code use names a file
// below (cp sub/mk t && make -f t/sub/mk), and a tree (checked as any
// write below a code use's directory) do not count. The directories are
// resolved once, and each write once.
func (an *analyzer) bareWrites() func(key int, acc access) bool {
	var cwdDirs, usedDirs map[string]bool
	memo := map[int]bool{}
	return func(key int, acc access) bool {
		if m, ok := memo[key]; ok {
			return m
		}
		if cwdDirs == nil {
			cwdDirs, usedDirs = map[string]bool{}, map[string]bool{}
			for _, c := range an.a.cwds {
				cwdDirs[an.resolve(c, ".")] = true
				for _, u := range an.codeUses {
					p := an.resolve(c, u.path)
					if u.names == nil {
						// Beside a script or makefile the line names
						// (node scripts/build.js, make -C sub).
						cwdDirs[path.Dir(p)] = true
					}
					for d := path.Dir(p); d != "/" && d != "." && !usedDirs[d]; d = path.Dir(d) {
						usedDirs[d] = true
					}
				}
			}
		}
		m := false
		b := path.Base(acc.path)
		if !acc.dir && !acc.tree && !acc.settings && b != "." && b != ".." && b != "/" && b != "" &&
			(!strings.Contains(b[1:], ".") || acc.pattern && strings.Contains(b, "{")) {
			for _, c := range an.a.cwds {
				if w := an.resolve(c, acc.path); cwdDirs[path.Dir(w)] && !usedDirs[w] {
					m = true
					break
				}
			}
		}
		memo[key] = m
		return m
	}
}
