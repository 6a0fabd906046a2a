package builtin_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// searchEnv is a workspace tree with the search tools, and a directory
// beside it that no search may reach.
type searchEnv struct {
	dir     string
	outside string
	tools   []tool.Tool
}

// newSearchEnv writes files (relative path → content) into a new
// workspace, gives each file an mtime one minute apart in the order of
// mtimes (oldest first; files not listed there get the oldest time), and
// builds the search tools.
func newSearchEnv(t *testing.T, files map[string]string, mtimes []string, fopts builtin.FileOptions, opts builtin.SearchOptions) *searchEnv {
	t.Helper()
	parent := t.TempDir()
	e := &searchEnv{dir: filepath.Join(parent, "ws"), outside: filepath.Join(parent, "outside")}
	for _, d := range []string{e.dir, e.outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(e.outside, "secret.txt"), "needle outside\n")
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for rel, content := range files {
		p := filepath.Join(e.dir, filepath.FromSlash(rel))
		writeFile(t, p, content)
		if err := os.Chtimes(p, base, base); err != nil {
			t.Fatal(err)
		}
	}
	for i, rel := range mtimes {
		at := base.Add(time.Duration(i+1) * time.Minute)
		if err := os.Chtimes(filepath.Join(e.dir, filepath.FromSlash(rel)), at, at); err != nil {
			t.Fatal(err)
		}
	}
	fopts.Workdir = e.dir
	tools, err := builtin.SearchTools(fopts, opts)
	if err != nil {
		t.Fatal(err)
	}
	e.tools = tools
	return e
}

func (e *searchEnv) call(t *testing.T, name string, input any) tool.Result {
	t.Helper()
	return call(t, byName(t, e.tools, name), input)
}

func (e *searchEnv) symlink(t *testing.T, target, rel string) {
	t.Helper()
	if err := os.Symlink(target, filepath.Join(e.dir, filepath.FromSlash(rel))); err != nil {
		t.Fatal(err)
	}
}

func TestSearchToolsAreNamedAndOrdered(t *testing.T) {
	e := newSearchEnv(t, nil, nil, builtin.FileOptions{}, builtin.SearchOptions{})
	var names []string
	for _, tl := range e.tools {
		names = append(names, tl.Name())
		var schema map[string]any
		if err := json.Unmarshal(tl.Schema(), &schema); err != nil {
			t.Fatalf("%s schema: %v", tl.Name(), err)
		}
	}
	if got := strings.Join(names, ","); got != "glob,grep,list_dir" {
		t.Fatalf("tools = %s", got)
	}
}

func TestSearchToolsRejectBadOptions(t *testing.T) {
	dir := t.TempDir()
	for name, tc := range map[string]struct {
		f builtin.FileOptions
		o builtin.SearchOptions
	}{
		"relative workdir":  {builtin.FileOptions{Workdir: "ws"}, builtin.SearchOptions{}},
		"negative results":  {builtin.FileOptions{Workdir: dir}, builtin.SearchOptions{MaxResults: -1}},
		"negative budget":   {builtin.FileOptions{Workdir: dir}, builtin.SearchOptions{MaxOutputChars: -1}},
		"negative visited":  {builtin.FileOptions{Workdir: dir}, builtin.SearchOptions{MaxVisited: -1}},
		"negative list cap": {builtin.FileOptions{Workdir: dir}, builtin.SearchOptions{MaxListEntries: -1}},
	} {
		if _, err := builtin.SearchTools(tc.f, tc.o); err == nil {
			t.Errorf("%s: SearchTools succeeded", name)
		}
	}
}

// tree is the workspace most search tests use.
var tree = map[string]string{
	"main.go":               "package main\n\nfunc main() { needle() }\n",
	"src/a.go":              "package src\n// Needle in a comment\nvar x = 1\n",
	"src/deep/b.go":         "package deep\nfunc needle() {}\n",
	"src/deep/c.txt":        "no match here\nneedle in text\n",
	"docs/readme.md":        "# Docs\nA needle.\n",
	"build/out.go":          "package build // needle, but ignored\n",
	"app.log":               "needle in a log\n",
	"keep/keep.log":         "needle kept by negation\n",
	".gitignore":            "*.log\nbuild/\n",
	"keep/.gitignore":       "!keep.log\n",
	".git/config":           "needle in git config\n",
	".git/info/exclude":     "excluded.go\n",
	"excluded.go":           "package x // needle excluded\n",
	"private/key.go":        "package private // needle secret\n",
	"node/sub/.gitignore":   "*.go\n",
	"node/sub/skip.go":      "needle skipped\n",
	"node/sub/keep.md":      "needle kept\n",
	"weird name [1].go":     "package w // needle\n",
	"unicode/ünï.go":        "package u // nëedle\n",
	"src/deep/deeper/d.go":  "package deeper // needle\n",
	"src/deep/deeper/e.txt": "needle\n",
}

