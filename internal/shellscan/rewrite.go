package shellscan

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// rewritesNames reports whether what st prints may be names that a
// filter or a format of the line made out of others, so that a command
// reading them as names (xargs, read, a loop, a command substitution read
// as a path) reads names no word of the line shows and that need not lie
// where the names they were made of lie. The names a project holds are
// its own data, but a program the line spells out turns them into any
// name it likes: with the project's h/.ssh/id_ed25519 (which the same
// line may make), find h | sed s,^h,../home, | xargs cat, find .x. | tr
// -d x | xargs cat and find h -printf '../home/%P\n' | xargs cat read
// ~/.ssh/id_ed25519 (round 107). What passes whole lines on (sort, head,
// grep, see passes), the commands that list names (find, ls, git
// ls-files, xargs ls or grep -l) and two edits that keep a name where it
// is (sed 's,^,./,', tr between separators, see keepsNames) rewrite none.
func (an *analyzer) rewritesNames(st *syntax.Stmt, src string) bool {
	if st == nil {
		return false
	}
	switch x := st.Cmd.(type) {
	case nil:
		return false
	case *syntax.BinaryCmd:
		if x.Op != syntax.Pipe && x.Op != syntax.PipeAll {
			return an.rewritesNames(x.X, src) || an.rewritesNames(x.Y, src)
		}
		c, isCall := x.Y.Cmd.(*syntax.CallExpr)
		switch {
		case !isCall:
			// A loop or a group: what its commands print, as they
			// are fed what x.X prints (… | while read -r f; do echo
			// "$f"; done).
			return an.rewritesNames(x.X, src) || an.rewritesNames(x.Y, src)
		case an.passes(x.Y, src) || isCall && (an.listsNames(c, src) || an.keepsNames(c, src)):
			return an.rewritesNames(x.X, src)
		case isCall && echoOrPrintf(x.Y):
			return an.rewriter(c, src) // its own words, not its input
		}
		return true // a filter of what x.X prints
	case *syntax.CallExpr:
		return an.rewriter(x, src)
	case *syntax.TestClause, *syntax.ArithmCmd, *syntax.DeclClause, *syntax.LetClause, *syntax.FuncDecl:
		return false
	}
	// A group, a subshell, a loop, a test: what any statement in it
	// prints.
	found := false
	syntax.Walk(st.Cmd, func(n syntax.Node) bool {
		if s, ok := n.(*syntax.Stmt); ok && !found && s != st {
			found = an.rewritesNames(s, src)
			return false
		}
		return !found
	})
	return found
}

// rewrittenReason is why a line that reads names rewritesNames made is
// opaque.
const rewrittenReason = "a command reads names that a filter or a format of the line made out of others"

// rewriter reports whether the simple command c prints names it makes
// out of others (see rewritesNames): a filter of text (sed, tr, awk, cut
// … given by name, also behind a wrapper such as env or timeout) other
// than the edits keepsNames allows, a word that is a format with text
// beside its directives (find -printf '../home/%P\n', stat -c, git
// --format, date +…), realpath --relative-to (a path from another
// directory), or echo and printf given a word that joins text to
// an expansion (echo ../home/$f) or a variable or command substitution
// that holds such names.
func (an *analyzer) rewriter(c *syntax.CallExpr, src string) bool {
	if len(c.Args) == 0 {
		return false
	}
	ws := make([]word, len(c.Args))
	for i, a := range c.Args {
		ws[i] = an.word(a, src)
	}
	if ws[0].dynamic || ws[0].special {
		return true // a program only known when the line runs
	}
	if name := path.Base(ws[0].text); name == "echo" || name == "printf" {
		format := name == "printf"
		for i, a := range c.Args[1:] {
			w := ws[i+1]
			if format && !w.dynamic && strings.HasPrefix(w.text, "-") {
				continue // printf -v, --: then the format
			}
			if w.dynamic && (format || !bareExpansion(a) || an.holdsRewritten(a, src)) ||
				format && formatWithText(w.text) {
				return true
			}
			format = false
		}
		return false
	}
	if wrappers[path.Base(ws[0].text)] && slices.ContainsFunc(ws, func(w word) bool { return w.dynamic || w.special }) {
		return true // env $c …: a program only known when the line runs
	}
	if an.keepsNames(c, src) {
		return false
	}
	if findPrintsText(ws) {
		return true
	}
	for _, w := range ws {
		if w.dynamic || w.special {
			continue
		}
		if textFilters[path.Base(w.text)] || formatWithText(w.text) {
			return true
		}
		if _, v, ok := strings.Cut(w.text, "="); ok && strings.HasPrefix(w.text, "-") && formatWithText(v) {
			return true // --format=…, --printf=…, --time-style=+…
		}
		if strings.HasPrefix(w.text, "--relative-") {
			// realpath --relative-to=a/b a/home/.ssh/id_ed25519
			// prints ../home/.ssh/id_ed25519: a path from a/b, read
			// from here.
			return true
		}
	}
	return false
}

