package shellscan

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
)

// maxCodeUses bounds the code files one line's commands are recorded to
// run or build (see usesCode), maxCodeChecks the pairs of paths
// runsWrittenCode compares; a line with more is opaque.
const (
	maxCodeUses   = 64
	maxCodeChecks = 1 << 19
)

// A codeUse is code a command runs or builds from files: one file, or
// every file below a directory, or in a directory above it, whose base
// name matches one of names. A name that ends in '/' (node_modules/)
// names a directory every file below which is code, wherever it lies
// below the directory or in one above it (see inCodeDir).
type codeUse struct {
	// prog is the command, for the reason.
	prog string
	// path is the file, or, with names, the directory ("/" for
	// anywhere); relative to the candidate working directories, or
	// absolute.
	path  string
	names []string
	// from is the number of accesses recorded before the command: the
	// writes among them come first, unless the line is unordered.
	from int
	// given marks a file the command is given that holds code it runs
	// but may also write, as it may any word it does not model (the
	// package npm install or pip install is given): it is not the
	// command's own script (see markOwnCode).
	given bool
	// below marks a directory whose files are code only below it, not
	// in the directories above it (make -I DIR).
	below bool
}

// A guessWrite is a write of a guessed command (see guessCommand), which
// runsWrittenCode counts as a write of the line: access is the write, from
// the number of the line's accesses recorded before its command.
type guessWrite struct {
	access
	from int
}

// usesCode records that the command prog runs or builds the code of the
// file p, or, with names, of the files below the directory p (or in a
// directory above it) whose base names match one of them (see
// runsWrittenCode).
func (an *analyzer) usesCode(prog, p string, names ...string) {
	if len(an.codeUses) >= maxCodeUses {
		an.opaque("the line runs code from too many files to check")
		return
	}
	an.codeUses = append(an.codeUses, codeUse{prog: prog, path: p, names: names, from: len(an.a.accesses)})
}

