package archive_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// secretWord appears in every test content, so that tests can check that
// no error ever carries it.
const secretWord = "hunter2-payload"

// fixture is an archive with three entries and the paths tests corrupt.
type fixture struct {
	dir   string
	opts  archive.Options
	refs  []string
	index string
}

func newFixture(t *testing.T, opts archive.Options) fixture {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "s1.context")
	a := open(t, dir, opts)
	f := fixture{dir: dir, opts: opts, index: filepath.Join(dir, "index.jsonl")}
	for _, c := range []string{"first " + secretWord, "second " + secretWord, "third " + secretWord} {
		f.refs = append(f.refs, put(t, a, c, map[string]any{"secret": secretWord}).Ref)
	}
	return f
}

func (f fixture) note(ref string) string { return filepath.Join(f.dir, "notes", ref+".md") }

// lines returns the index lines without their newlines.
func (f fixture) lines(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(f.index)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func (f fixture) writeIndex(t *testing.T, lines []string, terminated bool) {
	t.Helper()
	s := strings.Join(lines, "\n")
	if terminated {
		s += "\n"
	}
	if err := os.WriteFile(f.index, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

// everyOperation runs Put of new and of existing content, Search and Read
// on a fresh archive value over f's directory and checks that each fails
// with a *storage.Error whose message contains want, that names file (and
// record, if not ""), that carries no payload, and that nothing changed.
func (f fixture) everyOperation(t *testing.T, opts archive.Options, want, file, record string) {
	t.Helper()
	before := snapshot(t, f.dir)
	a, err := archive.NewFileArchive(f.dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]func() error{
		"put new": func() error {
			_, err := a.Put(t.Context(), "new "+secretWord, nil)
			return err
		},
		"put existing": func() error {
			_, err := a.Put(t.Context(), "second "+secretWord, nil)
			return err
		},
		"search": func() error {
			_, err := a.Search(t.Context(), archive.Query{Text: "zzz"})
			return err
		},
		"read": func() error {
			_, err := a.Read(t.Context(), archive.ReadRequest{Ref: f.refs[2]})
			return err
		},
	}
	for name, op := range ops {
		err := op()
		if err == nil {
			t.Errorf("%s succeeded", name)
			continue
		}
		var se *storage.Error
		if !errors.As(err, &se) || !strings.Contains(se.Message, want) {
			t.Errorf("%s: error %q (%T), want a *storage.Error containing %q", name, err, err, want)
			continue
		}
		if file != "" && se.File != file {
			t.Errorf("%s: error names file %q, want %q", name, se.File, file)
		}
		if record != "" && se.Record != record {
			t.Errorf("%s: error names record %q, want %q", name, se.Record, record)
		}
		if strings.Contains(err.Error(), secretWord) || strings.Contains(err.Error(), errSecret.Error()) {
			t.Errorf("%s: error carries payload: %q", name, err)
		}
	}
	sameSnapshot(t, before, snapshot(t, f.dir))
}

func TestCorruptIndexLinesAreReportedAndChangeNothing(t *testing.T) {
	tests := []struct {
		name    string
		corrupt func(lines []string) ([]string, bool) // new lines, terminated
		record  string
	}{
		{"a line that is not JSON", func(l []string) ([]string, bool) { l[1] = "not json " + secretWord; return l, true }, "1"},
		{"JSON that is not an object", func(l []string) ([]string, bool) { l[0] = `["` + secretWord + `"]`; return l, true }, "0"},
		{"a null line", func(l []string) ([]string, bool) { l[2] = `null`; return l, true }, "2"},
		{"a line without ref", func(l []string) ([]string, bool) {
			l[1] = `{"preview":"` + secretWord + `"}`
			return l, true
		}, "1"},
		{"a ref that is not 64 hex", func(l []string) ([]string, bool) {
			l[1] = strings.Replace(l[1], `"ref":"`, `"ref":"../`, 1)
			return l, true
		}, "1"},
		{"an uppercase ref", func(l []string) ([]string, bool) {
			l[0] = l[0][:8] + strings.ToUpper(l[0][8:72]) + l[0][72:]
			return l, true
		}, "0"},
		{"a ref that is a number", func(l []string) ([]string, bool) { l[0] = `{"ref":1,"preview":"x"}`; return l, true }, "0"},
		{"a preview that is not a string", func(l []string) ([]string, bool) {
			l[2] = strings.Replace(l[2], `"preview":"`, `"preview":["`, 1)
			l[2] = strings.Replace(l[2], `","metadata"`, `"],"metadata"`, 1)
			return l, true
		}, "2"},
		{"keys in another case", func(l []string) ([]string, bool) { l[1] = strings.Replace(l[1], `"ref"`, `"Ref"`, 1); return l, true }, "1"},
		{"an empty line", func(l []string) ([]string, bool) { return append(l[:1], append([]string{""}, l[1:]...)...), true }, "1"},
		// An unterminated last line is a torn tail, not a line: see torn_test.go.
		{"a bad line before a torn tail", func(l []string) ([]string, bool) {
			l[1] = "not json " + secretWord
			l[2] = l[2][:40]
			return l, false
		}, "1"},
		{"invalid UTF-8", func(l []string) ([]string, bool) {
			l[1] = strings.Replace(l[1], "second", "sec\xffnd", 1)
			return l, true
		}, "1"},
		{"trailing garbage", func(l []string) ([]string, bool) { l[0] += "}"; return l, true }, "0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, archive.Options{})
			lines, terminated := tt.corrupt(f.lines(t))
			f.writeIndex(t, lines, terminated)
			f.everyOperation(t, archive.Options{}, "Corrupt archive index", f.index, tt.record)
		})
	}
}

func TestEncodedIndexLinesAreBoundToTheirPosition(t *testing.T) {
	opts := archive.Options{Encoding: storage.Encoding{Codec: aead(t, codec.XChaCha20Poly1305, "k1", "k1")}, SessionID: "s1"}
	f := newFixture(t, opts)
	lines := f.lines(t)
	lines[0], lines[1] = lines[1], lines[0]
	f.writeIndex(t, lines, true)
	f.everyOperation(t, opts, "Storage decode failed (archive-index)", f.index, "0")

	f = newFixture(t, opts)
	lines = f.lines(t)
	f.writeIndex(t, append(lines, lines[0]), true) // a duplicated line
	f.everyOperation(t, opts, "Storage decode failed (archive-index)", f.index, "3")
}

func TestIntegrityMismatchIsReported(t *testing.T) {
	f := newFixture(t, archive.Options{})
	// A tampered plaintext note.
	if err := os.WriteFile(f.note(f.refs[1]), []byte("second "+secretWord+" changed"), 0o600); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, f.dir)
	a := open(t, f.dir, archive.Options{})
	_, err := a.Read(t.Context(), archive.ReadRequest{Ref: f.refs[1]})
	se := storageError(t, err, "Archive integrity mismatch")
	if se.File != f.note(f.refs[1]) || se.Record != f.refs[1] || strings.Contains(err.Error(), secretWord) {
		t.Errorf("error %q", err)
	}
	_, err = a.Put(t.Context(), "second "+secretWord, nil)
	storageError(t, err, "Archive integrity mismatch")
	sameSnapshot(t, before, snapshot(t, f.dir))
	// Untouched notes still read.
	if out := read(t, a, archive.ReadRequest{Ref: f.refs[0]}); !strings.Contains(out, "first") {
		t.Errorf("read of an intact note:\n%s", out)
	}
}

func TestNoteSwappedForAnotherIsReported(t *testing.T) {
	tests := []struct {
		name string
		opts func(t *testing.T) archive.Options
		want string
	}{
		{"plaintext", func(*testing.T) archive.Options { return archive.Options{} }, "Archive integrity mismatch"},
		{"compressed", func(*testing.T) archive.Options {
			return archive.Options{Encoding: storage.Encoding{Codec: codec.Gzip()}}
		}, "Archive integrity mismatch"},
		{"authenticated", func(t *testing.T) archive.Options {
			return archive.Options{Encoding: storage.Encoding{Codec: aead(t, codec.AES256GCM, "k1", "k1")}}
		}, "Storage decode failed (archive)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts(t)
			f := newFixture(t, opts)
			other, err := os.ReadFile(f.note(f.refs[0]))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f.note(f.refs[1]), other, 0o600); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, f.dir)
			a := open(t, f.dir, opts)
			_, err = a.Read(t.Context(), archive.ReadRequest{Ref: f.refs[1]})
			se := storageError(t, err, tt.want)
			if se.File != f.note(f.refs[1]) || se.Record != f.refs[1] {
				t.Errorf("error %q names %s record %s", err, se.File, se.Record)
			}
			sameSnapshot(t, before, snapshot(t, f.dir))
		})
	}
}