// formatWrites marks as filtered (see filtered) the files find -fprintf
// writes with a format that has text of its own (see formatText): find h
// -fprintf out '../home/%P\n'; xargs cat < out read the key; and a file
// that -fprintf and another action both write.
func (an *analyzer) formatWrites(ws []word) {
	if len(ws) == 0 || path.Base(ws[0].text) != "find" {
		return
	}
	files := map[string]int{}
	for i := 1; i+1 < len(ws); i++ {
		switch ws[i].text {
		case "-fprint", "-fprint0", "-fls":
			files[ws[i+1].text]++
		case "-fprintf":
			if i+2 < len(ws) && !ws[i+1].dynamic && (ws[i+2].dynamic || formatText(ws[i+2].text)) {
				an.writeFiltered(ws[i+1].text)
			}
			files[ws[i+1].text] += 2 // joined with what else goes there
		}
	}
	for f, n := range files {
		if n > 2 {
			// find h -fprintf out %H -fprint out: two actions
			// writing one file join what they write.
			an.writeFiltered(f)
		}
	}
}

// findPrintsText reports whether ws, the words of a command, are find
// printing names with text of its own: a -printf format with text (see
// formatText), directive or not (find h -printf ../home/ -printf
// '%P\n'), or a -printf beside another action that prints to the
// standard output, which joins what they print (find . -printf %H
// -print prints ../home/.ssh/id_ed25519 for ./home/.ssh/id_ed25519,
// round 108).
func findPrintsText(ws []word) bool {
	if len(ws) == 0 || path.Base(ws[0].text) != "find" {
		return false
	}
	printf, prints := false, 0
	for i := 1; i < len(ws); i++ {
		switch ws[i].text {
		case "-printf":
			if i+1 < len(ws) && (ws[i+1].dynamic || ws[i+1].special || formatText(ws[i+1].text)) {
				return true
			}
			printf = true
			prints++
			i++
		case "-print", "-print0", "-ls":
			prints++
		}
	}
	return printf && prints > 1
}

// wrappers are the programs that run a program named by one of their
// words.
var wrappers = map[string]bool{
	"env": true, "command": true, "builtin": true, "exec": true, "timeout": true, "nice": true, "nohup": true,
	"stdbuf": true, "busybox": true, "sudo": true, "doas": true, "time": true, "xargs": true, "ionice": true,
	"setsid": true, "unbuffer": true, "chronic": true, "flock": true, "taskset": true, "chrt": true,
}

// textFilters are the programs that print a change of the text they read
// (or of their program's own text) rather than whole lines of it: what
// comes out may be any name their program spells.
var textFilters = map[string]bool{
	"sed": true, "gsed": true, "tr": true, "awk": true, "gawk": true, "mawk": true, "nawk": true, "busybox": true,
	"cut": true, "rev": true, "paste": true, "fold": true, "colrm": true, "column": true, "expand": true,
	"unexpand": true, "iconv": true, "base64": true, "base32": true, "basenc": true, "xxd": true, "od": true,
	"hexdump": true, "strings": true, "nl": true, "pr": true, "fmt": true, "jq": true, "gojq": true, "yq": true,
	"perl": true, "ruby": true, "python": true, "python3": true, "node": true, "dd": true, "numfmt": true,
	"envsubst": true, "sd": true, "join": true, "m4": true, "recode": true, "uconv": true, "printf": true,
	"echo": true,
}