// runsWrittenCode makes the line opaque when a command runs or builds code
// from a file the line writes before it (printf … > Makefile && make,
// echo … > x.py && python3 x.py, echo … > json.py && python3 -m
// json.tool): the code is the line's own, and no rule about the command
// sees what it does, as runsWritten says of a program the line writes.
// The writes are those the analysis lists, the output files named to the
// commands it does not model (see outputValue), and, as the very file a
// command uses, any word given to those commands but a compiler's; the
// other files those commands may write are not among them.
func (an *analyzer) runsWrittenCode() {
	// Each file is resolved from each candidate directory once; a write
	// whose base name cannot be that of the code is passed over first.
	resolved := map[int][]string{}
	resolveAll := func(key int, p string) []string {
		r, ok := resolved[key]
		if !ok {
			r = make([]string, len(an.a.cwds))
			for k, c := range an.a.cwds {
				r[k] = an.resolve(c, p)
			}
			resolved[key] = r
		}
		return r
	}
	matches := map[string]bool{} // of baseMatches and baseMayMatch, by names and base name
	bareOf := an.bareWrites()
	budget := maxCodeChecks
	for k, u := range an.distinctCodeUses() {
		writes := an.a.accesses
		if !an.unordered && u.from <= len(writes) {
			writes = writes[:u.from]
		}
		ubase := path.Base(u.path)
		// With a directory among the names (node_modules/), a file that
		// may lie below one cannot be passed over by its base name: one
		// written below a working directory or the workdir that lies
		// there, or whose own directories may be one.
		var dirNames []string
		for _, n := range u.names {
			if d, ok := strings.CutSuffix(n, "/"); ok {
				dirNames = append(dirNames, d)
			}
		}
		cwdsInDir := len(dirNames) > 0 && componentMayBe(an.workdir, dirNames, false)
		for _, c := range an.a.cwds {
			cwdsInDir = cwdsInDir || len(dirNames) > 0 && componentMayBe(c, dirNames, true)
		}
		namesKey := strings.Join(u.names, "\x00") + "\x01"
		nameOf := func(b string) bool {
			m, ok := matches[namesKey+b]
			if !ok {
				m = baseMatches(b, u.names)
				matches[namesKey+b] = m
			}
			return m
		}
		mayName := func(pat string) bool {
			m, ok := matches[namesKey+"\x02"+pat]
			if !ok {
				m = baseMayMatch(pat, u.names)
				matches[namesKey+"\x02"+pat] = m
			}
			return m
		}
		// The line's writes before the use, then those of guessed
		// commands before it, each resolved once under its own key.
		for i := range len(writes) + len(an.guessWrites) {
			var acc access
			key := i
			if i < len(writes) {
				acc = writes[i]
			} else {
				g := an.guessWrites[i-len(writes)]
				if !an.unordered && g.from > u.from {
					continue
				}
				acc, key = g.access, len(an.a.accesses)+i-len(writes)
			}
			// A directory mkdir makes holds no code of its own (mkdir -p
			// out && java -cp out X).
			written := acc.mode == modeWrite && !acc.unknown && !acc.runs && !acc.dir
			if acc.unknown && (!acc.built && (u.names != nil && acc.output || u.names == nil && !acc.own) ||
				u.names != nil && literalName(path.Base(acc.path), u.names)) {
				// The output file of a command the analysis does not
				// model (openssl base64 -d … -out x.py), as a file of a
				// language, and any word it is given as the very file a
				// command runs (openssl … -out mk && make -f mk, objcopy
				// -I binary -O binary b mk && make -f mk): the data the
				// line gave it may be code. A compiler's output (cc -c -o
				// x.o x.c && cc x.o, cc -shared -o x.so x.c && python3
				// t.py) is a build's own step, built from the sources
				// its code use checks; the
				// script an interpreter runs (python3 x.py && python3
				// x.py) is a file it reads.
				written = true
			}
			if !written || acc.path == "/dev/null" {
				continue
			}
			b := path.Base(acc.path)
			if slices.Contains(u.names, bareName) && bareOf(key, acc) {
				an.opaque(clipName(u.prog) + " runs code from " + clipName(acc.path) + ", which the line writes")
				return
			}
			anyBase := cwdsInDir || len(dirNames) > 0 && componentMayBe(path.Dir(acc.path), dirNames, acc.pattern)
			plain := b != "." && b != ".." && b != "/" &&
				(u.names != nil || ubase != "." && ubase != ".." && !strings.ContainsAny(ubase, "*?[\\"))
			switch {
			case plain && !acc.tree && !acc.pattern && (u.names == nil && b != ubase || u.names != nil && !anyBase && !nameOf(b)):
				continue
			case plain && !acc.tree && acc.pattern && u.names == nil && !baseMayMatch(b, []string{ubase}),
				plain && !acc.tree && acc.pattern && u.names != nil && !anyBase && !mayName(b):
				continue
			}
			ws, ps := resolveAll(key, acc.path), resolveAll(-1-k, u.path)
			if budget -= len(ws) * len(ps); budget < 0 {
				an.opaque("the line writes and runs too many files to check")
				return
			}
			if mayWriteCode(acc, ws, u, ps, nameOf) {
				an.opaque(clipName(u.prog) + " runs code from " + clipName(acc.path) + ", which the line writes")
				return
			}
		}
	}
}

// usesDir records that the command prog runs code from every file below
// the directory p (and from none above it).
func (an *analyzer) usesDir(prog, p string) {
	if len(an.codeUses) >= maxCodeUses {
		an.opaque("the line runs code from too many files to check")
		return
	}
	an.codeUses = append(an.codeUses, codeUse{prog: prog, path: p, names: []string{"*"}, from: len(an.a.accesses), below: true})
}

// usesGiven records that the command prog runs code from the file p, a
// word it is given that it may also write (see codeUse.given).
func (an *analyzer) usesGiven(prog, p string) {
	if len(an.codeUses) >= maxCodeUses {
		an.opaque("the line runs code from too many files to check")
		return
	}
	an.codeUses = append(an.codeUses, codeUse{prog: prog, path: p, from: len(an.a.accesses), given: true})
}

// maxHanded bounds the paths recorded as handed to commands the analysis
// does not model (see hand), maxHandedChecks the comparisons of those
// paths with the trees and patterns chmod makes executable (see
// handedPrograms); a line with more is opaque.
const (
	maxHanded       = 1024
	maxHandedChecks = 1 << 16
)

