package archive_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// found is the comparable part of an storage.Problem.
type found struct {
	File, Record string
	Kind         storage.ProblemKind
}

func (p found) String() string {
	return fmt.Sprintf("%s %s record %q", p.Kind, filepath.Base(p.File), p.Record)
}

// verify runs Verify on a fresh archive value over f's directory, checks
// that it changed nothing and that every problem's Err is a *storage.Error
// naming the problem's file and record without payload, and returns the
// problems.
func (f fixture) verify(t *testing.T, opts archive.Options) []found {
	t.Helper()
	before := snapshot(t, f.dir)
	a := open(t, f.dir, opts)
	problems, err := a.Verify(t.Context())
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	sameSnapshot(t, before, snapshot(t, f.dir))
	var got []found
	for _, p := range problems {
		got = append(got, found{p.File, p.Record, p.Kind})
		var se *storage.Error
		if !errors.As(p.Err, &se) {
			t.Errorf("%v: Err %v (%T) is not a *storage.Error", p, p.Err, p.Err)
			continue
		}
		if se.File != p.File || se.Record != p.Record {
			t.Errorf("%v: Err %q names %s record %q", p, p.Err, se.File, se.Record)
		}
		if msg := p.Err.Error(); strings.Contains(msg, secretWord) || strings.Contains(msg, errSecret.Error()) {
			t.Errorf("%v: Err carries payload: %q", p, msg)
		}
	}
	return got
}

