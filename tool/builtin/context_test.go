package builtin_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// newArchive returns a file archive of session s1 in a temporary sessions
// directory.
func newArchive(t testing.TB) *archive.FileArchive {
	t.Helper()
	a, err := archive.NewFileArchive(filepath.Join(t.TempDir(), "s1.context"), archive.Options{SessionID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// turns returns a resolver for a whose generation grows with every call,
// as the session's head grows turn by turn, so each page has a fresh read
// budget.
func turns(a archive.Archive) builtin.ArchiveResolver {
	var gen atomic.Int64
	return func(ctx context.Context, _ string) (builtin.ArchiveScope, error) {
		return builtin.ArchiveScope{Archive: a, SessionID: "s1", Generation: gen.Add(1)}, nil
	}
}

var pageHeader = regexp.MustCompile(`(?m)^offset=(\d+); nextOffset=(\d+|end); totalChars=(\d+)$`)

// readAll pages through ref with the context tool and returns the content.
func readAll(t *testing.T, call func(input map[string]any) string, ref string) string {
	t.Helper()
	var b strings.Builder
	offset := 0
	for range 100 {
		out := call(map[string]any{"ref": ref, "offset": offset})
		m := pageHeader.FindStringSubmatchIndex(out)
		if m == nil {
			t.Fatalf("no page header in %q", out)
		}
		body := out[m[1]+1:]
		body = strings.TrimSuffix(body, "\n</historical-context>")
		body = strings.TrimSuffix(body, "\n[truncated] Continue with nextOffset.")
		b.WriteString(body)
		next := out[m[4]:m[5]]
		if next == "end" {
			return b.String()
		}
		offset, _ = strconv.Atoi(next)
	}
	t.Fatal("too many pages")
	return ""
}

func TestReadFileArchivesLargeFiles(t *testing.T) {
	a := newArchive(t)
	e := newFileEnv(t, builtin.FileOptions{Archive: turns(a)})
	var content strings.Builder
	for i := 0; content.Len() <= 60000; i++ {
		fmt.Fprintf(&content, "line %05d of the big file\n", i)
	}
	content.WriteString("END-MARKER")
	text := content.String()
	writeFile(t, e.path("big.txt"), text)

	res := call(t, e.tool(t, "read_file"), map[string]any{"path": "big.txt"})
	ref := sha256Hex([]byte(text))
	prefix := fmt.Sprintf("[tool result archived: %s] %d bytes from big.txt.\n", ref, len(text))
	suffix := fmt.Sprintf("\nRead the complete file in pages using context({ref: %q, offset: 0}).", ref)
	if res.IsError || !strings.HasPrefix(res.Content, prefix) || !strings.HasSuffix(res.Content, suffix) {
		t.Fatalf("got %q", res.Content)
	}
	preview := strings.TrimSuffix(strings.TrimPrefix(res.Content, prefix), suffix)
	if !strings.HasPrefix(text, preview) || len(preview) > archive.PreviewBytes {
		t.Errorf("preview %q is not a prefix of at most %d bytes", preview, archive.PreviewBytes)
	}
	if len(res.Content) > 3000 {
		t.Errorf("the result is %d bytes", len(res.Content))
	}

	ctxTool := builtin.ContextTool(turns(a))
	got := readAll(t, func(input map[string]any) string {
		r := call(t, ctxTool, input)
		if r.IsError {
			t.Fatalf("context %v: %s", input, r.Content)
		}
		return r.Content
	}, ref)
	if got != text {
		t.Errorf("paged read differs: %d bytes, want %d; ends %q", len(got), len(text), got[max(0, len(got)-40):])
	}

	search := call(t, ctxTool, map[string]any{"query": "big.txt"}).Content
	if !strings.Contains(search, `"ref":"`+ref+`"`) || !strings.Contains(search, `"path":"big.txt"`) || !strings.Contains(search, `"sessionId":"s1"`) {
		t.Errorf("search by path: %q", search)
	}
}

func TestReadFileWithALimitSkipsTheArchive(t *testing.T) {
	a := &fakeArchive{}
	e := newFileEnv(t, builtin.FileOptions{Archive: func(context.Context, string) (builtin.ArchiveScope, error) {
		return builtin.ArchiveScope{Archive: a}, nil
	}})
	writeFile(t, e.path("big.txt"), strings.Repeat("0123456789\n", 6000))
	res := call(t, e.tool(t, "read_file"), map[string]any{"path": "big.txt", "limit": 2})
	if res.Content != "0123456789\n0123456789\n... (5999 more lines)" {
		t.Errorf("got %q", res.Content)
	}
	if a.puts.Load() != 0 {
		t.Errorf("the file was archived")
	}
	// A file of exactly the threshold is returned whole.
	writeFile(t, e.path("edge.txt"), strings.Repeat("x", builtin.ArchiveThreshold))
	if res := call(t, e.tool(t, "read_file"), map[string]any{"path": "edge.txt"}); len(res.Content) != builtin.ArchiveThreshold || a.puts.Load() != 0 {
		t.Errorf("edge: %d bytes, %d puts", len(res.Content), a.puts.Load())
	}
}

func TestReadFileWithoutArchiveCuts(t *testing.T) {
	e := newFileEnv(t, builtin.FileOptions{Archive: func(context.Context, string) (builtin.ArchiveScope, error) {
		return builtin.ArchiveScope{}, nil // the session has no archive
	}})
	writeFile(t, e.path("big.txt"), strings.Repeat("y", 60000))
	res := call(t, e.tool(t, "read_file"), map[string]any{"path": "big.txt"})
	if !strings.HasPrefix(res.Content, strings.Repeat("y", 50000)+"\n[truncated: showing the first 50000 of 60000") {
		t.Errorf("got %d bytes", len(res.Content))
	}
}

func TestReadFileArchiveFailuresAreErrorResults(t *testing.T) {
	for name, resolve := range map[string]builtin.ArchiveResolver{
		"Resolver": func(context.Context, string) (builtin.ArchiveScope, error) {
			return builtin.ArchiveScope{}, errors.New("no session")
		},
		"Put": func(context.Context, string) (builtin.ArchiveScope, error) {
			return builtin.ArchiveScope{Archive: &fakeArchive{putErr: errors.New("disk full")}}, nil
		},
	} {
		t.Run(name, func(t *testing.T) {
			e := newFileEnv(t, builtin.FileOptions{Archive: resolve})
			writeFile(t, e.path("big.txt"), strings.Repeat("z", 60000))
			res := call(t, e.tool(t, "read_file"), map[string]any{"path": "big.txt"})
			if !res.IsError || !strings.HasPrefix(res.Content, "Error: archive big.txt: ") {
				t.Errorf("got %q", res.Content)
			}
		})
	}
}

// fakeArchive records what the context tool asks of it.
type fakeArchive struct {
	mu      sync.Mutex
	reads   []archive.ReadRequest
	queries []archive.Query
	puts    atomic.Int64
	putErr  error
	err     error
}

func (f *fakeArchive) Put(ctx context.Context, content string, metadata map[string]any) (archive.Entry, error) {
	f.puts.Add(1)
	if f.putErr != nil {
		return archive.Entry{}, f.putErr
	}
	return archive.Entry{Ref: sha256Hex([]byte(content)), Preview: content[:min(len(content), 10)]}, nil
}

func (f *fakeArchive) Search(ctx context.Context, q archive.Query) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queries = append(f.queries, q)
	return "searched " + q.Text, f.err
}

func (f *fakeArchive) Read(ctx context.Context, req archive.ReadRequest) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads = append(f.reads, req)
	return "read " + req.Ref, f.err
}

func TestContextToolRequests(t *testing.T) {
	f := &fakeArchive{}
	ctxTool := builtin.ContextTool(func(context.Context, string) (builtin.ArchiveScope, error) {
		return builtin.ArchiveScope{Archive: f, Generation: 42}, nil
	})
	for input, want := range map[string]string{
		`{"ref":"abc","offset":10,"limit":100}`: "read abc",
		`{"ref":"abc","query":"ignored"}`:       "read abc",
		`{"query":"needle"}`:                    "searched needle",
		`{}`:                                    "searched ",
		`{"ref":"","query":"q"}`:                "searched q",
	} {
		if res := call(t, ctxTool, input); res.Content != want || res.IsError {
			t.Errorf("%s: got %q, want %q", input, res.Content, want)
		}
	}
	wantReads := []archive.ReadRequest{{Ref: "abc", Generation: 42, Offset: 10, Limit: 100}, {Ref: "abc", Generation: 42}}
	if fmt.Sprint(sortedReads(f.reads)) != fmt.Sprint(sortedReads(wantReads)) {
		t.Errorf("reads %+v, want %+v", f.reads, wantReads)
	}
	for _, q := range f.queries {
		if q.Limit != builtin.ContextSearchLimit || q.Generation != 42 {
			t.Errorf("query %+v", q)
		}
	}
	for _, bad := range []string{`{"offset":-1}`, `{"limit":0}`, `{"limit":16001}`, `{"ref":3}`, `{"path":"x"}`} {
		if res := call(t, ctxTool, bad); !res.IsError || !strings.HasPrefix(res.Content, "Error: invalid input for context: ") {
			t.Errorf("%s: got %q", bad, res.Content)
		}
	}
	if res := call(t, ctxTool, `{"limit":16000}`); res.IsError {
		t.Errorf("limit 16000: %q", res.Content)
	}
}

func sortedReads(r []archive.ReadRequest) []string {
	var s []string
	for _, x := range r {
		s = append(s, fmt.Sprintf("%+v", x))
	}
	slices.Sort(s)
	return s
}

func TestContextToolErrors(t *testing.T) {
	a := newArchive(t)
	entry, err := a.Put(context.Background(), "short content", nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		resolve builtin.ArchiveResolver
		input   map[string]any
		want    string
	}{
		{"OffsetPastTheEnd", turns(a), map[string]any{"ref": entry.Ref, "offset": 1000}, "Error: offset exceeds archived content length"},
		{"NoArchive", func(context.Context, string) (builtin.ArchiveScope, error) { return builtin.ArchiveScope{}, nil }, map[string]any{"query": "x"}, "Error: this session has no context archive"},
		{"ResolverFails", func(context.Context, string) (builtin.ArchiveScope, error) {
			return builtin.ArchiveScope{}, errors.New("boom")
		}, map[string]any{}, "Error: context archive: boom"},
		{"StorageFails", func(context.Context, string) (builtin.ArchiveScope, error) {
			return builtin.ArchiveScope{Archive: &fakeArchive{err: errors.New("Corrupt archive index")}}, nil
		}, map[string]any{"query": "x"}, "Error: Corrupt archive index"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, builtin.ContextTool(tt.resolve), tt.input)
			if res.Content != tt.want || !res.IsError {
				t.Errorf("got %q (isError %t), want %q", res.Content, res.IsError, tt.want)
			}
		})
	}
}