// hand records that the command being analyzed, which the analysis does
// not model, is given the word t, among its own or those of a file it may
// read, which may name a program it runs: t itself, the value after '='
// of an option or a setting (--agent-program=./y, editor=./y), or the
// value attached to a one-letter option (-p./y).
func (an *analyzer) hand(t string) {
	if t == "" || an.handedAll || an.cur < 0 || an.cur >= len(an.a.units) {
		return
	}
	prog := an.a.units[an.cur].name
	for _, n := range wordPaths(t) {
		if len(an.handed) >= maxHanded {
			an.handedAll = true
			return
		}
		// Only writes before the command count: its own words are what
		// it is handed, not writes.
		an.handed = append(an.handed, codeUse{prog: prog, path: n, from: an.callFrom})
	}
}

// wordPaths returns the paths the word t may name, as a command's
// argument: t itself, the value after its first '=' (an option's or a
// setting's: --agent-program=./y, editor=./y), or the value attached to a
// one-letter option (-k./y). Empty ones are left out.
func wordPaths(t string) []string {
	var out []string
	if t != "" {
		out = append(out, t)
	}
	if _, v, ok := strings.Cut(t, "="); ok {
		if v != "" {
			out = append(out, v)
		}
	} else if len(t) > 2 && t[0] == '-' && t[1] != '-' {
		out = append(out, t[2:])
	}
	return out
}

// handedPrograms records, as code a command runs, each path handed to a
// command the analysis does not model that the line makes executable
// before it (chmod +x y && gpg --agent-program=./y, or a configuration
// file the line wrote that names ./y): the command may run it, as a
// program of its own (gpg's agent, npm's editor, logsave's command).
// runsWrittenCode then makes the line opaque when the line also writes
// the file. A program it does not write is the project's, which the line
// could as well run by name.
func (an *analyzer) handedPrograms() {
	// Each executable access is resolved from each candidate directory
	// once: exact paths into a set, trees and patterns into a list that
	// each handed path is compared with, within maxHandedChecks.
	exact := map[string]bool{}
	type looseAccess struct {
		access
		at []string // resolved from each candidate directory
	}
	var loose []looseAccess
	for _, acc := range an.a.accesses {
		if !acc.executable {
			continue
		}
		l := looseAccess{access: acc}
		for _, c := range an.a.cwds {
			w := an.resolve(c, acc.path)
			exact[w] = true
			l.at = append(l.at, w)
		}
		if acc.tree || acc.pattern {
			loose = append(loose, l)
		}
	}
	if len(exact) == 0 {
		return
	}
	if an.handedAll {
		an.opaque("the line makes a file executable and gives too many words to commands the analysis does not model to check")
		return
	}
	budget := maxHandedChecks
	mayName := func(q string) bool {
		if exact[q] {
			return true
		}
		for _, l := range loose {
			if budget -= len(l.at); budget < 0 {
				return true // past the bound: opaque below
			}
			for _, w := range l.at {
				if l.tree && within(q, w) || l.pattern && patternMayMatch(w, q) {
					return true
				}
			}
		}
		return false
	}
	uses := len(an.codeUses)
	defer func() {
		if len(an.codeUses) == uses {
			an.handedBuiltNames(exact)
		}
	}()
	for _, h := range an.handed {
		for _, c := range an.a.cwds {
			if !mayName(an.resolve(c, h.path)) {
				continue
			}
			if budget < 0 {
				an.opaque("the line makes too many files executable and gives too many words to commands the analysis does not model to check")
				return
			}
			if len(an.codeUses) >= maxCodeUses {
				an.opaque("the line runs code from too many files to check")
				return
			}
			an.codeUses = append(an.codeUses, h)
			break
		}
	}
}