// encodeAs returns plain encoded as a record of the archive of s1 under c
// (plaintext when c is nil).
func encodeAs(t *testing.T, c storage.Codec, kind storage.Kind, record, plain string) string {
	t.Helper()
	b, err := storage.Encoding{Codec: c}.Encode(t.Context(), kind, "s1", record, []byte(plain))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestVerifyReportsEveryProblemAndChangesNothing(t *testing.T) {
	plain := func(*testing.T) archive.Options { return archive.Options{SessionID: "s1"} }
	gzip := func(*testing.T) archive.Options {
		return archive.Options{SessionID: "s1", Encoding: storage.Encoding{Codec: codec.Gzip()}}
	}
	sealed := func(t *testing.T) archive.Options {
		return archive.Options{SessionID: "s1", Encoding: storage.Encoding{Codec: aead(t, codec.XChaCha20Poly1305, "k1", "k1")}}
	}
	tests := []struct {
		name    string
		opts    func(t *testing.T) archive.Options
		corrupt func(t *testing.T, f fixture)
		want    func(f fixture) []found
	}{
		{"a clean plaintext archive has no problems", plain, func(*testing.T, fixture) {}, func(fixture) []found { return nil }},
		{"a clean compressed archive has no problems", gzip, func(*testing.T, fixture) {}, func(fixture) []found { return nil }},
		{"a clean sealed archive has no problems", sealed, func(*testing.T, fixture) {}, func(fixture) []found { return nil }},
		{"an empty archive has no problems", plain, func(t *testing.T, f fixture) {
			if err := os.RemoveAll(filepath.Join(f.dir, "notes")); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(f.index); err != nil {
				t.Fatal(err)
			}
		}, func(fixture) []found { return nil }},
		{"stray temp files and other names are ignored", sealed, func(t *testing.T, f fixture) {
			writeFile(t, filepath.Join(f.dir, "notes", "."+f.refs[0]+".md.0123456789ab.tmp"), "partial "+secretWord)
			writeFile(t, filepath.Join(f.dir, "notes", "README"), "not a note")
			writeFile(t, filepath.Join(f.dir, ".index.jsonl.0123456789ab.tmp"), "partial")
		}, func(fixture) []found { return nil }},
		{"a torn index line in the middle", plain, func(t *testing.T, f fixture) {
			l := f.lines(t)
			l[1] = l[1][:30]
			f.writeIndex(t, l, true)
		}, func(f fixture) []found {
			return []found{{f.index, "1", storage.ProblemSyntax}, {f.note(f.refs[1]), f.refs[1], storage.ProblemUnreferenced}}
		}},
		{"a torn encoded index line in the middle", sealed, func(t *testing.T, f fixture) {
			l := f.lines(t)
			l[1] = l[1][:60]
			f.writeIndex(t, l, true)
		}, func(f fixture) []found {
			return []found{{f.index, "1", storage.ProblemDecode}, {f.note(f.refs[1]), f.refs[1], storage.ProblemUnreferenced}}
		}},
		{"a torn index line at the end", plain, func(t *testing.T, f fixture) {
			l := f.lines(t)
			l[2] = l[2][:50]
			f.writeIndex(t, l, false)
		}, func(f fixture) []found {
			return []found{{f.index, "2", storage.ProblemTorn}, {f.note(f.refs[2]), f.refs[2], storage.ProblemUnreferenced}}
		}},
		{"a torn encoded index line at the end", gzip, func(t *testing.T, f fixture) {
			l := f.lines(t)
			l[2] = l[2][:50]
			f.writeIndex(t, l, false)
		}, func(f fixture) []found {
			return []found{{f.index, "2", storage.ProblemTorn}, {f.note(f.refs[2]), f.refs[2], storage.ProblemUnreferenced}}
		}},
		{"a last line without its newline is a torn tail, which lists no note", sealed, func(t *testing.T, f fixture) {
			f.writeIndex(t, f.lines(t), false)
		}, func(f fixture) []found {
			return []found{{f.index, "2", storage.ProblemTorn}, {f.note(f.refs[2]), f.refs[2], storage.ProblemUnreferenced}}
		}},
		{"an empty index line", plain, func(t *testing.T, f fixture) {
			l := f.lines(t)
			f.writeIndex(t, append(l[:1], append([]string{""}, l[1:]...)...), true)
		}, func(f fixture) []found { return []found{{f.index, "1", storage.ProblemSyntax}} }},
		{"an index line that is JSON but not an entry", plain, func(t *testing.T, f fixture) {
			l := f.lines(t)
			l[0] = `{"ref":"../` + secretWord + `","preview":"x"}`
			f.writeIndex(t, l, true)
		}, func(f fixture) []found {
			return []found{{f.index, "0", storage.ProblemFrame}, {f.note(f.refs[0]), f.refs[0], storage.ProblemUnreferenced}}
		}},
		{"a duplicated index line", plain, func(t *testing.T, f fixture) {
			l := f.lines(t)
			f.writeIndex(t, append(l, l[0]), true)
		}, func(f fixture) []found { return []found{{f.index, "3", storage.ProblemDuplicate}} }},
		{"a plaintext index line under a codec", gzip, func(t *testing.T, f fixture) {
			l := f.lines(t)
			l[1] = `{"ref":"` + f.refs[1] + `","preview":"second"}`
			f.writeIndex(t, l, true)
		}, func(f fixture) []found {
			return []found{{f.index, "1", storage.ProblemDecode}, {f.note(f.refs[1]), f.refs[1], storage.ProblemUnreferenced}}
		}},
		{"an index line under another codec", gzip, func(t *testing.T, f fixture) {
			l := f.lines(t)
			l[2] = encodeAs(t, codec.Zstd(), storage.KindArchiveIndex, "2", `{"ref":"`+f.refs[2]+`","preview":"third"}`)
			f.writeIndex(t, l, true)
		}, func(f fixture) []found {
			return []found{{f.index, "2", storage.ProblemDecode}, {f.note(f.refs[2]), f.refs[2], storage.ProblemUnreferenced}}
		}},
		{"an encoded index line in a plaintext archive", plain, func(t *testing.T, f fixture) {
			l := f.lines(t)
			l[0] = encodeAs(t, codec.Gzip(), storage.KindArchiveIndex, "0", `{"ref":"`+f.refs[0]+`","preview":"first"}`)
			f.writeIndex(t, l, true)
		}, func(f fixture) []found {
			return []found{{f.index, "0", storage.ProblemDecode}, {f.note(f.refs[0]), f.refs[0], storage.ProblemUnreferenced}}
		}},
		{"sealed index lines swapped", sealed, func(t *testing.T, f fixture) {
			l := f.lines(t)
			l[0], l[1] = l[1], l[0]
			f.writeIndex(t, l, true)
		}, func(f fixture) []found {
			return []found{
				{f.index, "0", storage.ProblemDecode}, {f.index, "1", storage.ProblemDecode},
				{f.note(f.refs[0]), f.refs[0], storage.ProblemUnreferenced}, {f.note(f.refs[1]), f.refs[1], storage.ProblemUnreferenced},
			}
		}},
		{"a note whose plaintext was altered", plain, func(t *testing.T, f fixture) {
			writeFile(t, f.note(f.refs[1]), "second "+secretWord+" altered")
		}, func(f fixture) []found { return []found{{f.note(f.refs[1]), f.refs[1], storage.ProblemIntegrity}} }},
		{"a compressed note whose content was altered", gzip, func(t *testing.T, f fixture) {
			writeFile(t, f.note(f.refs[0]), encodeAs(t, codec.Gzip(), storage.KindArchive, f.refs[0], "altered "+secretWord))
		}, func(f fixture) []found { return []found{{f.note(f.refs[0]), f.refs[0], storage.ProblemIntegrity}} }},
		{"a sealed note swapped for another", sealed, func(t *testing.T, f fixture) {
			b, err := os.ReadFile(f.note(f.refs[0]))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, f.note(f.refs[2]), string(b))
		}, func(f fixture) []found { return []found{{f.note(f.refs[2]), f.refs[2], storage.ProblemDecode}} }},
		{"a plaintext note under a codec", sealed, func(t *testing.T, f fixture) {
			writeFile(t, f.note(f.refs[2]), "third "+secretWord)
		}, func(f fixture) []found { return []found{{f.note(f.refs[2]), f.refs[2], storage.ProblemDecode}} }},
		{"an encoded note in a plaintext archive", plain, func(t *testing.T, f fixture) {
			writeFile(t, f.note(f.refs[2]), encodeAs(t, codec.Gzip(), storage.KindArchive, f.refs[2], "third "+secretWord))
		}, func(f fixture) []found { return []found{{f.note(f.refs[2]), f.refs[2], storage.ProblemDecode}} }},
		{"a missing note", sealed, func(t *testing.T, f fixture) {
			if err := os.Remove(f.note(f.refs[1])); err != nil {
				t.Fatal(err)
			}
		}, func(f fixture) []found { return []found{{f.note(f.refs[1]), f.refs[1], storage.ProblemMissing}} }},
		{"a missing notes directory", plain, func(t *testing.T, f fixture) {
			if err := os.RemoveAll(filepath.Join(f.dir, "notes")); err != nil {
				t.Fatal(err)
			}
		}, func(f fixture) []found {
			return []found{
				{f.note(f.refs[0]), f.refs[0], storage.ProblemMissing},
				{f.note(f.refs[1]), f.refs[1], storage.ProblemMissing},
				{f.note(f.refs[2]), f.refs[2], storage.ProblemMissing},
			}
		}},
		{"a symlinked note", plain, func(t *testing.T, f fixture) {
			target := filepath.Join(t.TempDir(), "note.md")
			copyFile(t, f.note(f.refs[0]), target)
			replaceWithSymlink(t, f.note(f.refs[0]), target)
		}, func(f fixture) []found { return []found{{f.note(f.refs[0]), f.refs[0], storage.ProblemSymlink}} }},
		{"a dangling symlinked note", plain, func(t *testing.T, f fixture) {
			replaceWithSymlink(t, f.note(f.refs[0]), filepath.Join(t.TempDir(), "nothing"))
		}, func(f fixture) []found { return []found{{f.note(f.refs[0]), f.refs[0], storage.ProblemSymlink}} }},
		{"a symlinked index", plain, func(t *testing.T, f fixture) {
			target := filepath.Join(t.TempDir(), "index.jsonl")
			copyFile(t, f.index, target)
			replaceWithSymlink(t, f.index, target)
		}, func(f fixture) []found { return []found{{f.index, "", storage.ProblemSymlink}} }},
		{"a symlinked notes directory", plain, func(t *testing.T, f fixture) {
			notes := filepath.Join(f.dir, "notes")
			target := filepath.Join(t.TempDir(), "notes")
			if err := os.Rename(notes, target); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, notes); err != nil {
				t.Fatal(err)
			}
		}, func(f fixture) []found { return []found{{filepath.Join(f.dir, "notes"), "", storage.ProblemSymlink}} }},
		{"a note that is a directory", plain, func(t *testing.T, f fixture) {
			if err := os.Remove(f.note(f.refs[1])); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(f.note(f.refs[1]), 0o700); err != nil {
				t.Fatal(err)
			}
		}, func(f fixture) []found { return []found{{f.note(f.refs[1]), f.refs[1], storage.ProblemFile}} }},
		{"an index that is a directory", plain, func(t *testing.T, f fixture) {
			if err := os.Remove(f.index); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(f.index, 0o700); err != nil {
				t.Fatal(err)
			}
		}, func(f fixture) []found { return []found{{f.index, "", storage.ProblemFile}} }},
		{"misnamed notes", plain, func(t *testing.T, f fixture) {
			writeFile(t, filepath.Join(f.dir, "notes", strings.ToUpper(f.refs[0])+".md"), "first "+secretWord)
			writeFile(t, filepath.Join(f.dir, "notes", "x.md"), secretWord)
		}, func(f fixture) []found {
			return []found{
				{filepath.Join(f.dir, "notes", strings.ToUpper(f.refs[0])+".md"), "", storage.ProblemName},
				{filepath.Join(f.dir, "notes", "x.md"), "", storage.ProblemName},
			}
		}},
		{"a note no index line lists", sealed, func(t *testing.T, f fixture) {
			content := "unlisted " + secretWord
			writeFile(t, f.note(sha(content)), encodeAs(t, f.opts.Encoding.Codec, storage.KindArchive, sha(content), content))
		}, func(f fixture) []found {
			return []found{{f.note(sha("unlisted " + secretWord)), sha("unlisted " + secretWord), storage.ProblemUnreferenced}}
		}},
		{"an unlisted note that is damaged is reported as damaged only", plain, func(t *testing.T, f fixture) {
			writeFile(t, f.note(sha("unlisted")), "altered")
		}, func(f fixture) []found {
			return []found{{f.note(sha("unlisted")), sha("unlisted"), storage.ProblemIntegrity}}
		}},
		{"all problems of an archive with several", plain, func(t *testing.T, f fixture) {
			l := f.lines(t)
			l[0] = l[0][:25]                       // torn in the middle
			l = append(l, "{not json", l[1], l[2]) // garbage, then duplicates
			l[len(l)-1] = l[len(l)-1][:10]         // and a torn tail
			f.writeIndex(t, l, false)
			writeFile(t, f.note(f.refs[1]), "altered "+secretWord)
			if err := os.Remove(f.note(f.refs[2])); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(f.dir, "notes", "bad.md"), "")
		}, func(f fixture) []found {
			notes := []found{ // note files come in name order
				{filepath.Join(f.dir, "notes", "bad.md"), "", storage.ProblemName},
				{f.note(f.refs[0]), f.refs[0], storage.ProblemUnreferenced},
				{f.note(f.refs[1]), f.refs[1], storage.ProblemIntegrity},
			}
			slices.SortFunc(notes, func(a, b found) int { return strings.Compare(a.File, b.File) })
			list := []found{
				{f.index, "0", storage.ProblemSyntax},
				{f.index, "3", storage.ProblemSyntax},
				{f.index, "4", storage.ProblemDuplicate},
				{f.index, "5", storage.ProblemTorn},
			}
			list = append(list, notes...)
			return append(list, found{f.note(f.refs[2]), f.refs[2], storage.ProblemMissing})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts(t)
			f := newFixture(t, opts)
			tt.corrupt(t, f)
			got := f.verify(t, opts)
			if want := tt.want(f); !slices.Equal(got, want) {
				t.Errorf("Verify found\n%v\nwant\n%v", got, want)
			}
		})
	}
}

