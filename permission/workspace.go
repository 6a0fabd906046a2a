package permission

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"unicode"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// The file tools whose "path" input the policies resolve.
var fileTools = map[string]bool{"read_file": true, "write_file": true, "edit_file": true, "delete_file": true}

// spellings are the forms of one path that rules are matched against.
// Trusted forms are canonical and may grant; other forms (the path as
// given, its lexical cleaning, a ~ expansion) name the same file only
// possibly, so they may restrict but never grant. Guessed forms (a bash
// command only: the commands a program the analysis does not model may
// run, see [shellscan.Command]) restrict too, with startsWith on token
// boundaries.
type spellings struct {
	trusted, other, guessed []string
	// read are the commands of scripts a bash command may read (see
	// [shellscan.Command]): matched as guessed are, a deny or ask rule
	// that matches one asks.
	read []string
}

// add appends s to the trusted or the other forms unless it is there.
func (sp *spellings) add(s string, trusted bool) {
	if s == "" {
		return
	}
	s = filepath.ToSlash(s)
	for _, t := range sp.trusted {
		if t == s {
			return
		}
	}
	if trusted {
		for i, t := range sp.other {
			if t == s {
				sp.other = append(sp.other[:i], sp.other[i+1:]...)
				break
			}
		}
		sp.trusted = append(sp.trusted, s)
		return
	}
	for _, t := range sp.other {
		if t == s {
			return
		}
	}
	sp.other = append(sp.other, s)
}

// A resolver knows the machine a call runs on, as far as paths go.
type resolver interface {
	home() string    // the home directory; "" when unknown
	workdir() string // the absolute workdir; "" when unknown
	// spell returns the spellings of p, a path as a file tool or a
	// command was given it (relative to the workdir, or absolute).
	spell(p string) (spellings, error)
}

// resolved is a resolver with a per-call cache of path spellings and of
// command-line analyses, so that composed policies do the work once.
type resolved struct {
	r     resolver
	mu    sync.Mutex
	bash  map[string]*shellscan.Analysis
	paths map[string]spellResult
}

type spellResult struct {
	sp  spellings
	err error
}

func newResolved(r resolver) *resolved { return &resolved{r: r} }

// analyze returns the analysis of a command line.
func (c *resolved) analyze(line string) *shellscan.Analysis {
	c.mu.Lock()
	defer c.mu.Unlock()
	if a, ok := c.bash[line]; ok {
		return a
	}
	a := shellscan.Analyze(line, shellscan.Options{Home: c.r.home(), Workdir: c.r.workdir()})
	if c.bash == nil {
		c.bash = map[string]*shellscan.Analysis{}
	}
	c.bash[line] = a
	return a
}

// spell returns the spellings of p.
func (c *resolved) spell(p string) (spellings, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.paths[p]; ok {
		return r.sp, r.err
	}
	sp, err := c.r.spell(p)
	if c.paths == nil {
		c.paths = map[string]spellResult{}
	}
	c.paths[p] = spellResult{sp, err}
	return sp, err
}

// lexical resolves paths without touching the file system: it cleans
// them and, when the workdir is known, gives the absolute form and the
// form relative to the workdir.
type lexical struct {
	dir     string // absolute and clean, or ""
	homeDir string
}

func (l lexical) home() string    { return l.homeDir }
func (l lexical) workdir() string { return l.dir }

func (l lexical) spell(p string) (spellings, error) {
	var sp spellings
	clean := filepath.Clean(p)
	if l.dir == "" {
		sp.add(clean, true)
	} else {
		abs := clean
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(l.dir, clean)
		}
		sp.add(abs, true)
		if rel, ok := within(l.dir, abs); ok {
			sp.add(rel, true)
		}
	}
	sp.add(p, false)
	sp.add(clean, false)
	if x, ok := expandTilde(p, l.homeDir); ok {
		sp.add(filepath.Clean(x), false)
	}
	return sp, nil
}

// expandTilde expands a leading "~" or "~/" of p, and $HOME or ${HOME}
// anywhere in it, when home is known.
func expandTilde(p, home string) (string, bool) {
	if home == "" {
		return "", false
	}
	out := p
	if out == "~" || strings.HasPrefix(out, "~/") {
		out = home + out[1:]
	}
	out = strings.ReplaceAll(out, "${HOME}", home)
	out = replaceVar(out, "HOME", home)
	return out, out != p
}

