package permission

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/glob"
	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// The rule ids of the gate's own verdicts about bash lines, which no
// policy can override.
const (
	// RuleBashProtected is the rule id of the deny a [Gate] gives a bash
	// line that writes or deletes a protected path (see
	// [GateOptions.Protected]), before any policy is asked.
	RuleBashProtected = "bash-protected"
	// RuleBashAnalysis is the rule id of the ask a [Gate] gives a bash line
	// that a policy allowed but the analysis does not fully understand;
	// with no approval handler it is denied.
	RuleBashAnalysis = "bash-analysis"
)

// maxSymlinks bounds the symbolic links one path resolution follows, as
// the kernel does.
const maxSymlinks = 40

// A bashScreen is the gate's own look at a bash line.
type bashScreen struct {
	// protected, when set, is the protected path the line writes or
	// deletes (as the line names it).
	protected string
	// opaque, when set, says why the line is not fully understood.
	opaque string
}

// screenBash analyzes a bash call's command line: whether it writes or
// deletes a protected path, and whether it is opaque, either to the
// analysis or because it writes outside the workdir's ordinary files.
func (g *Gate) screenBash(call Call) bashScreen {
	input := parseInput(call.Input)
	if m, ok := input.(map[string]any); ok {
		for k := range m {
			if k != "command" && strings.EqualFold(k, "command") {
				// encoding/json matches field names without case: a tool
				// could run this field while rules read "command".
				return bashScreen{opaque: "the input has a field " + clip(k) + " besides command"}
			}
		}
	}
	v, _ := lookup(input, []string{"command"})
	line, ok := v.(string)
	if !ok {
		return bashScreen{}
	}
	a := shellscan.Analyze(line, shellscan.Options{Home: g.home, Workdir: g.workdir})
	var s bashScreen
	if a.Opaque {
		s.opaque = a.Reason()
	} else if why := g.gitOutsideRepo(a); why != "" {
		s.opaque = why
	}
	for _, acc := range a.Accesses {
		if acc.Mode == shellscan.Read {
			continue
		}
		ancestors := acc.Mode == shellscan.Delete || acc.Tree
		for _, dir := range a.Dirs {
			target := g.absTarget(dir, acc.Path)
			if target == "" {
				if s.opaque == "" {
					s.opaque = "a path is written relative to an unknown directory"
				}
				continue
			}
			if acc.Pattern {
				if g.patternHits(target, ancestors) {
					return bashScreen{protected: acc.Path}
				}
				matches, _ := filepath.Glob(target)
				for _, m := range matches {
					if g.hitsProtected(m, ancestors) {
						return bashScreen{protected: acc.Path}
					}
				}
				if s.opaque != "" {
					continue
				}
				// A redirection to a pattern is opaque; a command's
				// pattern operands (sed -i … *.go) are fine when the
				// pattern stays in the workdir and matches only its
				// ordinary files.
				if acc.Redirect {
					s.opaque = "a redirection target is a pattern"
					continue
				}
				if why := g.outsideOrdinary(literalDir(target), shellscan.Write); why != "" {
					s.opaque = "the command " + acc.Mode.String() + " paths named by a pattern outside the workdir"
					continue
				}
				for _, m := range matches {
					if why := g.outsideOrdinary(m, acc.Mode); why != "" {
						s.opaque = why
						break
					}
				}
				continue
			}
			if g.hitsProtected(target, ancestors) {
				return bashScreen{protected: acc.Path}
			}
			if s.opaque == "" {
				if why := g.outsideOrdinary(target, acc.Mode); why != "" {
					s.opaque = why
				}
			}
		}
	}
	return s
}