func TestGlob(t *testing.T) {
	e := newSearchEnv(t, tree, []string{"src/deep/b.go", "main.go", "src/a.go"}, builtin.FileOptions{}, builtin.SearchOptions{})
	tests := []struct {
		name  string
		input map[string]any
		want  string
	}{
		{"NewestFirstThenByPath", map[string]any{"pattern": "**/*.go"},
			"src/a.go\nmain.go\nsrc/deep/b.go\nprivate/key.go\nsrc/deep/deeper/d.go\nunicode/ünï.go\nweird name [1].go"},
		{"OneSegment", map[string]any{"pattern": "*.go"}, "main.go\nweird name [1].go"},
		{"LiteralBase", map[string]any{"pattern": "src/*.go"}, "src/a.go"},
		{"FixedDepth", map[string]any{"pattern": "src/*/*.go"}, "src/deep/b.go"},
		{"BelowPath", map[string]any{"pattern": "*.go", "path": "src/deep"}, "src/deep/b.go"},
		{"BelowPathAnyDepth", map[string]any{"pattern": "**/*.txt", "path": "src"}, "src/deep/c.txt\nsrc/deep/deeper/e.txt"},
		{"Braces", map[string]any{"pattern": "**/*.{md,txt}"}, "docs/readme.md\nnode/sub/keep.md\nsrc/deep/c.txt\nsrc/deep/deeper/e.txt"},
		{"GitignoreNegationKeeps", map[string]any{"pattern": "**/*.log"}, "keep/keep.log"},
		{"NoMatchSaysSo", map[string]any{"pattern": "**/*.rs"}, "No files found\n(4 paths ignored by .gitignore were not searched; use bash to search them)"},
		{"IgnoredDirectoryStaysIgnored", map[string]any{"pattern": "build/*.go"}, "No files found\n(1 paths ignored by .gitignore were not searched; use bash to search them)"},
		{"MissingBase", map[string]any{"pattern": "nope/*.go"}, "No files found"},
		{"EscapedMeta", map[string]any{"pattern": `weird name \[1\].go`}, "weird name [1].go"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := e.call(t, "glob", tt.input)
			if res.IsError {
				t.Fatalf("error result %q", res.Content)
			}
			if !strings.HasPrefix(res.Content, strings.TrimSuffix(tt.want, "\n")) || (!strings.HasSuffix(tt.want, "\n") && res.Content != tt.want) {
				t.Errorf("glob %v =\n%s\nwant\n%s", tt.input, res.Content, tt.want)
			}
		})
	}
}

func TestGlobSkipsDotGitAndExcludes(t *testing.T) {
	e := newSearchEnv(t, tree, nil, builtin.FileOptions{}, builtin.SearchOptions{})
	res := e.call(t, "glob", map[string]any{"pattern": "**"})
	for _, p := range strings.Split(res.Content, "\n") {
		if strings.HasPrefix(p, ".git/") || p == "excluded.go" || p == "app.log" || strings.HasPrefix(p, "build/") || p == "node/sub/skip.go" {
			t.Errorf("glob ** lists %s:\n%s", p, res.Content)
		}
	}
	if !strings.Contains(res.Content, ".gitignore\n") {
		t.Errorf("glob ** does not list .gitignore (dot files are not special):\n%s", res.Content)
	}
}

func TestGlobCapsResults(t *testing.T) {
	files := map[string]string{}
	var order []string
	for i := range 7 {
		name := fmt.Sprintf("f%d.txt", i)
		files[name] = "x"
		order = append(order, name)
	}
	e := newSearchEnv(t, files, order, builtin.FileOptions{}, builtin.SearchOptions{MaxResults: 3})
	res := e.call(t, "glob", map[string]any{"pattern": "*.txt"})
	want := "f6.txt\nf5.txt\nf4.txt\n(Showing the 3 most recently modified of 7 matching files. Narrow the pattern or path to see the others.)"
	if res.Content != want {
		t.Errorf("got\n%s\nwant\n%s", res.Content, want)
	}
}