func TestReadSpilledMapsMissingContent(t *testing.T) {
	a := newArchive(t)
	entry, err := a.Put(context.Background(), "spilled tool output", nil)
	if err != nil {
		t.Fatal(err)
	}
	spilled := builtin.ReadSpilledTool(turns(a))
	if spilled.Name() != "read_spilled" {
		t.Errorf("name %q", spilled.Name())
	}
	res := call(t, spilled, map[string]any{"ref": "0123abcd"})
	if res.Content != "No spilled content for ref '0123abcd'" || res.IsError {
		t.Errorf("unknown ref: got %q", res.Content)
	}
	res = call(t, spilled, map[string]any{"ref": entry.Ref})
	if !strings.Contains(res.Content, "spilled tool output") {
		t.Errorf("known ref: got %q", res.Content)
	}
	// The context tool itself reports the archive's own text.
	res = call(t, builtin.ContextTool(turns(a)), map[string]any{"ref": "0123abcd"})
	if !strings.Contains(res.Content, "No archived content for this ref.") {
		t.Errorf("context: got %q", res.Content)
	}
}

func TestContextRefsBelongToTheirSession(t *testing.T) {
	a1 := newArchive(t)
	a2, err := archive.NewFileArchive(filepath.Join(t.TempDir(), "s2.context"), archive.Options{SessionID: "s2"})
	if err != nil {
		t.Fatal(err)
	}
	entry, err := a1.Put(context.Background(), "only in session one", nil)
	if err != nil {
		t.Fatal(err)
	}
	res := call(t, builtin.ContextTool(turns(a2)), map[string]any{"ref": entry.Ref})
	if !strings.Contains(res.Content, "No archived content for this ref.") || strings.Contains(res.Content, "only in session one") {
		t.Errorf("got %q", res.Content)
	}
}
