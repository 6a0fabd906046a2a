package archive_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/storage"
)

func TestRefsAreSHA256AndTheIndexLineIsExact(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s1.context")
	a := open(t, dir, archive.Options{SessionID: "s1"})
	const content = "hello, archive"
	e := put(t, a, content, map[string]any{"path": "notes.txt", "kind": "file"})
	const ref = "f49fb7f0f8159e16fbaa7c2b678923a097a8056057e972dbd270c7149c2af98f"
	if e.Ref != ref || e.Ref != sha(content) || e.Preview != content {
		t.Fatalf("entry %+v", e)
	}
	got := snapshot(t, dir)
	want := map[string]string{
		"./":                   "",
		"notes/":               "",
		"notes/" + ref + ".md": content,
		"index.jsonl":          `{"ref":"` + ref + `","preview":"hello, archive","metadata":{"kind":"file","path":"notes.txt"}}` + "\n",
	}
	sameSnapshot(t, want, got)

	for _, p := range []string{dir, filepath.Join(dir, "notes")} {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o700 {
			t.Errorf("%s: mode %v, %v", p, st.Mode(), err)
		}
	}
	for _, p := range []string{filepath.Join(dir, "index.jsonl"), filepath.Join(dir, "notes", ref+".md")} {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v", p, st.Mode(), err)
		}
	}
}