func TestInvalidUTF8NoteIsAnIntegrityMismatch(t *testing.T) {
	dir := t.TempDir()
	a := open(t, dir, archive.Options{})
	put(t, a, "placeholder", nil)
	// Forge a note whose bytes hash to its name but are not UTF-8, as
	// something other than Put would have to write it.
	bad := "bad\xff"
	if err := os.WriteFile(filepath.Join(dir, "notes", sha(bad)+".md"), []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	line := `{"ref":"` + sha(bad) + `","preview":"bad"}` + "\n"
	f, err := os.OpenFile(filepath.Join(dir, "index.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(line)
	f.Close()
	_, err = a.Read(t.Context(), archive.ReadRequest{Ref: sha(bad)})
	storageError(t, err, "Archive integrity mismatch")
}

func TestReplacedDirectoryIsDetected(t *testing.T) {
	f := newFixture(t, archive.Options{})
	a := open(t, f.dir, archive.Options{})
	old := f.dir + ".old"
	if err := os.Rename(f.dir, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(f.dir, 0o700); err != nil {
		t.Fatal(err)
	}
	oldBefore := snapshot(t, old)
	_, errPut := a.Put(t.Context(), "new", nil)
	_, errSearch := a.Search(t.Context(), archive.Query{})
	_, errRead := a.Read(t.Context(), archive.ReadRequest{Ref: f.refs[0]})
	for _, err := range []error{errPut, errSearch, errRead} {
		storageError(t, err, "Storage directory changed")
	}
	if ents, _ := os.ReadDir(f.dir); len(ents) != 0 {
		t.Errorf("replacement directory holds %v", ents)
	}
	if _, err := os.Lstat(f.dir + ".lock"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock left behind: %v", err)
	}
	sameSnapshot(t, oldBefore, snapshot(t, old))

	// Replaced by a symlink to the original.
	if err := os.Remove(f.dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(old, f.dir); err != nil {
		t.Fatal(err)
	}
	_, err := a.Read(t.Context(), archive.ReadRequest{Ref: f.refs[0]})
	storageError(t, err, "Storage directory changed")
}

func TestSymlinkedRecordsAreRefused(t *testing.T) {
	tests := []struct {
		name string
		link func(t *testing.T, f fixture, outside string) // replaces something with a symlink into outside
	}{
		{"a note", func(t *testing.T, f fixture, outside string) {
			target := filepath.Join(outside, "note.md")
			copyFile(t, f.note(f.refs[2]), target)
			replaceWithSymlink(t, f.note(f.refs[2]), target)
		}},
		{"the index", func(t *testing.T, f fixture, outside string) {
			target := filepath.Join(outside, "index.jsonl")
			copyFile(t, f.index, target)
			replaceWithSymlink(t, f.index, target)
		}},
		{"the notes directory", func(t *testing.T, f fixture, outside string) {
			target := filepath.Join(outside, "notes")
			if err := os.Rename(filepath.Join(f.dir, "notes"), target); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, filepath.Join(f.dir, "notes")); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, archive.Options{})
			outside := t.TempDir()
			tt.link(t, f, outside)
			outsideBefore := snapshot(t, outside)
			a := open(t, f.dir, archive.Options{})
			before := snapshot(t, f.dir)
			_, err := a.Read(t.Context(), archive.ReadRequest{Ref: f.refs[2]})
			storageError(t, err, "Symlink")
			_, err = a.Search(t.Context(), archive.Query{Text: "zzz"})
			storageError(t, err, "Symlink")
			_, err = a.Put(t.Context(), "third "+secretWord, nil)
			storageError(t, err, "Symlink")
			sameSnapshot(t, before, snapshot(t, f.dir))
			sameSnapshot(t, outsideBefore, snapshot(t, outside))
		})
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func replaceWithSymlink(t *testing.T, path, target string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

func TestLockIsHeldWhileTheCodecRuns(t *testing.T) {
	for _, op := range []string{"put", "read"} {
		t.Run(op, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "s.context")
			c := &blockingCodec{entered: make(chan storage.Context, 1), release: make(chan struct{})}
			a := open(t, dir, archive.Options{Encoding: storage.Encoding{Codec: c}})
			var ref string
			if op == "read" {
				close(c.release)
				ref = put(t, a, "content", nil).Ref
				<-c.entered
				c = &blockingCodec{entered: make(chan storage.Context, 1), release: make(chan struct{})}
				a = open(t, dir, archive.Options{Encoding: storage.Encoding{Codec: c}})
			}
			done := make(chan error, 1)
			go func() {
				var err error
				if op == "put" {
					_, err = a.Put(context.Background(), "content", nil)
				} else {
					_, err = a.Read(context.Background(), archive.ReadRequest{Ref: ref})
				}
				done <- err
			}()
			sc := <-c.entered
			real, err := filepath.EvalSymlinks(dir)
			if err != nil {
				t.Fatal(err)
			}
			if st, err := os.Stat(real + ".lock"); err != nil || !st.IsDir() {
				t.Errorf("lock directory absent while the codec runs (%s): %v", sc.Kind, err)
			}
			close(c.release)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if _, err := os.Lstat(real + ".lock"); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("lock not released: %v", err)
			}
		})
	}
}

func TestWaitingForTheLockEndsWithTheContext(t *testing.T) {
	f := newFixture(t, archive.Options{})
	if err := os.Mkdir(f.dir+".lock", 0o700); err != nil { // held by a live process
		t.Fatal(err)
	}
	before := snapshot(t, f.dir)
	a := open(t, f.dir, archive.Options{})
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err := a.Put(ctx, "new", nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want the context's", err)
	}
	sameSnapshot(t, before, snapshot(t, f.dir))
	if _, err := os.Stat(f.dir + ".lock"); err != nil {
		t.Errorf("another holder's lock was removed: %v", err)
	}
}