func TestGlobRejects(t *testing.T) {
	e := newSearchEnv(t, tree, nil, builtin.FileOptions{}, builtin.SearchOptions{})
	tests := []struct {
		name  string
		input map[string]any
		want  string
	}{
		{"BadPattern", map[string]any{"pattern": "src/[a-"}, "Error: Invalid glob pattern: malformed pattern"},
		{"Extglob", map[string]any{"pattern": "*.@(go|md)"}, "Error: Invalid glob pattern: groups and extglobs"},
		{"DotDot", map[string]any{"pattern": "../outside/*"}, "Error: The pattern must be relative"},
		{"Absolute", map[string]any{"pattern": "/etc/*"}, "Error: The pattern must be relative"},
		{"PathEscapes", map[string]any{"pattern": "*", "path": "../outside"}, "Error: Path escapes workspace: ../outside"},
		{"AbsolutePathOutside", map[string]any{"pattern": "*", "path": e.outside}, "Error: Path escapes workspace: " + e.outside},
		{"MissingPath", map[string]any{"pattern": "*", "path": "nope"}, "Error: Path not found: nope"},
		{"FilePath", map[string]any{"pattern": "*", "path": "main.go"}, "Error: Not a directory: main.go"},
		{"EmptyPattern", map[string]any{"pattern": ""}, "Error: invalid input for glob"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := e.call(t, "glob", tt.input)
			if !res.IsError || !strings.HasPrefix(res.Content, tt.want) {
				t.Errorf("glob %v = %+v, want an error starting %q", tt.input, res, tt.want)
			}
		})
	}
}

// TestSearchNeverFollowsSymlinksOutOfTheWorkspace links a file and a
// directory outside the workspace, and a directory inside it: no search
// reports what lies outside, and links inside are not followed either
// (they would list the same files twice, or loop).
func TestSearchNeverFollowsSymlinksOutOfTheWorkspace(t *testing.T) {
	e := newSearchEnv(t, map[string]string{"in/a.txt": "needle inside\n"}, nil, builtin.FileOptions{}, builtin.SearchOptions{})
	e.symlink(t, filepath.Join(e.outside, "secret.txt"), "leak.txt")
	e.symlink(t, e.outside, "outdir")
	e.symlink(t, filepath.Join(e.dir, "in"), "indir")
	e.symlink(t, e.dir, "in/loop")
	for _, tc := range []struct {
		tool  string
		input map[string]any
		want  string
	}{
		{"glob", map[string]any{"pattern": "**"}, "in/a.txt"},
		{"glob", map[string]any{"pattern": "indir/*.txt"}, "No files found"},
		{"glob", map[string]any{"pattern": "outdir/*.txt"}, "No files found"},
		{"glob", map[string]any{"pattern": "in/loop/in/*.txt"}, "No files found"},
		{"grep", map[string]any{"pattern": "needle"}, "in/a.txt:1: needle inside"},
		{"grep", map[string]any{"pattern": "needle", "path": "outdir"}, "Error: Symlink escapes workspace: outdir"},
		{"grep", map[string]any{"pattern": "needle", "path": "leak.txt"}, "Error: Symlink escapes workspace: leak.txt"},
		{"glob", map[string]any{"pattern": "*", "path": "outdir"}, "Error: Symlink escapes workspace: outdir"},
		{"list_dir", map[string]any{"path": "outdir"}, "Error: Symlink escapes workspace: outdir"},
		{"list_dir", map[string]any{}, "in/ (dir)\nindir (symlink)\nleak.txt (symlink)\noutdir (symlink)"},
		// A link that stays inside may be given as the path, as read_file
		// may read through it; it resolves to the real path.
		{"grep", map[string]any{"pattern": "needle", "path": "indir"}, "in/a.txt:1: needle inside"},
	} {
		res := e.call(t, tc.tool, tc.input)
		if res.Content != tc.want {
			t.Errorf("%s %v =\n%s\nwant\n%s", tc.tool, tc.input, res.Content, tc.want)
		}
	}
}

func TestSearchWithSymlinksDenyRefusesLinkedPaths(t *testing.T) {
	e := newSearchEnv(t, map[string]string{"in/a.txt": "needle\n"}, nil, builtin.FileOptions{Symlinks: builtin.SymlinksDeny}, builtin.SearchOptions{})
	e.symlink(t, filepath.Join(e.dir, "in"), "indir")
	res := e.call(t, "grep", map[string]any{"pattern": "needle", "path": "indir"})
	if !res.IsError || !strings.Contains(res.Content, "Symlink paths are not allowed for read") {
		t.Errorf("grep through a link = %+v", res)
	}
}