// handedWrittenLater makes an unordered line opaque when a command the
// analysis does not model is given a path the line writes after it in
// the text: in a later turn of a loop, or from another part of a
// pipeline, the command may read the text written there (for i in 1 2;
// do gpg --options x …; echo 'agent-program ./y' > x; done), which
// spellWritten only checks for the writes before the command.
func (an *analyzer) handedWrittenLater() {
	if !an.unordered || len(an.handed) == 0 {
		return
	}
	if an.handedAll {
		an.opaque("the line gives too many words to commands the analysis does not model to check")
		return
	}
	budget := maxHandedChecks
	for _, h := range an.handed {
		for _, acc := range an.a.accesses[min(h.from, len(an.a.accesses)):] {
			if acc.mode == modeRead {
				continue
			}
			for _, c := range an.a.cwds {
				if budget--; budget < 0 {
					an.opaque("the line gives too many words to commands the analysis does not model to check")
					return
				}
				q, w := an.resolve(c, h.path), an.resolve(c, acc.path)
				if q == w || acc.tree && within(q, w) || acc.pattern && patternMayMatch(w, q) {
					an.opaque(clipName(h.prog) + " may read " + clipName(h.path) + ", which the line writes after it in a loop or pipeline")
					return
				}
			}
		}
	}
}

// chmodAddsExec reports whether chmod, given args, may give a file
// execute permission: a mode that adds it, a mode copied from another
// file (--reference) or one only known when the line runs.
func chmodAddsExec(args []word) bool {
	for _, a := range args {
		t := a.text
		if a.dynamic || isReference(t) {
			return true
		}
		if t != "" && !strings.HasPrefix(t, "--") && modeAddsExec(t) {
			return true
		}
	}
	return false
}

// noModeOperand reports whether chmod, chown, chgrp or chattr (name)
// takes no mode, owner or attribute operand, so that every operand is a
// file: it takes a reference file instead (--reference=R, or its
// abbreviation --ref), or one of its option words is the mode, as GNU
// chmod takes -x, -w+x or -rwx (a word whose letters after the dash
// include one a mode is made of) and chattr takes -i. A word that cannot be
// read is taken for either.
func noModeOperand(name string, args []word) bool {
	letters := ""
	switch name {
	case "chmod":
		letters = "rwxXstugoa,+=01234567"
	case "chattr":
		letters = "aAcCdDeFijmPsStTuxvp" // all but -R, -V and -f
	}
	for _, a := range args {
		t := a.text
		if t == "--" && !a.dynamic {
			return false
		}
		if a.dynamic || isReference(t) ||
			letters != "" && strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsAny(t[1:], letters) {
			return true
		}
	}
	return false
}

// isReference reports whether t is --reference, with or without its
// value, or an abbreviation getopt takes for it (--ref; --re may also be
// --recursive).
func isReference(t string) bool {
	opt, _, _ := strings.Cut(t, "=")
	return len(opt) >= len("--ref") && strings.HasPrefix("--reference", opt)
}

// modeAddsExec reports whether the chmod mode m may add execute
// permission: an octal mode with an odd digit among its last three, or a
// symbolic one that adds or sets x, X or the permissions of a class.
func modeAddsExec(m string) bool {
	if strings.Trim(m, "01234567") == "" {
		for i := max(0, len(m)-3); i < len(m); i++ {
			if (m[i]-'0')&1 == 1 {
				return true
			}
		}
		return false
	}
	for _, clause := range strings.Split(m, ",") {
		for i := 0; i < len(clause); i++ {
			if clause[i] != '+' && clause[i] != '=' {
				continue
			}
			j := i + 1
			for j < len(clause) && !strings.ContainsRune("+-=", rune(clause[j])) {
				j++
			}
			if strings.ContainsAny(clause[i+1:j], "xXugo") {
				return true
			}
			i = j - 1
		}
	}
	return false
}

// distinctCodeUses returns the code uses with the same file or directory
// and names once, each with the most accesses before it.
func (an *analyzer) distinctCodeUses() []codeUse {
	var out []codeUse
	at := map[string]int{}
	add := func(u codeUse) {
		key := fmt.Sprint(u.below) + "\x00" + u.path + "\x00" + strings.Join(u.names, "\x00")
		if i, ok := at[key]; ok {
			out[i].from = max(out[i].from, u.from)
			return
		}
		at[key] = len(out)
		out = append(out, u)
	}
	for _, u := range an.codeUses {
		add(u)
		for _, l := range an.codeThroughLinks(u) {
			add(l)
		}
	}
	return out
}