func TestVerifyReportsAFailingCodecWithoutItsError(t *testing.T) {
	c := &xorCodec{id: "xor-v1"}
	opts := archive.Options{SessionID: "s1", Encoding: storage.Encoding{Codec: c}}
	f := newFixture(t, opts)
	c.failKind = storage.KindArchive
	got := f.verify(t, opts)
	var want []found
	for _, ref := range slices.Sorted(slices.Values(f.refs)) {
		want = append(want, found{f.note(ref), ref, storage.ProblemDecode})
	}
	if !slices.Equal(got, want) {
		t.Errorf("Verify found %v, want %v", got, want)
	}
	for _, sc := range c.contexts() {
		if sc.ScopeID != "s1" {
			t.Errorf("codec called with scope %q", sc.ScopeID)
		}
	}
}

func TestVerifyFailsAsAWholeOnlyWhenItCannotCheck(t *testing.T) {
	t.Run("the context ended", func(t *testing.T) {
		f := newFixture(t, archive.Options{})
		a := open(t, f.dir, archive.Options{})
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if p, err := a.Verify(ctx); !errors.Is(err, context.Canceled) || p != nil {
			t.Errorf("Verify = %v, %v; want the context's error", p, err)
		}
	})
	t.Run("another process holds the lock", func(t *testing.T) {
		f := newFixture(t, archive.Options{})
		if err := os.Mkdir(f.dir+".lock", 0o700); err != nil {
			t.Fatal(err)
		}
		a := open(t, f.dir, archive.Options{})
		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		defer cancel()
		if p, err := a.Verify(ctx); !errors.Is(err, context.DeadlineExceeded) || p != nil {
			t.Errorf("Verify = %v, %v; want the context's error", p, err)
		}
		if _, err := os.Stat(f.dir + ".lock"); err != nil {
			t.Errorf("another holder's lock was removed: %v", err)
		}
	})
	t.Run("the directory was replaced", func(t *testing.T) {
		f := newFixture(t, archive.Options{})
		a := open(t, f.dir, archive.Options{})
		if err := os.Rename(f.dir, f.dir+".old"); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(f.dir, 0o700); err != nil {
			t.Fatal(err)
		}
		p, err := a.Verify(t.Context())
		storageError(t, err, "Storage directory changed")
		if p != nil {
			t.Errorf("Verify returned problems %v with its error", p)
		}
	})
}

