package builtin

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/lite-agent/lite-agent-go/internal/glob"
	"github.com/lite-agent/lite-agent-go/internal/utf16text"
	"github.com/lite-agent/lite-agent-go/tool"
)

// Limits of the search tools.
const (
	// DefaultMaxGlobResults is the most paths glob returns when
	// [SearchOptions.MaxResults] is zero.
	DefaultMaxGlobResults = 100
	// DefaultMaxListEntries is the most entries list_dir returns when
	// [SearchOptions.MaxListEntries] is zero.
	DefaultMaxListEntries = 1000
	// DefaultMaxVisited is the most directory entries one glob or grep
	// call looks at when [SearchOptions.MaxVisited] is zero.
	DefaultMaxVisited = 200_000
	// maxWalkDepth bounds how deep a search descends.
	maxWalkDepth = 64
	// maxIgnoreWork bounds the .gitignore patterns one glob or grep call
	// matches paths against, and copies, summed over the paths: a
	// .gitignore of a million bytes holds some 150,000 patterns, each
	// path is matched against all of them (80 ns each), so a search of
	// 200,000 entries took 40 minutes and did not look at its context
	// meanwhile (it now looks at it for every entry). 50 million is
	// about 4 seconds, and 500 patterns
	// against every entry of a 100,000-file repository.
	maxIgnoreWork = 50_000_000
)

// SearchOptions configures the read-only search tools glob, grep and
// list_dir. The zero value applies the documented defaults and filters
// nothing.
type SearchOptions struct {
	// Readable reports whether read_file, called in session sessionID,
	// may read the file (or list the directory) at path, given as read_file would be: relative to the
	// workspace with "/" separators, or absolute inside a read root. The
	// search tools leave out what it refuses, or fails for, and say how
	// many entries they left out, so that they reveal no more than
	// read_file would: give it the permission policy's verdict on a
	// read_file call. grep reads no file it refuses. nil allows
	// everything.
	Readable func(ctx context.Context, sessionID, path string) (bool, error)

	// MaxResults is the most paths glob returns; zero means
	// DefaultMaxGlobResults.
	MaxResults int

	// MaxListEntries is the most entries list_dir returns; zero means
	// DefaultMaxListEntries.
	MaxListEntries int

	// MaxOutputChars is the most characters, counted in UTF-16 code
	// units, one result of glob, grep or list_dir holds before its notes;
	// zero means MaxReadChars.
	MaxOutputChars int

	// MaxVisited is the most directory entries one glob or grep call
	// looks at before it stops and says its result is incomplete; zero
	// means DefaultMaxVisited.
	MaxVisited int
}

// searchTools holds what the search tools share. It is fixed at
// construction and safe for concurrent use.
type searchTools struct {
	ws           workspace
	wsID         fileID // the real workdir's identity at construction
	readable     func(ctx context.Context, sessionID, path string) (bool, error)
	maxFileBytes int64
	maxResults   int
	maxList      int
	maxChars     int
	maxVisited   int
}

// SearchTools returns glob, grep and list_dir, in that order. They read
// under the same rules as read_file with the same files options (see
// [FileTools]): the same workspace and read roots, and the same symlink
// policy for the path they are given; below that path they follow no
// symbolic link at all, so no search leads out of the workspace. grep
// skips files larger than files.MaxFileBytes. In the workspace, glob and
// grep skip what .gitignore files (from the workspace root down) and
// .git/info/exclude ignore, and never look inside .git.
//
// It returns an error for the files options [FileTools] refuses or a
// negative limit. The tools are safe for concurrent use.
func SearchTools(files FileOptions, opts SearchOptions) ([]tool.Tool, error) {
	ft, err := newFileTools(files)
	if err != nil {
		return nil, fmt.Errorf("search tools: %w", err)
	}
	if opts.MaxResults < 0 || opts.MaxListEntries < 0 || opts.MaxOutputChars < 0 || opts.MaxVisited < 0 {
		return nil, errors.New("search tools: negative limit")
	}
	st := &searchTools{
		ws:           ft.ws,
		wsID:         ft.wsID,
		readable:     opts.Readable,
		maxFileBytes: ft.maxFileBytes,
		maxResults:   cmp.Or(opts.MaxResults, DefaultMaxGlobResults),
		maxList:      cmp.Or(opts.MaxListEntries, DefaultMaxListEntries),
		maxChars:     cmp.Or(opts.MaxOutputChars, MaxReadChars),
		maxVisited:   cmp.Or(opts.MaxVisited, DefaultMaxVisited),
	}
	return []tool.Tool{
		tool.New("glob", globDescription, st.glob),
		tool.New("grep", grepDescription, st.grep),
		tool.New("list_dir", listDirDescription, st.listDir),
	}, nil
}