// codeThroughLinks returns the use u of a file once the symbolic links of
// the workdir on its way are followed, where that is another name in the
// workdir, from each candidate working directory: npx tool, with
// node_modules/.bin/tool -> ../../tools/tool.sh (a workspace package's
// program), runs tools/tool.sh, which a write of that name changes, as
// writeThroughLinks records a write under the name a link leads to
// (round 129). Uses of the files a directory holds (names) are compared
// by those names and left as they are.
func (an *analyzer) codeThroughLinks(u codeUse) []codeUse {
	if u.names != nil || an.workdir == "" || !path.IsAbs(an.workdir) || strings.ContainsAny(u.path, "*?[") {
		return nil
	}
	wd := path.Clean(an.workdir)
	realWd := filepath.ToSlash(pathmatch.Resolve(filepath.FromSlash(wd)))
	var out []codeUse
	for _, c := range an.a.cwds {
		walk := u.path
		if !path.IsAbs(walk) {
			walk = an.resolve(c, ".") + "/" + walk
		}
		real := filepath.ToSlash(pathmatch.ResolveFrom(filepath.FromSlash(walk), filepath.FromSlash(an.resolve(c, "."))))
		if !within(real, realWd) {
			continue
		}
		l := u
		l.path = path.Join(wd, strings.TrimPrefix(strings.TrimPrefix(real, realWd), "/"))
		if l.path != an.resolve(c, u.path) {
			out = append(out, l)
		}
	}
	return out
}

// mayWriteCode reports whether the write acc, whose path resolves to ws
// from the candidate working directories, may create or change a file of
// the code use u, whose path resolves to ps; nameOf reports whether a base
// name matches u's names.
func mayWriteCode(acc access, ws []string, u codeUse, ps []string, nameOf func(string) bool) bool {
	for _, w := range ws {
		for _, p := range ps {
			if u.names == nil {
				switch {
				case acc.pattern && patternMayMatch(w, p), acc.tree && within(p, w), w == p:
					return true
				}
				if ok, err := path.Match(p, w); ok || err != nil && strings.ContainsAny(p, "*?[") {
					return true // the file is a pattern (make -f 'm*')
				}
				continue
			}
			switch {
			case acc.tree && (within(p, w) || within(w, p)):
				return true
			case acc.pattern && (acc.tree || baseMayMatch(path.Base(w), u.names)):
				// Where a pattern leads is only known when the line runs.
				return true
			case !acc.pattern && (within(w, p) || !u.below && within(p, path.Dir(w))) && nameOf(path.Base(w)):
				// Below the directory, or in one above it, where the
				// tools look for their configuration (go.mod,
				// conftest.py, package.json).
				return true
			case inCodeDir(w, p, u.names, acc.pattern):
				// Below node_modules, where node finds a module by its
				// bare name (node -r y loads node_modules/y, whatever
				// its name).
				return true
			}
		}
	}
	return false
}

// componentMayBe reports whether a component of the path p is one of
// names, or, with pattern, a pattern that may match one.
func componentMayBe(p string, names []string, pattern bool) bool {
	for _, c := range strings.Split(p, "/") {
		for _, n := range names {
			if c == n {
				return true
			}
			if pattern {
				if m, err := path.Match(c, n); m || err != nil || strings.ContainsAny(c, "{}") {
					return true
				}
			}
		}
	}
	return false
}

// inCodeDir reports whether the file w lies below a directory named by one
// of names that ends in '/' (node_modules/), which lies below the
// directory p or whose parent is p or above it: every file there is code
// the use may load. With pattern, a directory of w that is a pattern may
// be such a directory.
func inCodeDir(w, p string, names []string, pattern bool) bool {
	for _, n := range names {
		d, ok := strings.CutSuffix(n, "/")
		if !ok {
			continue
		}
		for dir := path.Dir(w); dir != "/" && dir != "."; dir = path.Dir(dir) {
			if componentMayBe(path.Base(dir), []string{d}, pattern) && (within(w, p) || within(p, path.Dir(dir))) {
				return true
			}
		}
	}
	return false
}