func TestVerifyHoldsTheLockWhileTheCodecRuns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s.context")
	c := &blockingCodec{entered: make(chan storage.Context, 1), release: make(chan struct{})}
	close(c.release)
	a := open(t, dir, archive.Options{Encoding: storage.Encoding{Codec: c}})
	put(t, a, "content", nil)
	<-c.entered
	c = &blockingCodec{entered: make(chan storage.Context, 1), release: make(chan struct{})}
	a = open(t, dir, archive.Options{Encoding: storage.Encoding{Codec: c}})
	done := make(chan error, 1)
	go func() {
		_, err := a.Verify(t.Context())
		done <- err
	}()
	<-c.entered
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(real + ".lock"); err != nil || !st.IsDir() {
		t.Errorf("lock directory absent while the codec runs: %v", err)
	}
	close(c.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(real + ".lock"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock not released: %v", err)
	}
}

// FuzzVerifyIndex checks that Verify of any index.jsonl never fails as a
// whole, changes nothing, names the index and a line in range for every
// index problem, and agrees with the operations: Search fails exactly when
// Verify finds an index line other than a duplicate bad, and then names
// Verify's first such line.
func FuzzVerifyIndex(f *testing.F) {
	const ref = "f49fb7f0f8159e16fbaa7c2b678923a097a8056057e972dbd270c7149c2af98f"
	good := `{"ref":"` + ref + `","preview":"hello, archive"}` + "\n"
	f.Add([]byte(good))
	f.Add([]byte(good + good))
	f.Add([]byte(good + "not json\n" + good[:20]))
	f.Add([]byte(good + "\n" + `{"ref":"x"}` + "\n"))
	f.Add([]byte(`{"liteAgentStorage":1,"codec":"gzip-v1","payload":"e30="}` + "\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := filepath.Join(t.TempDir(), "s.context")
		a := open(t, dir, archive.Options{})
		index := filepath.Join(dir, "index.jsonl")
		if err := os.WriteFile(index, data, 0o600); err != nil {
			t.Fatal(err)
		}
		problems, err := a.Verify(t.Context())
		if err != nil {
			t.Fatalf("Verify: %v", err)
		}
		if after, err := os.ReadFile(index); err != nil || string(after) != string(data) {
			t.Fatalf("Verify changed the index: %v", err)
		}
		lines := strings.Count(string(data), "\n")
		if !strings.HasSuffix(string(data), "\n") && len(data) > 0 {
			lines++
		}
		first := ""
		torn := 0
		for _, p := range problems {
			if p.Kind == storage.ProblemTorn {
				torn++
			}
			var se *storage.Error
			if !errors.As(p.Err, &se) || se.File != p.File || se.Record != p.Record {
				t.Fatalf("problem %+v: Err does not name its file and record", p)
			}
			if p.Kind == storage.ProblemMissing {
				continue
			}
			n, aerr := strconv.Atoi(p.Record)
			if p.File != index || aerr != nil || n < 0 || n >= lines {
				t.Fatalf("problem %+v does not name an index line of %d", p, lines)
			}
			if p.Kind == storage.ProblemTorn && (!p.Tail || n != lines-1 || p.Offset != int64(strings.LastIndexByte(string(data), '\n')+1)) {
				t.Fatalf("torn tail %+v is not after the last newline", p)
			}
			if first == "" && p.Kind.Damage() && p.Kind != storage.ProblemDuplicate {
				first = p.Record
			}
		}
		if wantTorn := len(data) > 0 && data[len(data)-1] != '\n'; (torn == 1) != wantTorn || torn > 1 {
			t.Fatalf("%d torn problems for an index that ends %q", torn, data[max(0, len(data)-4):])
		}
		_, err = a.Search(t.Context(), archive.Query{Text: "zzz"})
		var se *storage.Error
		switch {
		case err == nil && first != "":
			t.Fatalf("Search succeeds but Verify reports line %s", first)
		case err != nil && (!errors.As(err, &se) || se.Record != first):
			t.Fatalf("Search fails with %v but Verify's first bad line is %q", err, first)
		}
	})
}