// bareExpansion reports whether w is one parameter expansion or command
// substitution and nothing else ("$f", $1, $(ls)), quoted or not: echo
// prints it as the value is, adding no text of the line's to it.
func bareExpansion(w *syntax.Word) bool {
	parts := w.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return false
	}
	switch p := parts[0].(type) {
	case *syntax.ParamExp:
		return !p.Excl && !p.Length && !p.Width && p.Index == nil && p.Slice == nil && p.Repl == nil &&
			p.Exp == nil && p.Names == 0
	case *syntax.CmdSubst:
		return true
	}
	return false
}

// holdsRewritten reports whether w holds a command or process
// substitution whose output rewritesNames, or a variable the line set to a value holding
// one (f=$(find h | sed s,^h,../home,); echo $f | xargs cat).
func (an *analyzer) holdsRewritten(w *syntax.Word, src string) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			found = found || slices.ContainsFunc(x.Stmts, func(s *syntax.Stmt) bool { return an.rewritesNames(s, src) })
			return false
		case *syntax.ProcSubst:
			found = found || slices.ContainsFunc(x.Stmts, func(s *syntax.Stmt) bool { return an.rewritesNames(s, src) })
			return false
		case *syntax.ParamExp:
			if x.Param != nil {
				found = found || slices.ContainsFunc(an.a.vars[x.Param.Value], an.rewrittenIn)
			}
		}
		return !found
	})
	return found
}

// rewrittenIn reports whether v, a word's text with its unknown parts as
// their source, holds a command substitution whose output rewritesNames
// (see Analysis.Rewritten).
func (an *analyzer) rewrittenIn(v string) bool {
	return slices.ContainsFunc(an.a.rewritten, func(r string) bool { return strings.Contains(v, r) })
}

// listsNames reports whether c, fed names on its standard input, prints
// names it was fed or names beneath or above them, unchanged: xargs
// running ls (not a long listing), dirname, basename (no suffix),
// realpath (not relative to another directory), grep -l or echo with no
// other word, and no replacement string (-I, which puts the name into
// other words).
func (an *analyzer) listsNames(c *syntax.CallExpr, src string) bool {
	rest, ok := an.xargsProgram(c, src)
	if !ok || slices.ContainsFunc(rest, func(w word) bool { return formatWithText(w.text) }) {
		return false
	}
	opts := func(allowed ...string) bool {
		return !slices.ContainsFunc(rest[1:], func(w word) bool {
			return strings.HasPrefix(w.text, "-") && !slices.Contains(allowed, w.text)
		})
	}
	switch rest[0].text {
	case "echo":
		return len(rest) == 1
	case "dirname":
		return opts("-z", "--zero", "--")
	case "basename":
		return opts("-a", "--multiple", "-z", "--zero", "--")
	case "realpath":
		// Not --relative-to or --relative-base, which print a path
		// from another directory, read from this one.
		return opts("-e", "-m", "-s", "-q", "-z", "-L", "-P", "--canonicalize-existing", "--canonicalize-missing",
			"--strip", "--no-symlinks", "--quiet", "--zero", "--logical", "--physical", "--")
	case "ls":
		// Not a long listing, which prints where links lead.
		return !slices.ContainsFunc(rest[1:], func(w word) bool {
			return strings.HasPrefix(w.text, "--") && w.text != "--" && w.text != "--all" && w.text != "--almost-all" &&
				w.text != "--directory" || strings.HasPrefix(w.text, "-") && strings.ContainsAny(w.text, "lnogL")
		})
	case "grep", "egrep", "fgrep", "rg":
		return slices.ContainsFunc(rest[1:], func(w word) bool {
			return w.text == "--files-with-matches" || w.text == "--files-without-match" ||
				strings.HasPrefix(w.text, "-") && !strings.HasPrefix(w.text, "--") && strings.ContainsAny(w.text, "lL")
		})
	}
	return false
}

