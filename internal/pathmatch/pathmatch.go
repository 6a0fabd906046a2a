// Package pathmatch decides whether a path, or a bash glob pattern, may
// name one of a set of protected paths: paths are resolved through
// symbolic links as the kernel opens them, and patterns are expanded and
// matched as bash expands and matches them, erring on the side of a match.
// It is the path knowledge of the permission gate's bash screen.
package pathmatch

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/lite-agent/lite-agent-go/internal/glob"
)

// maxSymlinks bounds the symbolic links one path resolution follows, as
// the kernel does.
const maxSymlinks = 40

// LiteralDir returns the directory part of a pattern before its first
// glob or brace character.
func LiteralDir(pattern string) string {
	i := strings.IndexAny(pattern, "*?[{")
	if i < 0 {
		return filepath.Dir(pattern)
	}
	j := strings.LastIndexByte(pattern[:i], filepath.Separator)
	if j <= 0 {
		return string(filepath.Separator)
	}
	return pattern[:j]
}

// Hits reports whether target, lexically or resolved through
// symbolic links and "..", names a path of protected or lies beneath one;
// with ancestors, also whether it names a directory holding one. Names
// are compared in any letter case, as a case-insensitive file system
// (macOS's default) opens them: .Lite-Agent/permissions.json is the
// protected .lite-agent/permissions.json there.
func Hits(target string, protected []string, ancestors bool) bool {
	return NewSet(protected).Hits(target, ancestors)
}

// A Set is a list of protected paths prepared for many calls of
// [Set.Hits]: each path's own form and its form resolved through
// symbolic links, folded, computed once. Hits on a Set answers as [Hits]
// on its paths did when the Set was made: a Set is for one decision,
// not to keep across changes of the file system.
type Set struct {
	forms []string
}

// NewSet returns protected prepared for [Set.Hits].
func NewSet(protected []string) *Set { return newSet(nil, protected) }

// newSet is NewSet, resolving through l.
func newSet(l *Lookups, protected []string) *Set {
	s := &Set{forms: make([]string, 0, 2*len(protected))}
	for _, prot := range protected {
		s.forms = append(s.forms, foldName(prot), foldName(l.Resolve(prot)))
	}
	return s
}

// Hits is [Hits] for the paths of s.
func (s *Set) Hits(target string, ancestors bool) bool {
	return s.HitsResolved(target, Resolve(target), ancestors)
}

// HitsResolved is [Set.Hits] for a caller that holds Resolve(target)
// already, resolved: it saves walking the path again.
func (s *Set) HitsResolved(target, resolved string, ancestors bool) bool {
	cands := [2]string{foldName(filepath.Clean(target)), foldName(resolved)}
	for _, pp := range s.forms {
		for _, c := range cands {
			if Within(c, pp) || ancestors && Within(pp, c) {
				return true
			}
		}
	}
	return false
}