// dirCodeFiles are the base names of the files a command that builds or
// runs the code of a directory (see packageDirs: go test, pytest, eslint)
// may load as code there: sources, and the configuration that names code
// to load or tells the tool how to build; a python's .pth files and the
// modules of node_modules (see languageFiles).
var dirCodeFiles = []string{"*.go", "*.s", "*.syso", "go.mod", "go.work", "*.py", "*.pyc", "*.so", "*.pth",
	"pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml", "mypy.ini", ".mypy.ini", ".flake8", "*.js", "*.mjs", "*.cjs", "*.ts", "*.mts", "*.cts",
	"*.jsx", "*.tsx", "package.json", "node_modules/", ".eslintrc", ".eslintrc.*", ".prettierrc", ".prettierrc.*",
	"*.c", "*.cc", "*.cpp", "*.cxx", "*.m", "*.S", "*.h", "*.hh", "*.hpp", "*.hxx",
	// Round redteam61: the other sources go builds in a cgo package
	// (assembly through the C preprocessor, Fortran, SWIG), linked
	// into the test binary it runs, and pytest 9's TOML settings and
	// the hidden .pytest.ini.
	"*.sx", "*.f", "*.F", "*.for", "*.f90", "*.swig", "*.swigcxx", "pytest.toml", ".pytest.toml", ".pytest.ini"}

// outputOptions are the options of the commands the analysis does not
// model that most often name the file they write.
var outputOptions = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"-o": true, "-out": true, "--out": true, "--output": true, "-O": true,
		"--output-file": true, "--outfile": true, "-outfile": true}
}}

// outputValue returns the file args[i] names as the value of an output
// option (-o f, -out f, --output=f, -of), or "".
func outputValue(args []word, i int) string {
	t := args[i].text
	if !strings.HasPrefix(t, "-") {
		if i > 0 && outputOptions.get()[args[i-1].text] {
			return t
		}
		return ""
	}
	if name, v, ok := strings.Cut(t, "="); ok {
		if outputOptions.get()[name] {
			return v
		}
		return ""
	}
	if len(t) > 2 && (t[1] == 'o' || t[1] == 'O') && !outputOptions.get()[t] {
		return t[2:]
	}
	return ""
}

// resolve returns p taken from the candidate working directory c, made
// absolute when the workdir is known, and cleaned.
func (an *analyzer) resolve(c, p string) string {
	if !path.IsAbs(p) {
		p = path.Join(c, p)
		if !path.IsAbs(p) && an.workdir != "" {
			p = path.Join(an.workdir, p)
		}
	}
	return path.Clean(p)
}

// within reports whether the clean path p is dir or lies below it.
func within(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}

// baseMatches reports whether the base name b matches one of names.
func baseMatches(b string, names []string) bool {
	for _, n := range names {
		if ok, _ := path.Match(n, b); ok {
			return true
		}
	}
	return false
}

// literalName reports whether b is, in any letter case, one of names
// that is no pattern (GNUmakefile, configure.ac, package.json; not *.c):
// a word naming that very file, given to a command the analysis does not
// model, may be what the command writes, whether as an operand (sponge
// GNUmakefile, cpp - GNUmakefile, dos2unix -n in GNUmakefile) or as a
// compiler's output (cc -c -o configure.ac x.c: m4 runs what the
// object's strings say).
func literalName(b string, names []string) bool {
	for _, n := range names {
		if !strings.ContainsAny(n, "*?[]{}\\") && !strings.HasSuffix(n, "/") && strings.EqualFold(n, b) {
			return true
		}
	}
	return false
}

// baseMayMatch reports whether the base name pattern pat may name a file
// matching one of names: each of names is a name or "*" and a suffix
// (*.py). Braces, which path.Match does not know, may match anything.
func baseMayMatch(pat string, names []string) bool {
	if strings.ContainsAny(pat, "{}") {
		return true
	}
	for _, n := range names {
		if suffix, ok := strings.CutPrefix(n, "*"); ok {
			if strings.HasSuffix(pat, suffix) || strings.ContainsAny(pat[len(pat)-1:], "*?]") {
				return true
			}
			continue
		}
		if ok, err := path.Match(pat, n); ok || err != nil {
			return true
		}
	}
	return false
}