// replaceVar replaces $name where it is not followed by an identifier
// character.
func replaceVar(s, name, value string) string {
	token := "$" + name
	var b strings.Builder
	for {
		i := strings.Index(s, token)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(token)
		if end < len(s) && (s[end] == '_' || s[end] < 0x80 && (unicode.IsLetter(rune(s[end])) || unicode.IsDigit(rune(s[end])))) {
			b.WriteString(s[:end])
			s = s[end:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(value)
		s = s[end:]
	}
}

// within returns the path of p relative to base, with '/' separators, when
// p is base or lies below it; both are clean absolute paths.
func within(base, p string) (string, bool) {
	if p == base {
		return ".", true
	}
	prefix := base
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	if strings.HasPrefix(p, prefix) {
		return filepath.ToSlash(p[len(prefix):]), true
	}
	return "", false
}

// WorkspaceOptions configures [Workspace].
type WorkspaceOptions struct {
	// Workdir is the workspace: the directory relative paths of the file
	// tools and of bash start from. "" means the working directory.
	Workdir string
	// HomeDir is the user's home directory, for ~ and $HOME in commands
	// and rules; "" means [os.UserHomeDir]. A relative one is made
	// absolute against the process's working directory when the policy is
	// built. When it cannot be found, ~ and $HOME in commands count as
	// unknown expansions.
	HomeDir string
}

// Workspace returns a policy that resolves paths on the file system before
// p decides. It applies to read_file, write_file, edit_file and
// delete_file, and to the paths a bash command reads, writes and deletes:
//
//   - a file tool's "path" that is missing or not a string is denied with
//     the reason "file path must be a string";
//   - the path is made absolute against the workdir, cleaned of ".", ".."
//     and duplicate slashes, and its symbolic links are resolved (a
//     dangling link to its target); a path that cannot be resolved (a
//     link loop, a directory that cannot be read) is denied;
//   - rules see the real path in two forms, absolute and, inside the
//     workspace, relative with '/' separators; rules that deny or ask also
//     see the path as given, its lexical cleaning and its ~ expansion;
//   - on a volume that ignores case, the real path takes the case of the
//     names on disk, so a rule about ".env" matches ".ENV"; on a
//     case-sensitive volume nothing is folded.
//
// Without Workspace, policies resolve paths lexically against
// [Options.Workdir]. The returned policy is safe for concurrent use.
func Workspace(p Policy, opts WorkspaceOptions) (Policy, error) {
	r, err := newFSResolver(opts.Workdir, opts.HomeDir)
	if err != nil {
		return nil, err
	}
	return &workspacePolicy{p: p, r: r}, nil
}

type workspacePolicy struct {
	p Policy
	r *fsResolver
}

var _ Policy = (*workspacePolicy)(nil)

func (w *workspacePolicy) Check(ctx context.Context, call Call) (Verdict, error) {
	if call.ws == nil {
		call.ws = newResolved(w.r)
	}
	if fileTools[call.Name] {
		input := parseInput(call.Input)
		v, ok := lookup(input, []string{"path"})
		s, isString := v.(string)
		if !ok || !isString {
			return Verdict{Decision: Deny, Reason: "file path must be a string"}, nil
		}
		sp, err := call.ws.spell(s)
		if err != nil {
			return Verdict{Decision: Deny, Reason: "cannot resolve the path: " + err.Error()}, nil
		}
		if call.seen != nil && len(sp.trusted) > 0 {
			call.seen.set(filepath.FromSlash(sp.trusted[0]))
		}
	}
	return w.p.Check(ctx, call)
}

// fsResolver resolves paths on the file system.
type fsResolver struct {
	dir     string // the workdir as configured, absolute and clean
	real    string // dir with its symbolic links resolved
	homeDir string
	fold    bool // the workdir's volume ignores case
}

func newFSResolver(workdir, home string) (*fsResolver, error) {
	dir, err := filepath.Abs(workdir)
	if err != nil {
		return nil, fmt.Errorf("permission: workspace: %w", err)
	}
	home = absHome(home)
	real, err := realPath(dir)
	if err != nil {
		return nil, fmt.Errorf("permission: workspace %s: %w", dir, err)
	}
	return &fsResolver{dir: dir, real: real, homeDir: home, fold: caseInsensitive(real)}, nil
}

func (r *fsResolver) home() string    { return r.homeDir }
func (r *fsResolver) workdir() string { return r.dir }

func (r *fsResolver) spell(p string) (spellings, error) {
	lex, _ := lexical{dir: r.dir, homeDir: r.homeDir}.spell(p)
	abs := filepath.Clean(p)
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(r.dir, abs)
	}
	real, err := realPath(abs)
	if err != nil {
		return spellings{}, err
	}
	if r.fold {
		real = diskCase(real)
	}
	var sp spellings
	sp.add(real, true)
	if rel, ok := within(r.real, real); ok {
		sp.add(rel, true)
		sp.add(filepath.Join(r.dir, filepath.FromSlash(rel)), true)
	}
	for _, s := range lex.trusted {
		sp.add(s, false)
	}
	for _, s := range lex.other {
		sp.add(s, false)
	}
	return sp, nil
}

// maxLinks bounds the symbolic links one resolution follows.
const maxLinks = 40

// realPath resolves every symbolic link of the absolute, clean path p,
// dangling ones included (to the path they point at). Components that do
// not exist are kept as they are.
func realPath(p string) (string, error) {
	links := 0
	done := string(filepath.Separator) // the resolved prefix
	if v := filepath.VolumeName(p); v != "" {
		done = v + string(filepath.Separator)
		p = p[len(v):]
	}
	rest := strings.Split(strings.Trim(p, string(filepath.Separator)), string(filepath.Separator))
	for len(rest) > 0 {
		name := rest[0]
		rest = rest[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			done = filepath.Dir(done)
			continue
		}
		next := filepath.Join(done, name)
		info, err := os.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			// The rest does not exist: keep it as it is.
			return filepath.Join(append([]string{next}, rest...)...), nil
		case err != nil:
			return "", fmt.Errorf("%s: %w", next, errors.Unwrap(err))
		case info.Mode()&fs.ModeSymlink != 0:
			links++
			if links > maxLinks {
				return "", fmt.Errorf("too many symbolic links at %s", next)
			}
			target, err := os.Readlink(next)
			if err != nil {
				return "", fmt.Errorf("%s: %w", next, errors.Unwrap(err))
			}
			target = filepath.FromSlash(target)
			if filepath.IsAbs(target) {
				done = string(filepath.Separator)
				if v := filepath.VolumeName(target); v != "" {
					done = v + string(filepath.Separator)
					target = target[len(v):]
				}
			}
			parts := strings.Split(strings.Trim(target, string(filepath.Separator)), string(filepath.Separator))
			rest = append(parts, rest...)
		default:
			done = next
		}
	}
	return done, nil
}