func TestIndexLinesAreWrittenAsJSONStringifyWrites(t *testing.T) {
	tests := []struct {
		name     string
		content  string
		metadata map[string]any
		want     string // the line after the ref
	}{
		{"no metadata omits the key", "a", nil, `,"preview":"a"}`},
		{"empty metadata is kept", "a", map[string]any{}, `,"preview":"a","metadata":{}}`},
		{"html characters are not escaped", "<a href='x'>&amp;</a>", map[string]any{"tag": "<&>"},
			`,"preview":"<a href='x'>&amp;</a>","metadata":{"tag":"<&>"}}`},
		{"line separators are not escaped", "x\u2028y\u2029z", map[string]any{"s": "\u2028\u2029", `\u2028`: `\u2028`},
			`,"preview":"x` + "\u2028" + `y` + "\u2029" + `z","metadata":{"\\u2028":"\\u2028","s":"` + "\u2028\u2029" + `"}}`},
		{"control characters use short escapes where JavaScript does", "q\"\\\b\f\n\r\t\x01\x1f\x7f", map[string]any{"c": "\b\f\x00"},
			`,"preview":"q\"\\\b\f\n\r\t\u0001\u001f` + "\x7f" + `","metadata":{"c":"\b\f\u0000"}}`},
		{"numbers, nesting and null", "n", map[string]any{"n": 1.5, "i": 3, "big": 1e21, "small": 1e-7, "z": nil, "l": []any{true, "é"}},
			`,"preview":"n","metadata":{"big":1e+21,"i":3,"l":[true,"é"],"n":1.5,"small":1e-7,"z":null}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			a := open(t, dir, archive.Options{})
			e := put(t, a, tt.content, tt.metadata)
			got, err := os.ReadFile(filepath.Join(dir, "index.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			want := `{"ref":"` + e.Ref + `"` + tt.want + "\n"
			if string(got) != want {
				t.Errorf("index line\n got %s\nwant %s", got, want)
			}
			// The line is read back as it was written.
			out := search(t, a, archive.Query{Text: e.Ref})
			if !strings.Contains(out, strings.TrimSuffix(escapeXML(want), "\n")) {
				t.Errorf("search does not show the line as written:\n%s", out)
			}
		})
	}
}

// escapeXML escapes the body characters the wrapper escapes.
func escapeXML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

func TestPutIsIdempotent(t *testing.T) {
	dir := t.TempDir()
	a := open(t, dir, archive.Options{})
	first := put(t, a, "same content", map[string]any{"n": 1})
	other := put(t, a, "other content", nil)
	before := snapshot(t, dir)
	again := put(t, a, "same content", map[string]any{"n": 2})
	if again != first {
		t.Errorf("second put %+v, first %+v", again, first)
	}
	sameSnapshot(t, before, snapshot(t, dir))
	index, _ := os.ReadFile(filepath.Join(dir, "index.jsonl"))
	if n := strings.Count(string(index), "\n"); n != 2 {
		t.Errorf("index has %d lines, want 2", n)
	}
	notes, _ := os.ReadDir(filepath.Join(dir, "notes"))
	if len(notes) != 2 || other.Ref == first.Ref {
		t.Errorf("notes %v", notes)
	}
	// A second archive value on the same directory agrees.
	b := open(t, dir, archive.Options{})
	if e := put(t, b, "same content", nil); e != first {
		t.Errorf("other value put %+v", e)
	}
	sameSnapshot(t, before, snapshot(t, dir))
}

func TestPutRestoresAMissingIndexLineForAnExistingNote(t *testing.T) {
	dir := t.TempDir()
	a := open(t, dir, archive.Options{})
	e := put(t, a, "written before a crash", nil)
	if err := os.Remove(filepath.Join(dir, "index.jsonl")); err != nil {
		t.Fatal(err)
	}
	if out := read(t, a, archive.ReadRequest{Ref: e.Ref}); !strings.Contains(out, "No archived content for this ref.") {
		t.Fatalf("unindexed note was readable:\n%s", out)
	}
	put(t, a, "written before a crash", nil)
	if out := read(t, a, archive.ReadRequest{Ref: e.Ref, Generation: 1}); !strings.Contains(out, "written before a crash") {
		t.Fatalf("note not readable after put:\n%s", out)
	}
}

func TestPreviewIsTheLongestPrefixWithin512Bytes(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    int // bytes
	}{
		{"short content is its own preview", "short", 5},
		{"exactly 512 bytes", strings.Repeat("a", 512), 512},
		{"ascii is cut at 512", strings.Repeat("a", 600), 512},
		{"two-byte characters fill 512", strings.Repeat("é", 300), 512},
		{"three-byte characters stop at 510", strings.Repeat("界", 200), 510},
		{"four-byte characters fill 512", strings.Repeat("😀", 200), 512},
		{"a character crossing 512 is left out", "a" + strings.Repeat("😀", 200), 509},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := put(t, open(t, t.TempDir(), archive.Options{}), tt.content, nil)
			if len(e.Preview) != tt.want || !strings.HasPrefix(tt.content, e.Preview) || !utf8.ValidString(e.Preview) {
				t.Errorf("preview of %d bytes, want %d", len(e.Preview), tt.want)
			}
		})
	}
}

func TestInvalidUTF8IsStoredWithReplacementCharacters(t *testing.T) {
	dir := t.TempDir()
	a := open(t, dir, archive.Options{})
	e := put(t, a, "ok\xffok", nil)
	if e.Ref != sha("ok\uFFFDok") || e.Preview != "ok\uFFFDok" {
		t.Errorf("entry %+v", e)
	}
	if out := read(t, a, archive.ReadRequest{Ref: e.Ref}); !strings.Contains(out, "ok\uFFFDok") {
		t.Errorf("read:\n%s", out)
	}
}

func TestCodecContextsNameKindScopeAndRecord(t *testing.T) {
	c := &xorCodec{id: "xor-v1"}
	enc := storage.Encoding{Codec: c, Namespace: "acme", ProjectID: "0123456789abcdef"}
	a := open(t, t.TempDir(), archive.Options{Encoding: enc, SessionID: "s1"})
	e1 := put(t, a, "one", nil)
	e2 := put(t, a, "two", nil)
	var writes []storage.Context
	for _, sc := range c.contexts() {
		if sc.Namespace != "acme" || sc.ProjectID != "0123456789abcdef" || sc.ScopeID != "s1" {
			t.Errorf("context %+v", sc)
		}
		writes = append(writes, sc)
	}
	// put 1 encodes note and line 0; put 2 decodes line 0, encodes note and line 1.
	want := []struct {
		kind   storage.Kind
		record string
	}{
		{storage.KindArchive, e1.Ref}, {storage.KindArchiveIndex, "0"},
		{storage.KindArchiveIndex, "0"}, {storage.KindArchive, e2.Ref}, {storage.KindArchiveIndex, "1"},
	}
	if len(writes) != len(want) {
		t.Fatalf("codec calls %+v", writes)
	}
	for i, w := range want {
		if writes[i].Kind != w.kind || writes[i].RecordID != w.record {
			t.Errorf("call %d: %+v, want %s %s", i, writes[i], w.kind, w.record)
		}
	}

	c = &xorCodec{id: "xor-v1"}
	a = open(t, t.TempDir(), archive.Options{Encoding: storage.Encoding{Codec: c}})
	put(t, a, "standalone", nil)
	if sc := c.contexts()[0]; sc.ScopeID != "standalone" || sc.ProjectID != "standalone" || sc.Namespace != "lite-agent" {
		t.Errorf("default context %+v", sc)
	}
}

func TestFailingIndexEncodeWritesNoFiles(t *testing.T) {
	for _, kind := range []storage.Kind{storage.KindArchiveIndex, storage.KindArchive} {
		t.Run(string(kind), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "s.context")
			a := open(t, dir, archive.Options{Encoding: storage.Encoding{Codec: &xorCodec{id: "xor-v1", failKind: kind}}})
			_, err := a.Put(t.Context(), "never written", nil)
			se := storageError(t, err, "Storage encode failed ("+string(kind)+")")
			if strings.Contains(err.Error(), "0xC0FFEE") || se.File == "" || se.Record == "" {
				t.Errorf("error %q leaks the codec's text or names no file and record", err)
			}
			ents, err := os.ReadDir(dir)
			if err != nil || len(ents) != 0 {
				t.Errorf("directory holds %v (%v), want nothing", ents, err)
			}
			if _, err := os.Lstat(dir + ".lock"); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("lock left behind: %v", err)
			}
		})
	}
}

func TestUnencodableMetadataWritesNoFiles(t *testing.T) {
	dir := t.TempDir()
	a := open(t, dir, archive.Options{})
	if _, err := a.Put(t.Context(), "x", map[string]any{"f": func() {}}); err == nil {
		t.Fatal("put with a func in metadata succeeded")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("directory holds %v", ents)
	}
}

func TestNewFileArchiveValidatesItsOptions(t *testing.T) {
	tests := []struct {
		name string
		opts archive.Options
		want error
	}{
		{"MaxReadBytes below 256 is rejected", archive.Options{MaxReadBytes: 255}, archive.ErrMaxReadBytes},
		{"negative MaxReadBytes is rejected", archive.Options{MaxReadBytes: -1}, archive.ErrMaxReadBytes},
		{"MaxReadBytes of 1 is rejected", archive.Options{MaxReadBytes: 1}, archive.ErrMaxReadBytes},
		{"MaxReadBytes of 256 is accepted", archive.Options{MaxReadBytes: 256}, nil},
		{"zero MaxReadBytes is the default", archive.Options{}, nil},
		{"an invalid codec id is rejected", archive.Options{Encoding: storage.Encoding{Codec: &xorCodec{id: "bad id"}}}, &storage.Error{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "a")
			_, err := archive.NewFileArchive(dir, tt.opts)
			switch want := tt.want.(type) {
			case nil:
				if err != nil {
					t.Fatal(err)
				}
			case *storage.Error:
				storageError(t, err, "Invalid storage codec")
			default:
				var re *archive.RangeError
				if !errors.Is(err, want) || !errors.As(err, &re) {
					t.Fatalf("error %v, want %v", err, want)
				}
				if _, serr := os.Stat(dir); !errors.Is(serr, os.ErrNotExist) {
					t.Errorf("rejected options created the directory")
				}
			}
		})
	}
}

func TestSymlinkedArchiveDirectoryIsRefused(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "s.context")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	_, err := archive.NewFileArchive(link, archive.Options{})
	storageError(t, err, "symlink")
}