// xargsProgram returns the words of the program xargs c runs and its
// arguments, when c is xargs with only the options that pass names on as
// they are (-0, -r, -n, -P, -L, -t) and every word is known; false
// otherwise.
func (an *analyzer) xargsProgram(c *syntax.CallExpr, src string) ([]word, bool) {
	if len(c.Args) < 2 || c.Args[0].Lit() != "xargs" {
		return nil, false
	}
	var ws []word
	for _, a := range c.Args[1:] {
		w := an.word(a, src)
		if w.dynamic || w.special || w.pattern {
			return nil, false
		}
		ws = append(ws, w)
	}
	for i := 0; i < len(ws); i++ {
		switch t := ws[i].text; {
		case t == "-0" || t == "-r" || t == "--null" || t == "--no-run-if-empty" || t == "-t" || t == "--verbose":
		case (t == "-n" || t == "-P" || t == "-L") && i+1 < len(ws):
			i++
		case len(t) > 2 && (t[:2] == "-n" || t[:2] == "-P" || t[:2] == "-L") && isDigits(t[2:]):
		case strings.HasPrefix(t, "-"):
			return nil, false
		default:
			return ws[i:], true
		}
	}
	return nil, false
}

// readsNamedFiles reports whether st takes names from its input (see
// readsNames) for a command that may read the files they name: not xargs
// running echo, printf or kill, which only print or signal them.
func (an *analyzer) readsNamedFiles(st *syntax.Stmt, src string) bool {
	if !readsNames(st) {
		return false
	}
	if c, ok := st.Cmd.(*syntax.CallExpr); ok {
		if rest, ok := an.xargsProgram(c, src); ok {
			switch rest[0].text {
			case "echo", "printf", "kill":
				return false
			}
		}
	}
	return true
}

// keepsNames reports whether c is one of two edits that leave each name
// it is fed where it is: sed adding ./ or a directory of the project
// before each line (git ls-files | sed 's,^,./,' | xargs wc -l, ls doc |
// sed 's,^,doc/,' | xargs cat, see prefixesDir), and tr turning newlines
// into NULs or back (tr '\n' '\0') or squeezing them.
func (an *analyzer) keepsNames(c *syntax.CallExpr, src string) bool {
	if len(c.Args) < 2 {
		return false
	}
	var ws []string
	for _, a := range c.Args[1:] {
		w := an.word(a, src)
		if w.dynamic || w.special || w.pattern {
			return false
		}
		ws = append(ws, w.text)
	}
	switch c.Args[0].Lit() {
	case "sed":
		scripts := 0
		for i := 0; i < len(ws); i++ {
			switch ws[i] {
			case "-E", "-r", "--regexp-extended", "-u", "--unbuffered":
				continue
			case "-e", "--expression":
				i++
				if i == len(ws) {
					return false
				}
			default:
				if strings.HasPrefix(ws[i], "-") {
					return false
				}
			}
			if scripts++; scripts > 1 || !prefixesDir(ws[i]) {
				return false
			}
		}
		return scripts == 1
	case "tr":
		// Newlines to NULs or back, or squeezed: the names stay
		// whole and apart. Deleting a character may join two names
		// or the parts of one (..\r/home, tr -d '\r'), and changing
		// another into a separator may split one.
		sep := func(w string) bool { d := decodeTrSet(w); return d == "\n" || d == "\x00" }
		return len(ws) == 2 && sep(ws[0]) && sep(ws[1]) || len(ws) == 2 && ws[0] == "-s" && sep(ws[1])
	}
	return false
}