func TestGrep(t *testing.T) {
	e := newSearchEnv(t, tree, nil, builtin.FileOptions{}, builtin.SearchOptions{})
	tests := []struct {
		name  string
		input map[string]any
		want  string
	}{
		{"HonoursGitignoreAndSkipsDotGit", map[string]any{"pattern": "needle"}, strings.Join([]string{
			"docs/readme.md:2: A needle.",
			"keep/keep.log:1: needle kept by negation",
			"main.go:3: func main() { needle() }",
			"node/sub/keep.md:1: needle kept",
			"private/key.go:1: package private // needle secret",
			"src/deep/b.go:2: func needle() {}",
			"src/deep/c.txt:2: needle in text",
			"src/deep/deeper/d.go:1: package deeper // needle",
			"src/deep/deeper/e.txt:1: needle",
			"weird name [1].go:1: package w // needle",
		}, "\n")},
		{"IgnoreCase", map[string]any{"pattern": "needle", "ignore_case": true, "path": "src"}, strings.Join([]string{
			"src/a.go:2: // Needle in a comment",
			"src/deep/b.go:2: func needle() {}",
			"src/deep/c.txt:2: needle in text",
			"src/deep/deeper/d.go:1: package deeper // needle",
			"src/deep/deeper/e.txt:1: needle",
		}, "\n")},
		{"IncludeByName", map[string]any{"pattern": "needle", "include": "*.txt"}, "src/deep/c.txt:2: needle in text\nsrc/deep/deeper/e.txt:1: needle"},
		{"IncludeBraces", map[string]any{"pattern": "needle", "include": "*.{md,txt}", "path": "src/deep/deeper"}, "src/deep/deeper/e.txt:1: needle"},
		{"IncludeByPath", map[string]any{"pattern": "needle", "include": "deep/*.go", "path": "src"}, "src/deep/b.go:2: func needle() {}"},
		{"Type", map[string]any{"pattern": "needle", "type": "md"}, "docs/readme.md:2: A needle.\nnode/sub/keep.md:1: needle kept"},
		{"File", map[string]any{"pattern": "n..dle", "path": "src/deep/c.txt"}, "src/deep/c.txt:2: needle in text"},
		{"IgnoredFileNamedExplicitly", map[string]any{"pattern": "needle", "path": "app.log"}, "app.log:1: needle in a log"},
		{"Unicode", map[string]any{"pattern": "nëedle"}, "unicode/ünï.go:1: package u // nëedle"},
		{"RegexpSyntax", map[string]any{"pattern": `^func \w+\(\)`, "path": "src"}, "src/deep/b.go:2: func needle() {}"},
		{"NoMatch", map[string]any{"pattern": "haystack", "path": "src"}, "No matches found"},
		{"NoMatchMentionsIgnored", map[string]any{"pattern": "ignored"}, "No matches found\n(4 paths ignored by .gitignore were not searched; use bash to search them)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := e.call(t, "grep", tt.input)
			if res.IsError || res.Content != tt.want {
				t.Errorf("grep %v =\n%s\nwant\n%s", tt.input, res.Content, tt.want)
			}
		})
	}
}

func TestGrepRejects(t *testing.T) {
	e := newSearchEnv(t, tree, nil, builtin.FileOptions{}, builtin.SearchOptions{})
	tests := []struct {
		name  string
		input map[string]any
		want  string
	}{
		{"BadRegexp", map[string]any{"pattern": "a(b"}, "Error: Invalid regular expression: missing closing )"},
		{"Lookahead", map[string]any{"pattern": "a(?=b)"}, "Error: Invalid regular expression: invalid or unsupported Perl syntax"},
		{"BadInclude", map[string]any{"pattern": "a", "include": "{a,b"}, "Error: Invalid include glob: unbalanced braces"},
		{"UnknownType", map[string]any{"pattern": "a", "type": "cobol"}, "Error: invalid input for grep"},
		{"PathEscapes", map[string]any{"pattern": "needle", "path": "../outside"}, "Error: Path escapes workspace: ../outside"},
		{"MissingPath", map[string]any{"pattern": "needle", "path": "src/nope"}, "Error: Path not found: src/nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := e.call(t, "grep", tt.input)
			if !res.IsError || !strings.HasPrefix(res.Content, tt.want) {
				t.Errorf("grep %v = %+v, want an error starting %q", tt.input, res, tt.want)
			}
		})
	}
}

