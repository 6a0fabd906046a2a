package archive_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// walkFS reads dir's parent through os.DirFS, which has every method of
// archive.DirFS.
func walkFS(t *testing.T, dir string) (archive.DirFS, string) {
	t.Helper()
	fsys, ok := os.DirFS(filepath.Dir(dir)).(archive.DirFS)
	if !ok {
		t.Fatal("os.DirFS lacks a method of archive.DirFS")
	}
	return fsys, filepath.Base(dir)
}

// putAll makes an archive in a new directory holding contents.
func putAll(t *testing.T, opts archive.Options, contents ...string) (string, []archive.Entry) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "s1.context")
	a, err := archive.NewFileArchive(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	var entries []archive.Entry
	for _, c := range contents {
		e, err := a.Put(t.Context(), c, map[string]any{"n": len(c)})
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, e)
	}
	return dir, entries
}

func TestListYieldsEveryRecordAsStored(t *testing.T) {
	for _, tc := range []struct {
		name string
		enc  storage.Encoding
	}{
		{"plaintext", storage.Encoding{}},
		{"gzip", storage.Encoding{Codec: codec.Gzip()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := archive.Options{Encoding: tc.enc, SessionID: "s1"}
			dir, entries := putAll(t, opts, "first note", "second note", "third")
			// Not records: a temp file an interrupted write leaves.
			if err := os.WriteFile(filepath.Join(dir, archive.NotesDir, ".x.md.0123456789ab.tmp"), []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
			fsys, rel := walkFS(t, dir)
			l, err := archive.List(fsys, rel)
			if err != nil {
				t.Fatal(err)
			}
			if !l.HasIndex || !l.HasNotes || l.IndexTime.IsZero() || l.NotesTime.IsZero() {
				t.Fatalf("listing %+v", l)
			}
			index, err := os.ReadFile(filepath.Join(dir, archive.IndexFile))
			if err != nil {
				t.Fatal(err)
			}
			var rebuilt []byte
			n := 0
			for rec := range l.IndexLines() {
				if rec.Kind != storage.KindArchiveIndex || rec.Torn || rec.Name != archive.IndexFile || !rec.ModTime.Equal(l.IndexTime) {
					t.Errorf("index record %+v", rec)
				}
				plain, err := tc.enc.Decode(t.Context(), rec.Kind, "s1", rec.ID, rec.Stored)
				if err != nil {
					t.Fatalf("line %s: %v", rec.ID, err)
				}
				if !archive.ValidIndexLine(plain) || !strings.Contains(string(plain), entries[n].Ref) {
					t.Errorf("line %s = %s, want the entry of %s", rec.ID, plain, entries[n].Ref)
				}
				rebuilt = archive.AppendIndexLine(rebuilt, rec.Stored)
				n++
			}
			if n != len(entries) || !bytes.Equal(rebuilt, index) {
				t.Errorf("%d index lines rebuilt as %q, want %q", n, rebuilt, index)
			}
			refs := map[string]bool{}
			last := ""
			for rec, err := range l.Notes() {
				if err != nil {
					t.Fatal(err)
				}
				want, err := os.ReadFile(filepath.Join(dir, rec.Name))
				if err != nil {
					t.Fatal(err)
				}
				if rec.Kind != storage.KindArchive || !bytes.Equal(rec.Stored, want) || rec.ModTime.IsZero() || rec.ID <= last {
					t.Errorf("note record %+v", rec)
				}
				plain, err := tc.enc.Decode(t.Context(), rec.Kind, "s1", rec.ID, rec.Stored)
				if err != nil || !archive.NoteMatches(rec.ID, plain) {
					t.Errorf("note %s decodes to %q, %v", rec.ID, plain, err)
				}
				refs[rec.ID], last = true, rec.ID
			}
			for _, e := range entries {
				if !refs[e.Ref] {
					t.Errorf("note %s not yielded", e.Ref)
				}
			}
			if len(refs) != len(entries) {
				t.Errorf("%d notes yielded, want %d", len(refs), len(entries))
			}
		})
	}
}

// TestListLaidOutAgainIsTheSameArchive copies an archive record by record
// to each record's Name in another directory and checks that the copy is
// an archive with the same content.
func TestListLaidOutAgainIsTheSameArchive(t *testing.T) {
	dir, entries := putAll(t, archive.Options{SessionID: "s1"}, "alpha", "beta")
	fsys, rel := walkFS(t, dir)
	l, err := archive.List(fsys, rel)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "s1.context")
	if err := os.MkdirAll(filepath.Join(dst, l.NotesDirName()), 0o700); err != nil {
		t.Fatal(err)
	}
	var index []byte
	for rec := range l.IndexLines() {
		index = archive.AppendIndexLine(index, rec.Stored)
	}
	if err := os.WriteFile(filepath.Join(dst, archive.IndexFile), index, 0o600); err != nil {
		t.Fatal(err)
	}
	for rec, err := range l.Notes() {
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, rec.Name), rec.Stored, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	a, err := archive.NewFileArchive(dst, archive.Options{SessionID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	problems, err := a.Verify(t.Context())
	if err != nil || len(problems) != 0 {
		t.Fatalf("Verify = %v, %v", problems, err)
	}
	for i, e := range entries {
		got, err := a.Read(t.Context(), archive.ReadRequest{Ref: e.Ref, Generation: int64(i)})
		if err != nil || !strings.Contains(got, []string{"alpha", "beta"}[i]) {
			t.Errorf("Read %s = %q, %v", e.Ref, got, err)
		}
	}
}

func TestListOfAMissingDirectoryIsEmpty(t *testing.T) {
	fsys, rel := walkFS(t, filepath.Join(t.TempDir(), "none.context"))
	l, err := archive.List(fsys, rel)
	if err != nil {
		t.Fatal(err)
	}
	if l.HasIndex || l.HasNotes {
		t.Errorf("listing %+v", l)
	}
	for rec := range l.IndexLines() {
		t.Errorf("index record %+v", rec)
	}
	for rec, err := range l.Notes() {
		t.Errorf("note %+v, %v", rec, err)
	}
}

func TestIndexLines(t *testing.T) {
	for _, tc := range []struct {
		data  string
		lines []string
		torn  bool // the last line
	}{
		{"", nil, false},
		{"a\n", []string{"a"}, false},
		{"a\n\nb\n", []string{"a", "", "b"}, false},
		{"a\nb", []string{"a", "b"}, true},
	} {
		var got []string
		torn := false
		for rec := range archive.IndexLines([]byte(tc.data)) {
			if rec.ID != strings.TrimSpace(string(rune('0'+len(got)))) {
				t.Errorf("%q: line %d has id %q", tc.data, len(got), rec.ID)
			}
			got = append(got, string(rec.Stored))
			torn = rec.Torn
		}
		if strings.Join(got, "|") != strings.Join(tc.lines, "|") || len(got) != len(tc.lines) || torn != tc.torn {
			t.Errorf("IndexLines(%q) = %q torn %v, want %q torn %v", tc.data, got, torn, tc.lines, tc.torn)
		}
	}
}

func TestValidIndexLine(t *testing.T) {
	ref := strings.Repeat("0f", 32)
	for _, tc := range []struct {
		line string
		ok   bool
	}{
		{`{"ref":"` + ref + `","preview":"p"}`, true},
		{`{"ref":"` + ref + `","preview":"p","metadata":{"a":[1]}}`, true},
		{`{"ref":"` + strings.ToUpper(ref) + `","preview":"p"}`, false},
		{`{"ref":"` + ref + `"}`, false},
		{`{"ref":"` + ref + `","preview":7}`, false},
		{`[1]`, false},
		{`{"ref":`, false},
		{"{\"ref\":\"" + ref + "\",\"preview\":\"\xff\"}", false},
	} {
		if got := archive.ValidIndexLine([]byte(tc.line)); got != tc.ok {
			t.Errorf("ValidIndexLine(%q) = %v, want %v", tc.line, got, tc.ok)
		}
	}
	if !archive.NoteMatches("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824", []byte("hello")) ||
		archive.NoteMatches(ref, []byte("hello")) {
		t.Error("NoteMatches")
	}
}