// prefixesDir reports whether s is a sed script that adds a directory
// of the project before each line and does nothing else: s,^,./, or
// s/^/doc\//, with any delimiter, the delimiter escaped in the directory,
// and an optional g. The directory is relative, ends in a slash and
// climbs nowhere: each of its parts is a plain name (., .. and a leading
// / or ~ are not), so the names it makes lie beneath it; a directory that
// is a link the project holds is judged as the project's links are.
func prefixesDir(s string) bool {
	if len(s) < 6 || s[0] != 's' {
		return false
	}
	d := s[1]
	rest, ok := strings.CutPrefix(s[2:], "^"+string(d))
	if !ok {
		return false
	}
	var dir strings.Builder
	i := 0
	for ; i < len(rest) && rest[i] != d; i++ {
		if rest[i] == '\\' {
			if i+1 == len(rest) || rest[i+1] != d {
				return false
			}
			i++
		}
		dir.WriteByte(rest[i])
	}
	if i == len(rest) || rest[i+1:] != "" && rest[i+1:] != "g" {
		return false
	}
	p, ok := strings.CutSuffix(dir.String(), "/")
	if !ok {
		return false
	}
	for k, part := range strings.Split(p, "/") {
		if part == "." && k == 0 {
			continue
		}
		if part == "" || part == "." || part == ".." || part[0] == '-' || part[0] == '~' ||
			strings.ContainsFunc(part, func(r rune) bool { return !strings.ContainsRune(plainNameChars, r) }) {
			return false
		}
	}
	return true
}

// plainNameChars are the characters of a plain name prefixesDir takes.
const plainNameChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._@+-"

// decodeTrSet returns a tr set of one newline or NUL as the byte it
// stands for, and any other set as it is.
func decodeTrSet(s string) string {
	switch s {
	case `\n`, `\012`, "\n":
		return "\n"
	case `\0`, `\000`, "\x00":
		return "\x00"
	}
	return s
}

// formatWithText reports whether w is a format (find -printf, stat -c,
// git --format, date +…) that prints text of its own beside its
// directives, a dot, a slash or a tilde that may join the names it
// prints to a path elsewhere (find h -printf '../home/%P\n'): a word that
// starts with '+' (date, ls --time-style), or one holding a directive
// (%P, %(path)) and such text other than a leading ./ (see formatText).
func formatWithText(w string) bool {
	if t, ok := strings.CutPrefix(w, "+"); ok {
		// date +FMT, ls --time-style=+FMT: they print no names, and
		// a format with no directive is text the line spells, which
		// the gate reads as such (date +doc/a | xargs cat).
		return formatDirective().MatchString(t) && strings.ContainsAny(formatDirective().ReplaceAllString(t, ""), "./~\\")
	}
	return formatDirective().MatchString(w) && formatText(w)
}

// formatText reports whether the format w prints text that may join the
// names it prints to a path elsewhere: a dot, a slash, a tilde or an
// escape other than a newline, a tab or a NUL, once its directives and a
// leading ./ are taken out (\056\056\057 is ../ to find -printf, stat
// --printf and printf), or two directives side by side, which join two
// names into one (find . -printf '%H%p\n' prints ../home/.ssh/id_ed25519
// for ./home/.ssh/id_ed25519, round 108).
func formatText(w string) bool {
	for _, m := range formatDirective().FindAllStringIndex(w, -1) {
		if m[1] < len(w) && w[m[1]] == '%' && !strings.HasPrefix(w[m[0]:], "%%") && !strings.HasPrefix(w[m[1]:], "%%") {
			return true
		}
	}
	t := strings.TrimPrefix(formatDirective().ReplaceAllString(w, ""), "./")
	for u := ""; u != t; {
		u, t = t, formatSeparator().ReplaceAllString(t, "$1")
	}
	return strings.ContainsAny(t, "./~\\")
}

// formatSeparator matches the escapes of a newline, a tab or a NUL in a
// format, not an octal escape that starts like one (\056).
var formatSeparator = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\\(?:n|t|0(?:00)?)($|[^0-7])`)
})

// formatDirective matches a directive of the formats formatWithText
// reads: %P, %-10s, %%, %(path), %{…}, %C(red).
var formatDirective = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`%(?:\([^)]*\)|\{[^}]*\}|[-+ #0-9.]*[a-zA-Z%@])`)
})