func TestGrepSkipsBinaryAndLargeFiles(t *testing.T) {
	big := strings.Repeat("filler line\n", 20_000) + "needle at the end\n" // 240 KB
	files := map[string]string{
		"bin.dat":   "needle\x00\x01\x02",
		"big.txt":   big,
		"small.txt": "needle\n",
	}
	e := newSearchEnv(t, files, nil, builtin.FileOptions{MaxFileBytes: 100 << 10}, builtin.SearchOptions{})
	res := e.call(t, "grep", map[string]any{"pattern": "needle"})
	want := "small.txt:1: needle\n(1 binary files skipped.)\n(1 files larger than 102400 bytes skipped; search them with bash.)"
	if res.Content != want {
		t.Errorf("got\n%s\nwant\n%s", res.Content, want)
	}
	// Under the default limit the big file is searched to its end.
	e = newSearchEnv(t, files, nil, builtin.FileOptions{}, builtin.SearchOptions{})
	res = e.call(t, "grep", map[string]any{"pattern": "needle at", "path": "big.txt"})
	if want := "big.txt:20001: needle at the end"; res.Content != want {
		t.Errorf("got %q, want %q", res.Content, want)
	}
}

func TestGrepClipsLongLines(t *testing.T) {
	long := "needle" + strings.Repeat("x", 3<<20) + "tail\n"
	e := newSearchEnv(t, map[string]string{"long.txt": long + "needle 2\n", "tail.txt": long}, nil, builtin.FileOptions{}, builtin.SearchOptions{})
	res := e.call(t, "grep", map[string]any{"pattern": "needle", "path": "long.txt"})
	lines := strings.Split(res.Content, "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "long.txt:1: needlexxx") || len(lines[0]) != len("long.txt:1: ")+500 ||
		lines[1] != "long.txt:2: needle 2" || !strings.Contains(lines[2], "1 lines longer than 1048576 bytes") {
		t.Errorf("got %d lines: %.300q", len(lines), res.Content)
	}
	// A match beyond the searched part of a long line is not found.
	res = e.call(t, "grep", map[string]any{"pattern": "tail", "path": "tail.txt"})
	if !strings.HasPrefix(res.Content, "No matches found") {
		t.Errorf("got %.300q", res.Content)
	}
}

func TestGrepKeepsWithinTheOutputBudget(t *testing.T) {
	files := map[string]string{}
	for i := range 50 {
		files[fmt.Sprintf("f%02d.txt", i)] = strings.Repeat("needle é line\n", 20)
	}
	e := newSearchEnv(t, files, nil, builtin.FileOptions{}, builtin.SearchOptions{MaxOutputChars: 2000})
	res := e.call(t, "grep", map[string]any{"pattern": "needle"})
	body, note, ok := strings.Cut(res.Content, "\n[Output truncated")
	if !ok {
		t.Fatalf("no truncation note:\n%s", res.Content)
	}
	if n := len([]rune(body)) + 1; n > 2000 {
		t.Errorf("body of %d characters over the 2000 budget", n)
	}
	lines := strings.Split(body, "\n")
	if want := fmt.Sprintf(" at 2000 characters after %d matching lines in 4 files; narrow the pattern, path, include or type to see the rest.]", len(lines)); note != want {
		t.Errorf("note %q, want %q", note, want)
	}
	for _, l := range lines {
		if !strings.HasSuffix(l, ": needle é line") {
			t.Fatalf("line cut in the middle: %q", l)
		}
	}
}

func TestGlobAndListDirKeepWithinTheOutputBudget(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("%s%02d.txt", strings.Repeat("n", 40), i)] = "x"
	}
	e := newSearchEnv(t, files, nil, builtin.FileOptions{}, builtin.SearchOptions{MaxOutputChars: 500})
	res := e.call(t, "glob", map[string]any{"pattern": "*.txt"})
	if lines := strings.Split(res.Content, "\n"); len(lines) != 11 || lines[10] != "(Showing the 10 most recently modified of 40 matching files. Narrow the pattern or path to see the others.)" {
		t.Errorf("glob: %d lines:\n%s", len(lines), res.Content)
	}
	res = e.call(t, "list_dir", map[string]any{})
	if lines := strings.Split(res.Content, "\n"); len(lines) != 8 || lines[7] != "(Showing the first 7 of 40 entries.)" {
		t.Errorf("list_dir: %d lines:\n%s", len(lines), res.Content)
	}
}