// allowed applies the Readable filter to the path p as the model sees it.
func (st *searchTools) allowed(ctx context.Context, session, p string) bool {
	if st.readable == nil {
		return true
	}
	ok, err := st.readable(ctx, session, p)
	return err == nil && ok
}

// A searchDir is the directory a search call works in.
type searchDir struct {
	t    target
	base *dirHandle // t.base, open; nil for a single-file read root
}

// display returns the path the model sees for rel, a path below the
// search's base in OS form: relative to the workspace with "/"
// separators, or absolute in a read root.
func (d *searchDir) display(rel string) string {
	if d.t.inWorkspace {
		return filepath.ToSlash(rel)
	}
	if d.t.base == "" {
		return rel
	}
	return filepath.Join(d.t.base, rel)
}

// open resolves p for a search. It returns an error Result (and a nil
// searchDir) for a path the rules refuse or that does not exist.
func (st *searchTools) open(ctx context.Context, session, p string) (*searchDir, *tool.Result, error) {
	if p == "" {
		p = "."
	}
	t, err := st.ws.resolve(ctx, session, p, accessRead)
	if err != nil {
		res, err := pathResult(err)
		return nil, &res, err
	}
	if t.missing {
		res := tool.Errorf("Path not found: %s", p)
		return nil, &res, nil
	}
	// The walk searches below t's real path without following a link:
	// the gate decided about the path given, which may have led elsewhere
	// then (a link put in the place of one of its directories since).
	if err := tool.CheckPath(ctx, t.real()); err != nil {
		res := tool.Errorf("%s", err)
		return nil, &res, nil
	}
	d := &searchDir{t: t}
	if t.base != "" {
		var want fileID
		if t.inWorkspace {
			want = st.wsID
		}
		if d.base, err = openWorkspace(t.base, want); err != nil {
			return nil, nil, fmt.Errorf("open %s: %w", p, unwrapPathError(err))
		}
	}
	return d, nil, nil
}

func (d *searchDir) close() {
	if d.base != nil {
		d.base.close()
	}
}

// errSearchChanged is the result of a search whose path changed between
// its resolution and its opening: a symbolic link took the place of a
// part of it, which a search never follows.
func errSearchChanged(p string) tool.Result {
	return tool.Errorf("%s kept changing while it was opened (a symbolic link took the place of a part of it); not searched", cmp.Or(p, "."))
}

// stat returns the mode of the search path itself, following no link
// (resolve already followed those it may, and a link put in the place of
// a part of the path since fails with errSymlink).
func (d *searchDir) stat() (fs.FileMode, error) {
	if d.base == nil {
		info, err := os.Lstat(d.t.rel)
		if err != nil {
			return 0, err
		}
		return info.Mode(), nil
	}
	if d.t.rel == "." {
		st, err := d.base.stat(".")
		if err != nil {
			return 0, err
		}
		return st.mode, nil
	}
	dir, err := d.base.openDir(filepath.Dir(d.t.rel), false)
	if err != nil {
		return 0, err
	}
	defer dir.close()
	st, err := dir.stat(filepath.Base(d.t.rel))
	if err != nil {
		return 0, err
	}
	if st.mode&fs.ModeSymlink != 0 {
		return 0, errSymlink
	}
	return st.mode, nil
}

// openFile opens the regular file rel below the search's base for
// reading, following no symbolic link on the way.
func (d *searchDir) openFile(rel string) (*os.File, error) {
	if d.base == nil {
		return os.OpenFile(rel, os.O_RDONLY|oNonblock|oNoFollow, 0)
	}
	dir, err := d.base.openDir(filepath.Dir(rel), false)
	if err != nil {
		return nil, err
	}
	defer dir.close()
	return dir.openFile(filepath.Base(rel), os.O_RDONLY|oNonblock|oNoFollow, 0)
}

// A walk visits the files below one directory of a searchDir.
type walk struct {
	ctx        context.Context
	dir        *searchDir
	gitignore  bool // honour .gitignore (in the workspace only)
	maxDepth   int  // deepest level below from that is visited; -1: any
	maxVisited int

	visited int  // entries looked at
	ignored int  // entries skipped by .gitignore
	full    bool // stopped at maxVisited
	work    int  // .gitignore patterns matched or copied
	heavy   bool // stopped at maxIgnoreWork
}

// spend adds n to the walk's .gitignore work and reports whether it is
// still within maxIgnoreWork; past it, the walk is marked heavy.
func (w *walk) spend(n int) bool {
	w.work += n
	if w.work > maxIgnoreWork {
		w.heavy = true
		return false
	}
	return true
}

// errStop ends a walk early without an error.
var errStop = errors.New("stop walking")

// A visitFunc is called for each regular file of a walk with its path
// below the search's base, its depth below the directory the walk started
// from (1 for a child), its entry, and its directory, open, through which
// it opens or stats the file by its name alone.
type visitFunc func(rel string, depth int, e fs.DirEntry, dir *dirHandle) error

