package builtin

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/lite-agent/lite-agent-go/internal/glob"
	"github.com/lite-agent/lite-agent-go/internal/utf16text"
	"github.com/lite-agent/lite-agent-go/tool"
)

const (
	// maxGrepLineBytes is the most bytes of one line grep searches; the
	// rest of a longer line is skipped.
	maxGrepLineBytes = 1 << 20
	// maxShownLineChars is the most characters of a matching line grep
	// shows.
	maxShownLineChars = 500
	// binarySniffBytes is how much of a file grep reads to decide that it
	// is binary (it holds a NUL byte).
	binarySniffBytes = 8000
)

// fileTypes maps the names grep's type filter accepts to the globs of
// their file names.
var fileTypes = map[string][]string{
	"c":          {"*.c", "*.h"},
	"cpp":        {"*.cc", "*.cpp", "*.cxx", "*.hh", "*.hpp", "*.hxx", "*.h"},
	"css":        {"*.css", "*.scss", "*.sass", "*.less"},
	"go":         {"*.go"},
	"html":       {"*.html", "*.htm"},
	"java":       {"*.java"},
	"js":         {"*.js", "*.jsx", "*.mjs", "*.cjs"},
	"json":       {"*.json", "*.jsonl"},
	"kotlin":     {"*.kt", "*.kts"},
	"make":       {"Makefile", "makefile", "GNUmakefile", "*.mk"},
	"md":         {"*.md", "*.markdown"},
	"proto":      {"*.proto"},
	"py":         {"*.py", "*.pyi"},
	"rb":         {"*.rb"},
	"rust":       {"*.rs"},
	"sh":         {"*.sh", "*.bash", "*.zsh"},
	"sql":        {"*.sql"},
	"swift":      {"*.swift"},
	"toml":       {"*.toml"},
	"ts":         {"*.ts", "*.tsx", "*.mts", "*.cts"},
	"txt":        {"*.txt"},
	"xml":        {"*.xml"},
	"yaml":       {"*.yaml", "*.yml"},
	"dockerfile": {"Dockerfile", "*.dockerfile"},
}