func TestListDir(t *testing.T) {
	files := map[string]string{"b.txt": "12345", "a/x": "", "C.md": "", ".hidden": "h", "empty/.keep": ""}
	e := newSearchEnv(t, files, nil, builtin.FileOptions{}, builtin.SearchOptions{MaxListEntries: 100})
	if err := os.Remove(filepath.Join(e.dir, "empty", ".keep")); err != nil {
		t.Fatal(err)
	}
	e.symlink(t, "b.txt", "link")
	tests := []struct {
		input map[string]any
		want  string
	}{
		{map[string]any{}, ".hidden (file, 1 bytes)\nC.md (file, 0 bytes)\na/ (dir)\nb.txt (file, 5 bytes)\nempty/ (dir)\nlink (symlink)"},
		{map[string]any{"path": "."}, ".hidden (file, 1 bytes)\nC.md (file, 0 bytes)\na/ (dir)\nb.txt (file, 5 bytes)\nempty/ (dir)\nlink (symlink)"},
		{map[string]any{"path": "a"}, "x (file, 0 bytes)"},
		{map[string]any{"path": e.dir + "/a"}, "x (file, 0 bytes)"},
		{map[string]any{"path": "empty"}, "(empty directory)"},
		{map[string]any{"path": "b.txt"}, "Error: Not a directory: b.txt"},
		{map[string]any{"path": "nope"}, "Error: Path not found: nope"},
		{map[string]any{"path": ".."}, "Error: Path escapes workspace: .."},
	}
	for _, tt := range tests {
		res := e.call(t, "list_dir", tt.input)
		if res.Content != tt.want || res.IsError != strings.HasPrefix(tt.want, "Error: ") {
			t.Errorf("list_dir %v = %+v, want %q", tt.input, res, tt.want)
		}
	}
	e = newSearchEnv(t, files, nil, builtin.FileOptions{}, builtin.SearchOptions{MaxListEntries: 2})
	if res := e.call(t, "list_dir", map[string]any{}); res.Content != ".hidden (file, 1 bytes)\nC.md (file, 0 bytes)\n(Showing the first 2 of 5 entries.)" {
		t.Errorf("capped list_dir = %q", res.Content)
	}
}

// TestSearchHonoursReadDenyRules wires Readable to a real permission
// policy behind the workspace wrapper, as the agent does: a path rule that
// denies read_file hides the files from every search tool, whichever way
// the search reaches them.
func TestSearchHonoursReadDenyRules(t *testing.T) {
	var e *searchEnv
	var policy permission.Policy
	readable := func(ctx context.Context, _, p string) (bool, error) {
		in, err := json.Marshal(map[string]string{"path": p})
		if err != nil {
			return false, err
		}
		v, err := policy.Check(ctx, permission.Call{Name: "read_file", Input: in})
		return v.Decision == permission.Allow, err
	}
	e = newSearchEnv(t, tree, nil, builtin.FileOptions{}, builtin.SearchOptions{Readable: readable})
	base, err := permission.New(permission.Options{Rules: []permission.Rule{
		permission.FilePath("private/**", permission.Deny),
		permission.FilePath("**/*.md", permission.Ask), // ask is not a yes: withheld too
	}})
	if err != nil {
		t.Fatal(err)
	}
	if policy, err = permission.Workspace(base, permission.WorkspaceOptions{Workdir: e.dir}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool  string
		input map[string]any
		want  string
	}{
		{"glob", map[string]any{"pattern": "private/*"}, "No files found\n(1 matching files withheld: the permission policy does not allow reading them.)"},
		{"glob", map[string]any{"pattern": "**/*.md"}, "No files found\n(4 paths ignored by .gitignore were not searched; use bash to search them)\n(2 matching files withheld: the permission policy does not allow reading them.)"},
		{"grep", map[string]any{"pattern": "secret"}, "No matches found\n(4 paths ignored by .gitignore were not searched; use bash to search them)\n(3 files not searched: the permission policy does not allow reading them.)"},
		{"grep", map[string]any{"pattern": "secret", "path": "private/key.go"}, "No matches found\n(1 files not searched: the permission policy does not allow reading them.)"},
		{"grep", map[string]any{"pattern": "secret", "path": e.dir + "/src/../private"}, "No matches found\n(1 files not searched: the permission policy does not allow reading them.)"},
		{"list_dir", map[string]any{"path": "private"}, "(1 entries withheld: the permission policy does not allow reading them.)"},
		{"list_dir", map[string]any{"path": "docs"}, "(1 entries withheld: the permission policy does not allow reading them.)"},
		{"grep", map[string]any{"pattern": "needle", "path": "src/deep/deeper"}, "src/deep/deeper/d.go:1: package deeper // needle\nsrc/deep/deeper/e.txt:1: needle"},
	}
	for _, tt := range tests {
		res := e.call(t, tt.tool, tt.input)
		if res.Content != tt.want {
			t.Errorf("%s %v =\n%s\nwant\n%s", tt.tool, tt.input, res.Content, tt.want)
		}
	}
	res := e.call(t, "list_dir", map[string]any{})
	if strings.Contains(res.Content, "private") || !strings.Contains(res.Content, "(1 entries withheld") {
		t.Errorf("list_dir of the root shows the denied directory:\n%s", res.Content)
	}
}