// caseInsensitive reports whether the volume of the existing directory dir
// ignores case: the path with one letter's case flipped names the same
// file.
func caseInsensitive(dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		base := filepath.Base(d)
		flipped := flipCase(base)
		if flipped != base {
			a, err := os.Stat(d)
			if err != nil {
				return false
			}
			b, err := os.Stat(filepath.Join(filepath.Dir(d), flipped))
			return err == nil && os.SameFile(a, b)
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// flipCase flips the case of the first letter of s that has two cases.
func flipCase(s string) string {
	for i, r := range s {
		u, l := unicode.ToUpper(r), unicode.ToLower(r)
		switch {
		case r != u:
			return s[:i] + string(u) + s[i+len(string(r)):]
		case r != l:
			return s[:i] + string(l) + s[i+len(string(r)):]
		}
	}
	return s
}

// sameFolded reports whether a and b name one file on a case-insensitive
// volume: equal in any letter case, or under the full case folding APFS
// applies (permißions.json is permissions.json, conﬁg is config).
func sameFolded(a, b string) bool {
	return strings.EqualFold(a, b) || pathmatch.FoldName(a) == pathmatch.FoldName(b)
}

// diskCase returns p with each existing component spelled as its directory
// lists it, matching names regardless of case when no exact match exists.
func diskCase(p string) string {
	vol := filepath.VolumeName(p)
	parts := strings.Split(strings.Trim(p[len(vol):], string(filepath.Separator)), string(filepath.Separator))
	dir := vol + string(filepath.Separator)
	for i, name := range parts {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return filepath.Join(append([]string{dir}, parts[i:]...)...)
		}
		match := ""
		for _, e := range entries {
			if e.Name() == name {
				match = name
				break
			}
			if match == "" && sameFolded(e.Name(), name) {
				match = e.Name()
			}
		}
		if match == "" {
			return filepath.Join(append([]string{dir}, parts[i:]...)...)
		}
		dir = filepath.Join(dir, match)
	}
	return dir
}