// run calls visit for every regular file below from (a directory below the
// search's base, in OS form), in lexical order of paths. It does not
// follow symbolic links, skips .git directories and, when asked, ignored
// paths. A visit returning errStop ends the walk without error.
func (w *walk) run(from string, visit visitFunc) error {
	dir, err := w.dir.base.openDir(from, false)
	if err != nil {
		return nil // vanished, a link, or not a directory: nothing to find
	}
	defer dir.close()
	var rules *ignoreRules
	if w.gitignore {
		rules = w.ancestorRules(from)
	}
	err = w.dirEntries(dir, from, 1, rules, visit)
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

// ancestorRules returns the ignore rules of dir's parent directories, from
// the workspace root down.
func (w *walk) ancestorRules(dir string) *ignoreRules {
	rules := (*ignoreRules)(nil).with(w.dir.base, ".")
	w.spend(rules.size())
	if dir == "." {
		return rules
	}
	cur := "."
	parts := strings.Split(dir, string(filepath.Separator))
	for _, part := range parts[:len(parts)-1] {
		cur = filepath.Join(cur, part)
		if d, err := w.dir.base.openDir(cur, false); err == nil {
			if more := rules.with(d, cur); more != rules {
				rules = more
				w.spend(rules.size())
			}
			d.close()
		}
	}
	return rules
}

// dirEntries walks the directory dir, open as dirH, whose parent's
// ignore rules are parent.
func (w *walk) dirEntries(dirH *dirHandle, dir string, depth int, parent *ignoreRules, visit visitFunc) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	rules := parent
	if w.gitignore && dir != "." {
		if rules = parent.with(dirH, dir); rules != parent && !w.spend(rules.size()) {
			return errStop
		}
	}
	entries, err := dirH.readDir()
	if err != nil && len(entries) == 0 {
		return nil
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, e := range entries {
		if w.visited >= w.maxVisited {
			w.full = true
			return errStop
		}
		w.visited++
		if err := w.ctx.Err(); err != nil {
			return err
		}
		rel := filepath.Join(dir, e.Name())
		isDir := e.IsDir()
		if isDir && e.Name() == ".git" {
			continue
		}
		if w.gitignore && !w.spend(rules.size()) {
			return errStop
		}
		if w.gitignore && rules.ignored(strings.Split(filepath.ToSlash(rel), "/"), isDir) {
			w.ignored++
			continue
		}
		switch {
		case isDir:
			if (w.maxDepth >= 0 && depth >= w.maxDepth) || depth >= maxWalkDepth {
				continue
			}
			// openDir follows no link, so a directory swapped for a
			// link after readDir cannot lead the walk elsewhere, even
			// inside the workspace.
			sub, err := dirH.openDir(e.Name(), false)
			if err != nil {
				continue
			}
			err = w.dirEntries(sub, rel, depth+1, rules, visit)
			sub.close()
			if err != nil {
				return err
			}
		case e.Type().IsRegular():
			if err := visit(rel, depth, e, dirH); err != nil {
				return err
			}
		}
	}
	return nil
}

const globDescription = `Find files by name with a glob pattern, such as "**/*.go" or "src/**/*_test.{ts,tsx}". ` +
	`"*" matches within one path segment, "**" any number of segments, "{a,b}" either alternative. ` +
	`The pattern is matched against paths relative to path (default: the workspace root). ` +
	`Returns matching file paths, most recently modified first, at most 100; ` +
	`files ignored by .gitignore, symbolic links and .git are left out.`

type globInput struct {
	Pattern string `json:"pattern" jsonschema:"the glob to match file paths against, relative to path, such as **/*.go"`
	Path    string `json:"path,omitempty" jsonschema:"the directory to search, relative to the workspace or absolute inside it; the workspace root when omitted"`
}

// RefineSchema implements [tool.SchemaRefiner].
func (globInput) RefineSchema(s *jsonschema.Schema) {
	s.Properties["pattern"].MinLength = jsonschema.Ptr(1)
}

type globMatch struct {
	path  string
	mtime time.Time
}

func (st *searchTools) glob(ctx context.Context, c *tool.Call, in globInput) (tool.Result, error) {
	pat, err := glob.Compile(in.Pattern, glob.Options{})
	if err != nil {
		return tool.Errorf("Invalid glob pattern: %v", err), nil
	}
	base := pat.Base()
	if path.IsAbs(in.Pattern) || slices.Contains(strings.Split(base, "/"), "..") {
		return tool.Errorf("The pattern must be relative and stay inside path; give the directory to search as path"), nil
	}
	d, res, err := st.open(ctx, c.SessionID, in.Path)
	if d == nil {
		return *res, err
	}
	defer d.close()
	mode, err := d.stat()
	if errors.Is(err, errSymlink) {
		return errSearchChanged(in.Path), nil
	}
	if err != nil {
		return tool.Result{}, fmt.Errorf("glob %s: %w", in.Path, unwrapPathError(err))
	}
	if !mode.IsDir() {
		return tool.Errorf("Not a directory: %s", cmp.Or(in.Path, ".")), nil
	}
	searchRoot := d.t.rel
	from := filepath.Join(searchRoot, filepath.FromSlash(base))
	w := &walk{ctx: ctx, dir: d, gitignore: d.t.inWorkspace, maxDepth: -1, maxVisited: st.maxVisited}
	if depth := pat.Depth(); depth >= 0 {
		w.maxDepth = depth
		if base != "" {
			w.maxDepth -= strings.Count(base, "/") + 1
		}
	}
	var matches []globMatch
	withheld := 0
	if realDir(d.base, searchRoot, base) {
		err := w.run(from, func(rel string, _ int, e fs.DirEntry, dir *dirHandle) error {
			below, ok := within(searchRoot, rel)
			if searchRoot == "." {
				below, ok = rel, true
			}
			if !ok || !pat.Match(filepath.ToSlash(below)) {
				return nil
			}
			shown := d.display(rel)
			if !st.allowed(ctx, c.SessionID, shown) {
				withheld++
				return nil
			}
			var mtime time.Time
			if st, err := dir.stat(e.Name()); err == nil {
				mtime = st.mtime
			}
			matches = append(matches, globMatch{shown, mtime})
			return nil
		})
		if err != nil {
			return tool.Result{}, err
		}
	}
	slices.SortFunc(matches, func(a, b globMatch) int {
		if c := b.mtime.Compare(a.mtime); c != 0 {
			return c
		}
		return strings.Compare(a.path, b.path)
	})
	var out strings.Builder
	budget := newBudget(st.maxChars)
	shown := 0
	for _, m := range matches {
		if shown == st.maxResults || !budget.add(&out, m.path+"\n") {
			break
		}
		shown++
	}
	var notes []string
	if len(matches) == 0 {
		notes = append(notes, "No files found")
		if w.ignored > 0 {
			notes = append(notes, fmt.Sprintf("(%d paths ignored by .gitignore were not searched; use bash to search them)", w.ignored))
		}
	} else if shown < len(matches) {
		notes = append(notes, fmt.Sprintf("(Showing the %d most recently modified of %d matching files. Narrow the pattern or path to see the others.)", shown, len(matches)))
	}
	notes = append(notes, commonNotes(withheld, "matching files withheld", w)...)
	return tool.Text(finish(out.String(), notes)), nil
}

// realDir reports whether base (a slash-separated relative path, "" for
// none) names a directory below dir, below the search's open base,
// reached without a symbolic link: the literal start of a glob pattern is
// below the search path, where no link is followed. The walk opens it
// again without following a link.
func realDir(root *dirHandle, dir, base string) bool {
	if base == "" {
		return true
	}
	d, err := root.openDir(filepath.Join(dir, filepath.FromSlash(base)), false)
	if err != nil {
		return false
	}
	d.close()
	return true
}

// commonNotes returns the notes about files the permission policy withheld
// (what says which: "matching files withheld" or "files not searched")
// and a walk cut short.
func commonNotes(withheld int, what string, w *walk) []string {
	var notes []string
	if withheld > 0 {
		notes = append(notes, fmt.Sprintf("(%d %s: the permission policy does not allow reading them.)", withheld, what))
	}
	switch {
	case w != nil && w.heavy:
		notes = append(notes, fmt.Sprintf("(Search stopped after looking at %d entries: the .gitignore files hold too many patterns to match every path against; the result is incomplete. Search a narrower path, or use bash.)", w.visited))
	case w != nil && w.full:
		notes = append(notes, fmt.Sprintf("(Search stopped after looking at %d entries; the result is incomplete. Search a narrower path.)", w.visited))
	}
	return notes
}

// finish joins the body of a result and its notes.
func finish(body string, notes []string) string {
	body = strings.TrimSuffix(body, "\n")
	if len(notes) == 0 {
		return body
	}
	if body == "" {
		return strings.Join(notes, "\n")
	}
	return body + "\n" + strings.Join(notes, "\n")
}

// A budget counts the characters (UTF-16 code units) of a result.
type budget struct{ left int }

func newBudget(max int) *budget { return &budget{left: max} }

// add appends s to b when it fits in what is left and reports whether it
// did.
func (bu *budget) add(b *strings.Builder, s string) bool {
	n := utf16text.Len(s)
	if n > bu.left {
		bu.left = 0
		return false
	}
	bu.left -= n
	b.WriteString(s)
	return true
}