func TestSearchInReadRoots(t *testing.T) {
	parent := t.TempDir()
	ws, root := filepath.Join(parent, "ws"), filepath.Join(parent, "root")
	writeFile(t, filepath.Join(ws, "a.txt"), "x\n")
	writeFile(t, filepath.Join(root, "notes", "n.txt"), "needle in a root\n")
	writeFile(t, filepath.Join(root, ".gitignore"), "*.txt\n") // read roots are not workspaces
	tools, err := builtin.SearchTools(builtin.FileOptions{Workdir: ws, ReadRoots: []string{root}}, builtin.SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res := call(t, byName(t, tools, "grep"), map[string]any{"pattern": "needle", "path": root})
	if want := filepath.Join(root, "notes", "n.txt") + ":1: needle in a root"; res.Content != want {
		t.Errorf("grep in a read root = %q, want %q", res.Content, want)
	}
	res = call(t, byName(t, tools, "glob"), map[string]any{"pattern": "**/*.txt", "path": root})
	if want := filepath.Join(root, "notes", "n.txt"); res.Content != want {
		t.Errorf("glob in a read root = %q, want %q", res.Content, want)
	}
}

func TestSearchStopsAtTheVisitLimit(t *testing.T) {
	files := map[string]string{}
	for i := range 30 {
		files[fmt.Sprintf("d/f%02d.txt", i)] = "needle\n"
	}
	e := newSearchEnv(t, files, nil, builtin.FileOptions{}, builtin.SearchOptions{MaxVisited: 10})
	res := e.call(t, "grep", map[string]any{"pattern": "needle"})
	lines := strings.Split(res.Content, "\n")
	if len(lines) != 10 || lines[9] != "(Search stopped after looking at 10 entries; the result is incomplete. Search a narrower path.)" {
		t.Errorf("got:\n%s", res.Content)
	}
}

func TestSearchHonoursCancellation(t *testing.T) {
	files := map[string]string{}
	for i := range 20 {
		files[fmt.Sprintf("d%d/f.txt", i)] = "needle\n"
	}
	e := newSearchEnv(t, files, nil, builtin.FileOptions{}, builtin.SearchOptions{})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for _, name := range []string{"glob", "grep", "list_dir"} {
		_, err := byName(t, e.tools, name).Call(ctx, nil, json.RawMessage(`{"pattern":"**"}`))
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s after cancel: err = %v, want context.Canceled", name, err)
		}
	}
}

func TestGrepReadsCRLFLinesAndLastLineWithoutNewline(t *testing.T) {
	e := newSearchEnv(t, map[string]string{"crlf.txt": "first\r\nneedle\r\nlast needle"}, nil, builtin.FileOptions{}, builtin.SearchOptions{})
	for _, tc := range []struct{ pattern, want string }{
		{"needle$", "crlf.txt:2: needle\ncrlf.txt:3: last needle"},
		{"^needle$", "crlf.txt:2: needle"},
		{`\r`, "No matches found"},
	} {
		if res := e.call(t, "grep", map[string]any{"pattern": tc.pattern}); res.Content != tc.want {
			t.Errorf("grep %q = %q, want %q", tc.pattern, res.Content, tc.want)
		}
	}
}