// literalDir returns the directory part of a pattern before its first
// glob or brace character.
func literalDir(pattern string) string {
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

// gitOutsideRepo says why a git command of the line makes it opaque: git
// only runs under the protection of .git/config and .git/hooks when the
// workdir holds a real .git directory; elsewhere it may find a repository
// (a parent's, or a bare one the agent laid out) whose configuration, and
// the programs it names, nobody protects. It returns "" otherwise.
func (g *Gate) gitOutsideRepo(a *shellscan.Analysis) string {
	for _, c := range a.Commands {
		if path.Base(c.Name) != "git" || c.Wrapper {
			continue
		}
		sub := ""
		for _, arg := range c.Args {
			if !strings.HasPrefix(arg, "-") {
				sub = arg
				break
			}
		}
		switch sub {
		case "", "init", "clone", "version", "help":
			continue
		}
		if g.workdir == "" {
			return "git runs in an unknown workdir"
		}
		fi, err := os.Lstat(filepath.Join(g.workdir, ".git"))
		if err != nil || !fi.IsDir() {
			return "git runs where the workdir holds no .git directory, so the repository's configuration is not protected"
		}
		if gitWorktreeWriters[sub] {
			if p := g.protectedInWorktree(); p != "" {
				return "git " + sub + " may rewrite or remove the protected " + clip(p)
			}
		}
	}
	return ""
}

// gitWorktreeWriters are the git subcommands that write or remove files of
// the worktree, tracked or not, whatever their paths.
var gitWorktreeWriters = map[string]bool{
	"checkout": true, "switch": true, "restore": true, "reset": true, "stash": true, "merge": true,
	"pull": true, "am": true, "apply": true, "cherry-pick": true, "rebase": true, "revert": true,
	"mv": true, "rm": true, "clean": true,
}

// protectedInWorktree returns a protected path that exists in the
// worktree (the workdir outside .git), or "".
func (g *Gate) protectedInWorktree() string {
	gitDir := filepath.Join(g.workdir, ".git")
	for _, p := range g.protected {
		if !withinPath(p, g.workdir) || withinPath(p, gitDir) {
			continue
		}
		if _, err := os.Lstat(p); err == nil {
			return p
		}
	}
	return ""
}

// absTarget returns the absolute, unresolved path a line's access names
// from the candidate directory dir; "" when no workdir is known for a
// relative path.
//
// The path is joined, not cleaned: "link/.." must step back from where the
// link leads, as the kernel does, which resolvePath takes care of.
func (g *Gate) absTarget(dir, p string) string {
	sep := string(filepath.Separator)
	if !filepath.IsAbs(p) && dir != "" {
		p = dir + sep + p
	}
	if !filepath.IsAbs(p) {
		if g.workdir == "" {
			return ""
		}
		p = g.workdir + sep + p
	}
	return p
}

// specialFiles are the files outside the workdir a line may write.
var specialFiles = map[string]bool{"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true}

// outsideOrdinary says why writing (or deleting, with mode Delete) target
// makes a line opaque: it lies outside the workdir, or inside .git, or is
// not an ordinary file there (a device, a FIFO, a socket, a file with other
// hard links). It returns "" for an ordinary file of the workdir.
func (g *Gate) outsideOrdinary(target string, mode shellscan.Mode) string {
	if specialFiles[filepath.Clean(target)] {
		return ""
	}
	real := resolvePath(target)
	wd := g.workdir
	if wd == "" {
		return "the command writes a file and the workdir is unknown"
	}
	if !withinPath(real, resolvePath(wd)) {
		return "the command " + mode.String() + " outside the workdir: " + clip(target)
	}
	if mode == shellscan.Delete {
		return ""
	}
	if withinPath(real, filepath.Join(resolvePath(wd), ".git")) {
		return "the command writes inside .git, whose files are not ordinary files of the workdir: " + clip(target)
	}
	if fi, err := os.Stat(real); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		return "the command writes to a file that is not an ordinary file: " + clip(target)
	}
	if fi, err := os.Stat(real); err == nil && fi.Mode().IsRegular() && linkCount(fi) > 1 {
		return "the command writes to a file with other hard links: " + clip(target)
	}
	return ""
}

// hitsProtected reports whether target, lexically or resolved through
// symbolic links and "..", names a protected path or lies beneath one;
// with ancestors, also whether it names a directory holding one.
func (g *Gate) hitsProtected(target string, ancestors bool) bool {
	cands := []string{filepath.Clean(target), resolvePath(target)}
	for _, prot := range g.protected {
		for _, pp := range []string{prot, resolvePath(prot)} {
			for _, c := range cands {
				if withinPath(c, pp) || ancestors && withinPath(pp, c) {
					return true
				}
			}
		}
	}
	return false
}

// braceGroup matches a brace expansion group with no nested braces.
var braceGroup = regexp.MustCompile(`\{[^{}]*\}`)

// patternHits reports whether the glob pattern target could name a
// protected path or a path beneath one (with ancestors, also a directory
// holding one). The match errs on the side of matching: brace groups match
// anything within a segment, and a malformed pattern matches.
func (g *Gate) patternHits(target string, ancestors bool) bool {
	for _, alt := range braceWords(target, maxBraceAlternatives) {
		if g.globHits(alt, ancestors) {
			return true
		}
	}
	return false
}

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

// globHits is patternHits for a pattern without brace alternatives.
func (g *Gate) globHits(target string, ancestors bool) bool {
	pat := splitPath(filepath.ToSlash(target))
	for i, s := range pat {
		for braceGroup.MatchString(s) {
			s = braceGroup.ReplaceAllString(s, "*")
		}
		pat[i] = s
	}
	for _, prot := range g.protected {
		for _, pp := range []string{prot, resolvePath(prot)} {
			segs := splitPath(filepath.ToSlash(pp))
			n := min(len(pat), len(segs))
			ok := true
			for i := range n {
				if !segmentMatch(pat[i], segs[i]) {
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
func segmentMatch(pat, name string) bool {
	if strings.HasPrefix(name, ".") && pat != "" && (pat[0] == '*' || pat[0] == '?' || pat[0] == '[') {
		return false
	}
	if strings.Contains(pat, "[:") || strings.Contains(pat, "[=") || strings.Contains(pat, "[.") {
		return true // bash's [[:alpha:]], [[=a=]] and [[.a.]], which the glob engine does not read
	}
	g, err := glob.Compile(pat, glob.Options{LiteralUnbalanced: true})
	if err != nil {
		return true // a pattern we cannot read may match anything
	}
	return g.Match(name)
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

// withinPath reports whether p is base or lies beneath it; both are clean
// absolute paths.
func withinPath(p, base string) bool {
	if p == base {
		return true
	}
	if base == string(filepath.Separator) {
		return strings.HasPrefix(p, base)
	}
	return strings.HasPrefix(p, base+string(filepath.Separator))
}

// resolvePath returns the path the kernel would open for the absolute path
// p: symbolic links are followed and ".." steps back from where they led,
// component by component; the components that do not exist are appended
// as they are. A loop of links leaves the rest unresolved.
func resolvePath(p string) string {
	if !filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	cur := string(filepath.Separator)
	rest := splitComponents(p)
	links := 0
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, c)
		fi, err := os.Lstat(next)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 || links >= maxSymlinks {
			if err != nil {
				// Nothing below a missing component exists: the rest
				// is taken lexically.
				return filepath.Join(append([]string{next}, rest...)...)
			}
			cur = next
			continue
		}
		links++
		to, err := os.Readlink(next)
		if err != nil {
			cur = next
			continue
		}
		if filepath.IsAbs(to) {
			cur = string(filepath.Separator)
		}
		rest = append(splitComponents(to), rest...)
	}
	return cur
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