// fileTypeNames returns the names of fileTypes, sorted.
func fileTypeNames() []string {
	names := make([]string, 0, len(fileTypes))
	for n := range fileTypes {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

const grepDescription = `Search file contents with a regular expression (Go RE2 syntax, matched line by line). ` +
	`Returns matching lines as "path:line: text", in path order. ` +
	`Narrow the search with path (a directory or a file), include (a glob such as "*.go" matched against file names, ` +
	`or against paths relative to path when it has a "/"), or type (a file type such as go, py, js, ts, md). ` +
	`Files ignored by .gitignore, binary files, symbolic links and .git are skipped. Output is cut at 50,000 characters.`

type grepInput struct {
	Pattern    string `json:"pattern" jsonschema:"the regular expression to search for (Go RE2 syntax)"`
	Path       string `json:"path,omitempty" jsonschema:"the directory or file to search, relative to the workspace or absolute inside it; the workspace root when omitted"`
	Include    string `json:"include,omitempty" jsonschema:"only search files whose name matches this glob, such as *.go or *.{ts,tsx}; a glob with a / is matched against the path relative to path"`
	Type       string `json:"type,omitempty" jsonschema:"only search files of this type, such as go, py, js, ts, rust, md, json, yaml"`
	IgnoreCase bool   `json:"ignore_case,omitempty" jsonschema:"match letters of either case"`
}

// RefineSchema implements [tool.SchemaRefiner].
func (grepInput) RefineSchema(s *jsonschema.Schema) {
	s.Properties["pattern"].MinLength = jsonschema.Ptr(1)
	names := fileTypeNames()
	enum := make([]any, len(names))
	for i, n := range names {
		enum[i] = n
	}
	s.Properties["type"].Enum = enum
}

// grepRun is the state of one grep call.
type grepRun struct {
	st       *searchTools
	re       *regexp.Regexp
	br       *bufio.Reader // reused from file to file
	line     []byte        // reused from line to line
	out      strings.Builder
	budget   *budget
	matches  int
	files    int // files with a match
	full     bool
	withheld int
	binary   int
	large    int
	longLine int
}

func (st *searchTools) grep(ctx context.Context, c *tool.Call, in grepInput) (tool.Result, error) {
	expr := in.Pattern
	if in.IgnoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return tool.Errorf("Invalid regular expression: %s", regexpProblem(err)), nil
	}
	var filters []*glob.Pattern
	var includeByPath bool
	if in.Include != "" {
		p, err := glob.Compile(in.Include, glob.Options{})
		if err != nil {
			return tool.Errorf("Invalid include glob: %v", err), nil
		}
		filters = append(filters, p)
		includeByPath = strings.Contains(in.Include, "/")
	}
	var typeFilter []*glob.Pattern
	if in.Type != "" {
		globs, ok := fileTypes[in.Type]
		if !ok {
			return tool.Errorf("Unknown file type %q; known types: %s", in.Type, strings.Join(fileTypeNames(), ", ")), nil
		}
		for _, g := range globs {
			typeFilter = append(typeFilter, glob.MustCompile(g))
		}
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
		return tool.Result{}, fmt.Errorf("grep %s: %w", in.Path, unwrapPathError(err))
	}
	g := &grepRun{st: st, re: re, budget: newBudget(st.maxChars)}
	var w *walk
	switch {
	case mode.IsRegular():
		// A file named explicitly is searched even when ignored.
		shown := d.display(d.t.rel)
		if !st.allowed(ctx, c.SessionID, shown) {
			g.withheld++
			break
		}
		open := func() (*os.File, error) { return d.openFile(d.t.rel) }
		if err := g.file(ctx, open, shown); err != nil {
			return tool.Result{}, err
		}
	case mode.IsDir():
		searchRoot := d.t.rel
		w = &walk{ctx: ctx, dir: d, gitignore: d.t.inWorkspace, maxDepth: -1, maxVisited: st.maxVisited}
		err := w.run(searchRoot, func(rel string, _ int, e fs.DirEntry, dir *dirHandle) error {
			name := e.Name()
			if len(typeFilter) > 0 && !slices.ContainsFunc(typeFilter, func(p *glob.Pattern) bool { return p.Match(name) }) {
				return nil
			}
			if len(filters) > 0 {
				subject := name
				if includeByPath {
					subject = rel
					if searchRoot != "." {
						subject, _ = within(searchRoot, rel)
					}
					subject = filepath.ToSlash(subject)
				}
				if !filters[0].Match(subject) {
					return nil
				}
			}
			shown := d.display(rel)
			if !st.allowed(ctx, c.SessionID, shown) {
				g.withheld++
				return nil
			}
			open := func() (*os.File, error) { return dir.openFile(name, os.O_RDONLY|oNonblock|oNoFollow, 0) }
			if err := g.file(ctx, open, shown); err != nil {
				return err
			}
			if g.full {
				return errStop
			}
			return nil
		})
		if err != nil {
			return tool.Result{}, err
		}
	default:
		return tool.Errorf("Not a regular file or directory: %s", in.Path), nil
	}
	var notes []string
	switch {
	case g.full:
		notes = append(notes, fmt.Sprintf("[Output truncated at %d characters after %d matching lines in %d files; narrow the pattern, path, include or type to see the rest.]",
			st.maxChars, g.matches, g.files))
	case g.matches == 0:
		notes = append(notes, "No matches found")
		if w != nil && w.ignored > 0 {
			notes = append(notes, fmt.Sprintf("(%d paths ignored by .gitignore were not searched; use bash to search them)", w.ignored))
		}
	}
	if g.binary > 0 {
		notes = append(notes, fmt.Sprintf("(%d binary files skipped.)", g.binary))
	}
	if g.large > 0 {
		notes = append(notes, fmt.Sprintf("(%d files larger than %d bytes skipped; search them with bash.)", g.large, st.maxFileBytes))
	}
	if g.longLine > 0 {
		notes = append(notes, fmt.Sprintf("(%d lines longer than %d bytes were searched only in their first %d bytes.)", g.longLine, maxGrepLineBytes, maxGrepLineBytes))
	}
	notes = append(notes, commonNotes(g.withheld, "files not searched", w)...)
	return tool.Text(finish(g.out.String(), notes)), nil
}

// file searches the regular file that open opens, shown to the model as
// shown.
func (g *grepRun) file(ctx context.Context, open func() (*os.File, error), shown string) error {
	f, err := open()
	if err != nil {
		return nil // vanished, replaced by a link, or unreadable
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return nil
	}
	if info.Size() > g.st.maxFileBytes {
		g.large++
		return nil
	}
	if g.br == nil {
		g.br = bufio.NewReaderSize(nil, 64<<10)
	}
	br := g.br
	br.Reset(io.LimitReader(f, g.st.maxFileBytes))
	if head, _ := br.Peek(binarySniffBytes); bytes.IndexByte(head, 0) >= 0 {
		g.binary++
		return nil
	}
	matched := false
	line := g.line[:0]
	defer func() { g.line = line[:0] }()
	for n := 1; ; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		var long bool
		line, long, err = readLine(br, line[:0])
		if long {
			g.longLine++
		}
		if len(line) > 0 || err == nil {
			text := bytes.TrimSuffix(line, []byte("\r"))
			if g.re.Match(text) {
				if !matched {
					matched = true
					g.files++
				}
				shownText, _ := utf16text.Cut(validText(text), maxShownLineChars)
				if !g.budget.add(&g.out, shown+":"+strconv.Itoa(n)+": "+shownText+"\n") {
					g.full = true
					return nil
				}
				g.matches++
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return nil // a read error ends this file's search
		}
	}
}

// readLine reads one line from br into buf without its newline. A line
// longer than maxGrepLineBytes is kept to that length, the rest skipped,
// and long reported. err is io.EOF after the last line.
func readLine(br *bufio.Reader, buf []byte) (line []byte, long bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		chunk = bytes.TrimSuffix(chunk, []byte("\n"))
		room := maxGrepLineBytes - len(buf)
		if len(chunk) > room {
			long = true
			chunk = chunk[:room]
		}
		buf = append(buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return buf, long, err
	}
}

// regexpProblem returns what is wrong with a regular expression.
func regexpProblem(err error) string {
	return strings.TrimPrefix(err.Error(), "error parsing regexp: ")
}