// braceGroup matches a brace expansion group with no nested braces.
// It is compiled on first use.
var braceGroup = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{[^{}]*\}`) })

// PatternHits reports whether the bash glob pattern target could name a
// path of protected or a path beneath one (with ancestors, also a directory
// holding one). The match errs on the side of matching: brace groups match
// anything within a segment, and a malformed pattern matches.
func PatternHits(target string, protected []string, ancestors bool) bool {
	return patternHits(nil, target, protected, ancestors)
}

// patternHits is PatternHits, resolving the protected paths through l.
func patternHits(l *Lookups, target string, protected []string, ancestors bool) bool {
	for _, alt := range braceWords(target, maxBraceAlternatives) {
		if globHits(l, alt, protected, ancestors) {
			return true
		}
	}
	return false
}

// SegmentMayBe reports whether a segment of the bash glob pattern may
// match name (".git"), brace alternatives expanded; see PatternHits.
func SegmentMayBe(pattern, name string) bool {
	for _, alt := range braceWords(pattern, maxBraceAlternatives) {
		for _, seg := range splitPath(filepath.ToSlash(alt)) {
			for braceGroup().MatchString(seg) {
				seg = braceGroup().ReplaceAllString(seg, "*")
			}
			if segmentMatch(seg, name) {
				return true
			}
		}
	}
	return false
}

// BraceMayBeAbsolute reports whether a word bash's brace expansion makes
// of the relative pattern p is an absolute path ({/etc,.}/x, as the value
// of dd's of= or of an option, where no tilde expands). A pattern braceWords
// gives up on that starts with a brace holding a slash may be one.
func BraceMayBeAbsolute(p string) bool {
	if strings.HasPrefix(p, "/") {
		return false
	}
	words := braceWords(p, maxBraceAlternatives)
	if len(words) == 1 && words[0] == p && strings.HasPrefix(p, "{") && strings.Contains(p, "/") {
		return true
	}
	for _, w := range words {
		if strings.HasPrefix(w, "/") {
			return true
		}
	}
	return false
}

// BraceWords returns the words bash's brace expansion makes of s ({a,b},
// nested too); s itself past maxBraceAlternatives words and for sequences
// ({1..9}).
func BraceWords(s string) []string { return braceWords(s, maxBraceAlternatives) }

// maxBraceAlternatives bounds the words braceWords makes of one pattern.
const maxBraceAlternatives = 256

// braceWords expands the brace alternatives of s ({a,b}, nested too) as
// bash does. Past limit words, and for sequences ({1..9}), it gives up and
// returns s, whose brace groups globHits then matches loosely.
func braceWords(s string, limit int) []string {
	open := -1
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
		case '}':
			if depth == 0 {
				continue
			}
			depth--
			if depth > 0 {
				continue
			}
			body := s[open+1 : i]
			alts := splitTopLevel(body)
			if len(alts) < 2 {
				continue // not an alternation: {a} and {a..b} stay
			}
			var out []string
			for _, alt := range alts {
				for _, rest := range braceWords(s[:open]+alt+s[i+1:], limit) {
					out = append(out, rest)
					if len(out) > limit {
						return []string{s}
					}
				}
			}
			return out
		}
	}
	return []string{s}
}

// splitTopLevel splits a brace body at its commas outside nested braces.
func splitTopLevel(body string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, body[start:i])
				start = i + 1
			}
		}
	}
	return append(out, body[start:])
}

// globHits is PatternHits for a pattern without brace alternatives.
func globHits(l *Lookups, target string, protected []string, ancestors bool) bool {
	pat := splitPath(filepath.ToSlash(target))
	for i, s := range pat {
		for braceGroup().MatchString(s) {
			s = braceGroup().ReplaceAllString(s, "*")
		}
		pat[i] = s
	}
	// Each segment's matchers, as written and folded, compiled on first
	// use and kept for every protected path.
	matchers := make([]func(string) bool, 2*len(pat))
	match := func(k int, p, name string) bool {
		if matchers[k] == nil {
			matchers[k] = segmentMatchFunc(p)
		}
		return matchers[k](name)
	}
	for _, prot := range protected {
		for _, pp := range []string{prot, l.Resolve(prot)} {
			segs := splitPath(filepath.ToSlash(pp))
			n := min(len(pat), len(segs))
			ok := true
			for i := range n {
				// a segment without glob characters reaches the file
				// system as written, which may fold its case
				if !match(2*i, pat[i], segs[i]) && !match(2*i+1, foldName(pat[i]), foldName(segs[i])) {
					ok = false
					break
				}
			}
			if ok && (len(pat) >= len(segs) || ancestors) {
				return true
			}
		}
	}
	return false
}

// segmentMatch reports whether the glob pat may match the name of one path
// segment, as bash matches it without dotglob: a leading dot only matches
// a pattern that does not start with *, ? or [. Classes are bash's: "[!x]"
// and "[^x]" both negate (path.Match would read "!" as a member).
func segmentMatch(pat, name string) bool { return segmentMatchFunc(pat)(name) }

// segmentMatchFunc returns segmentMatch for pat, compiled once.
func segmentMatchFunc(pat string) func(name string) bool {
	if strings.Contains(pat, "[:") || strings.Contains(pat, "[=") || strings.Contains(pat, "[.") {
		// bash's [[:alpha:]], [[=a=]] and [[.a.]], which the glob
		// engine does not read
		return func(name string) bool {
			return !strings.HasPrefix(name, ".") || pat == "" || pat[0] != '*' && pat[0] != '?' && pat[0] != '['
		}
	}
	return segmentMatcher(pat)
}

// segmentMatcher compiles pat once: its function reports whether pat may
// match a name as segmentMatch does, a bracket expression holding one of
// bash's [:class:], [=e=] or [.c.] taken for any one character.
func segmentMatcher(pat string) func(name string) bool {
	wild := pat != "" && (pat[0] == '*' || pat[0] == '?' || pat[0] == '[')
	g, err := glob.Compile(looseClasses(pat), glob.Options{LiteralUnbalanced: true})
	return func(name string) bool {
		if wild && strings.HasPrefix(name, ".") {
			return false
		}
		return err != nil || g.Match(name) // a pattern we cannot read may match anything
	}
}

// looseClasses replaces each bracket expression of pat that holds a
// [:class:], [=e=] or [.c.] with "?".
func looseClasses(pat string) string {
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			b.WriteByte(pat[i])
			if i+1 < len(pat) {
				i++
				b.WriteByte(pat[i])
			}
			continue
		case '[':
			end, special := bracketEnd(pat, i)
			if end < 0 {
				break
			}
			if special {
				b.WriteByte('?')
			} else {
				b.WriteString(pat[i : end+1])
			}
			i = end
			continue
		}
		b.WriteByte(pat[i])
	}
	return b.String()
}

// bracketEnd returns the index of the "]" that ends the bracket expression
// opening at pat[i], or -1, and whether it holds a [:class:], [=e=] or
// [.c.].
func bracketEnd(pat string, i int) (int, bool) {
	j := i + 1
	if j < len(pat) && (pat[j] == '!' || pat[j] == '^') {
		j++
	}
	if j < len(pat) && pat[j] == ']' {
		j++ // a "]" first is a member
	}
	special := false
	for ; j < len(pat); j++ {
		switch c := pat[j]; {
		case c == ']':
			return j, special
		case c == '\\':
			j++
		case c == '[' && j+1 < len(pat) && strings.IndexByte(":=.", pat[j+1]) >= 0:
			k := strings.Index(pat[j+2:], string(pat[j+1])+"]")
			if k < 0 {
				return -1, false
			}
			special = true
			j += 2 + k + 1
		}
	}
	return -1, false
}

// Glob returns the existing paths the absolute bash glob pattern may
// expand to, brace alternatives expanded, erring on the side of a match:
// a name is taken when segmentMatch matches it as bash does in a UTF-8
// locale, one character to a "?", or as bash does in the C locale, one
// byte to a "?" ("d??tgit" names "dötgit" there). Unlike filepath.Glob it
// reads "[!x]" as bash does, as the class of all but x.
func Glob(pattern string) []string {
	var out []string
	seen := map[string]bool{}
	for _, alt := range braceWords(filepath.ToSlash(pattern), maxBraceAlternatives) {
		if !strings.HasPrefix(alt, "/") {
			continue
		}
		for _, m := range globFrom("/", splitPath(alt)) {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// globFrom returns the existing paths below dir that segs match.
func globFrom(dir string, segs []string) []string {
	if len(segs) == 0 {
		if _, err := os.Lstat(dir); err != nil {
			return nil
		}
		return []string{dir}
	}
	seg, rest := segs[0], segs[1:]
	if !strings.ContainsAny(seg, "*?[{") {
		return globFrom(filepath.Join(dir, seg), rest)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	// A brace group braceWords left (a sequence, too many alternatives)
	// matches anything within the segment, as in globHits.
	for braceGroup().MatchString(seg) {
		seg = braceGroup().ReplaceAllString(seg, "*")
	}
	match, matchBytes := segmentMatcher(seg), segmentMatcher(bytesAsRunes(seg))
	var out []string
	for _, e := range entries {
		name := e.Name()
		if match(name) || !ascii(seg+name) && matchBytes(bytesAsRunes(name)) {
			out = append(out, globFrom(filepath.Join(dir, name), rest)...)
		}
	}
	return out
}

// ascii reports whether s holds only ASCII bytes.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// bytesAsRunes returns s with each byte outside ASCII made a character of
// its own, so that a pattern matches it as bash in the C locale does.
func bytesAsRunes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

// splitPath splits an absolute slash path into its segments, ignoring
// empty ones.
func splitPath(p string) []string {
	var out []string
	for _, s := range strings.Split(p, "/") {
		if s != "" && s != "." {
			out = append(out, s)
		}
	}
	return out
}

// foldName returns name as a case-insensitive APFS volume (macOS's
// default) compares it, as far as an ASCII name can be reached: in lower
// case, with the letters whose full Unicode case folding is ASCII
// replaced by it (ſ as s, the Kelvin sign as k, ß and ẞ as ss, and the
// ligatures ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ as their letters), so that
// .lite-agent/permißions.json and .git/conﬁg name the protected files;
// the code points HFS+ ignores are dropped (see asciiFolds).
func foldName(name string) string {
	return asciiFolds().Replace(strings.ToLower(name))
}

// FoldName returns name folded as a case-insensitive APFS volume folds it
// (see foldName): two names with the same FoldName are one file there.
func FoldName(name string) string { return foldName(name) }

// asciiFolds replaces the lower-case letters whose full case folding
// (Unicode's CaseFolding.txt, statuses C and F, which APFS applies) is
// made of ASCII letters. It is built on first use.
// It also drops the code points an HFS+ volume ignores when it compares
// names (U+200C to U+200F, U+202A to U+202E, U+206A to U+206F and U+FEFF,
// after Apple's TN1150): .git/hoo\u200cks is .git/hooks there.
var asciiFolds = sync.OnceValue(func() *strings.Replacer {
	pairs := []string{"\u017f", "s", "\u00df", "ss", "\ufb00", "ff", "\ufb01", "fi", "\ufb02", "fl",
		"\ufb03", "ffi", "\ufb04", "ffl", "\ufb05", "st", "\ufb06", "st", "\ufeff", ""}
	for _, r := range [][2]rune{{0x200c, 0x200f}, {0x202a, 0x202e}, {0x206a, 0x206f}} {
		for c := r[0]; c <= r[1]; c++ {
			pairs = append(pairs, string(c), "")
		}
	}
	return strings.NewReplacer(pairs...)
})

// Within reports whether p is base or lies beneath it; both are clean
// absolute paths.
func Within(p, base string) bool {
	if p == base {
		return true
	}
	if base == string(filepath.Separator) {
		return strings.HasPrefix(p, base)
	}
	return len(p) > len(base) && p[len(base)] == filepath.Separator && strings.HasPrefix(p, base)
}

// Resolve returns the path the kernel would open for the absolute path
// p: symbolic links are followed and ".." steps back from where they led,
// component by component; the components that do not exist are appended
// as they are. A loop of links leaves the rest unresolved.
func Resolve(p string) string { return ResolveFrom(p, "") }

// ResolveFrom is Resolve for a process whose working directory is the
// absolute path cwd: its own directory in /proc (/proc/self,
// /proc/thread-self, a task's) leads through its cwd to cwd, a process's
// directory (/proc/<pid> too) through its root to /, where Resolve, in the caller's process,
// would follow the caller's own /proc/self/cwd (a project's link to
// /proc/self/cwd/.. is the parent of the directory a command runs in,
// not of the gate's), and what lies beneath its fd directory, or beneath
// the cwd of a process named by its number, is taken lexically. With cwd "" it is Resolve.
func ResolveFrom(p, cwd string) string { return resolveFrom(nil, p, cwd) }

// resolveFrom is ResolveFrom, looking names up through l.
func resolveFrom(l *Lookups, p, cwd string) string {
	if !filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	w := linkWalk{cwd: cwd, stopAtMissing: true, lookups: l}
	if filepath.IsAbs(cwd) {
		w.visit = func(cur, c string, _ []string) walkStep {
			switch {
			case procDir(cur) && c == "cwd" && !ownProcDir(cur):
				// Another process's working directory (see
				// OtherProcessCwd): what lies beneath it is taken
				// lexically.
				return walkStop
			case procDir(cur) && c == "fd":
				// The process's descriptors, which the caller's /proc
				// does not show: what lies beneath one is taken
				// lexically (see ThroughDescriptor).
				return walkStop
			case procDir(filepath.Join(cur, c)) || procDir(cur) && c == "task":
				// Another process's directory, which the caller's
				// /proc may not show (its /proc/self is the caller).
				return walkLexically
			}
			return walkLookUp
		}
	}
	cur, rest, stopped := w.run(p)
	if stopped {
		// Nothing below a missing component exists, and a descriptor's
		// insides and another process's working directory are unknown:
		// the rest is taken lexically.
		return filepath.Join(append([]string{cur}, rest...)...)
	}
	return cur
}

// ThroughDescriptor reports whether the absolute path p, opened by a
// process, goes through one of its file descriptors as a directory: a
// component after /proc/<pid>/fd/<n> (also /proc/self, a task's, and
// /dev/fd/<n>, /dev/stdin, /dev/stdout, /dev/stderr, lexically or through
// the links that lead there), for a process whose working directory is
// cwd (see [ResolveFrom]). A descriptor may be a directory the line
// opened (cat /dev/fd/3/home/.ssh/id_ed25519 3<.. read the key): what
// lies beneath it is only known when the line runs. With at, p ending at
// the descriptor counts too (grep -R x /dev/fd/3 reads the tree the
// descriptor is), but for standard output and error, which a line writes
// (tar czf /dev/stdout .) and which are seldom a directory.
func ThroughDescriptor(p, cwd string, at bool) bool { return throughDescriptor(nil, p, cwd, at) }

// throughDescriptor is ThroughDescriptor, looking names up through l.
func throughDescriptor(l *Lookups, p, cwd string, at bool) bool {
	if !filepath.IsAbs(p) {
		return false
	}
	min := 2 // the descriptor's number and a component beneath it
	if at {
		min = 1
	}
	w := linkWalk{
		cwd:     cwd,
		lookups: l,
		// The caller's own descriptors and directories lead where the
		// caller's do, not the command's.
		keepProcLinks: true,
		visit: func(cur, c string, rest []string) walkStep {
			slash := filepath.ToSlash(cur)
			switch {
			case (slash == "/dev" || procDir(cur)) && c == "fd" && len(rest) >= min &&
				(len(rest) >= 2 || rest[0] != "1" && rest[0] != "2"):
				return walkStop
			case slash == "/dev" && (c == "stdin" && len(rest) >= min-1 || (c == "stdout" || c == "stderr") && len(rest) >= 1):
				return walkStop
			}
			return walkLookUp
		},
	}
	_, _, stopped := w.run(p)
	return stopped
}

// walkStep is what a linkWalk's visitor makes of one component.
type walkStep int

const (
	// walkLookUp looks the component up, following it if it is a
	// symbolic link.
	walkLookUp walkStep = iota
	// walkLexically steps into the component as it is written.
	walkLexically
	// walkStop ends the walk at the component.
	walkStop
)

// linkWalk walks an absolute path component by component as the kernel
// resolves it, for a process whose working directory is cwd: "." is
// passed over, ".." steps back from where the walk has come, symbolic
// links are followed (at most maxSymlinks), and, with an absolute cwd, a
// process's directory in /proc leads through its cwd to cwd and through
// its root to /. It is the one walk of ResolveFrom and ThroughDescriptor.
type linkWalk struct {
	cwd string
	// visit, when set, is asked about each component c but "." and ".."
	// before the walk looks it up, with the directory cur the walk has
	// reached and the components after c.
	visit func(cur, c string, rest []string) walkStep
	// stopAtMissing ends the walk at a component that does not exist.
	stopAtMissing bool
	// keepProcLinks steps into a link within a process's directory in
	// /proc (counting it) as it is written, not to where it leads.
	keepProcLinks bool
	// lookups, when set, remembers the names the walk looks up.
	lookups *Lookups
}

// run walks the absolute path p. It returns the directory the walk
// reached and, when the visitor or a missing component (stopAtMissing)
// stopped it, stopped and the components from the one it stopped at.
func (w linkWalk) run(p string) (cur string, rest []string, stopped bool) {
	cur = string(filepath.Separator)
	rest = splitComponents(p)
	links := 0
	for len(rest) > 0 {
		c := rest[0]
		switch c {
		case ".":
			rest = rest[1:]
			continue
		case "..":
			cur = filepath.Dir(cur)
			rest = rest[1:]
			continue
		}
		if w.visit != nil {
			switch w.visit(cur, c, rest[1:]) {
			case walkStop:
				return cur, rest, true
			case walkLexically:
				cur = filepath.Join(cur, c)
				rest = rest[1:]
				continue
			}
		}
		rest = rest[1:]
		if procDir(cur) && (c == "cwd" || c == "root") && filepath.IsAbs(w.cwd) && links < maxSymlinks {
			links++
			cur = string(filepath.Separator)
			if c == "cwd" {
				rest = append(splitComponents(w.cwd), rest...)
			}
			continue
		}
		next := filepath.Join(cur, c)
		n := w.lookups.look(next)
		if n.missing && w.stopAtMissing {
			return cur, append([]string{c}, rest...), true
		}
		if n.missing || !n.link || links >= maxSymlinks {
			cur = next
			continue
		}
		links++
		to := n.to
		if n.toErr || w.keepProcLinks && procDir(cur) {
			cur = next
			continue
		}
		if filepath.IsAbs(to) {
			cur = string(filepath.Separator)
		}
		rest = append(splitComponents(to), rest...)
	}
	return cur, nil, false
}

// OtherProcessCwd reports whether the path p, as written or cleaned,
// goes through the working directory of a process named by its number
// (/proc/1/cwd/x, /proc/1234/task/1234/cwd, ../../proc/1/cwd/x), and
// returns what follows that directory, cleaned and rooted ("/x"). Such a
// process is not the command's, whose own are /proc/self and
// /proc/thread-self (a line names its shell's number only as $$ or
// $BASHPID, words known when it runs), and only the running system tells
// where its directory is: the agent's, an editor's in the home.
func OtherProcessCwd(p string) (string, bool) {
	if !strings.Contains(p, "proc/") {
		return "", false
	}
	p = filepath.ToSlash(p)
	for _, q := range []string{p, path.Clean(p)} {
		segs := strings.Split(q, "/")
		for i := 0; i+2 < len(segs); i++ {
			if segs[i] != "proc" || segs[i+1] == "" || strings.Trim(segs[i+1], "0123456789") != "" {
				continue
			}
			at := i + 2
			if segs[at] == "task" && at+2 < len(segs) {
				at += 2
			}
			if segs[at] == "cwd" {
				return path.Clean("/" + strings.Join(segs[at+1:], "/")), true
			}
		}
	}
	return "", false
}

// procDir reports whether the absolute path p is a process's or a
// task's directory in /proc: /proc/<pid>, /proc/self, /proc/thread-self,
// or one of those followed by /task/<tid>.
func procDir(p string) bool {
	if !strings.Contains(p, "proc") {
		return false // the walks ask of every directory they pass
	}
	parts := splitComponents(p)
	if len(parts) != 2 && len(parts) != 4 || parts[0] != "proc" || !IsProcess(parts[1]) {
		return false
	}
	return len(parts) == 2 || parts[2] == "task" && IsProcess(parts[3])
}

// ownProcDir reports whether the process's directory p (see procDir) is
// the opening process's own: /proc/self, /proc/thread-self, or a task of
// one of them.
func ownProcDir(p string) bool {
	parts := splitComponents(p)
	return len(parts) >= 2 && (parts[1] == "self" || parts[1] == "thread-self")
}

// IsProcess reports whether name names a process's directory in /proc:
// a number, self or thread-self.
func IsProcess(name string) bool {
	if name == "self" || name == "thread-self" {
		return true
	}
	if name == "" {
		return false
	}
	for _, r := range name {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// splitComponents splits a path into its components, keeping "." and "..".
func splitComponents(p string) []string {
	var out []string
	for _, s := range strings.Split(filepath.ToSlash(p), "/") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
