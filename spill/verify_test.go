package spill_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// treeHash returns a hash of every path under root with its type, mode and
// bytes (or link target), so that tests can assert that nothing changed.
func treeHash(t *testing.T, root string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fmt.Fprintf(h, "%q %v %d\n", rel, info.Mode(), info.ModTime().UnixNano())
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "-> %q\n", target)
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%d %x\n", len(b), sha256.Sum256(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// bodySecret is in every body the tests store, so that they can check that
// no error carries a body.
const bodySecret = "s3cr3t-spill-body"

// spillFound is the comparable part of a storage.Problem.
type spillFound struct {
	File, Record string
	Kind         storage.ProblemKind
}

// verify runs Verify on a fresh store over dir, checks that it changed
// nothing and that every problem's Err is a *storage.Error naming the
// problem's file and record without payload, and returns the problems.
func verify(t *testing.T, dir string, enc storage.Encoding) []spillFound {
	t.Helper()
	before := treeHash(t, dir)
	s := newStore(t, dir, enc)
	problems, err := s.Verify(t.Context())
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if after := treeHash(t, dir); after != before {
		t.Errorf("Verify changed the spill directory")
	}
	var got []spillFound
	for _, p := range problems {
		got = append(got, spillFound{p.File, p.Record, p.Kind})
		se := storageError(t, p.Err)
		if se.File != p.File || se.Record != p.Record || se.Kind != storage.KindSpill {
			t.Errorf("%+v: Err %q names %s record %q kind %q", p, p.Err, se.File, se.Record, se.Kind)
		}
		if strings.Contains(p.Err.Error(), bodySecret) {
			t.Errorf("%+v: Err carries payload: %q", p, p.Err)
		}
	}
	return got
}

func TestVerifyReportsEveryBadSpillFileAndChangesNothing(t *testing.T) {
	key := make([]byte, 32)
	sealed := func(t *testing.T) storage.Encoding {
		return storage.Encoding{Codec: aead(t, codec.XChaCha20Poly1305, "k1", key), ProjectID: "p1"}
	}
	plain := func(*testing.T) storage.Encoding { return storage.Encoding{} }
	gzip := func(*testing.T) storage.Encoding { return storage.Encoding{Codec: codec.Gzip()} }
	bodies := []string{"first " + bodySecret, "second " + bodySecret, "third " + bodySecret}
	ref := func(i int) string { return spill.Ref(bodies[i]) }
	at := func(dir, name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name    string
		enc     func(t *testing.T) storage.Encoding
		corrupt func(t *testing.T, dir string, enc storage.Encoding)
		want    func(dir string) []spillFound
	}{
		{"a clean plaintext store has no problems", plain, func(*testing.T, string, storage.Encoding) {}, func(string) []spillFound { return nil }},
		{"a clean compressed store has no problems", gzip, func(*testing.T, string, storage.Encoding) {}, func(string) []spillFound { return nil }},
		{"a clean sealed store has no problems", sealed, func(*testing.T, string, storage.Encoding) {}, func(string) []spillFound { return nil }},
		{"temp files and other names are ignored", sealed, func(t *testing.T, dir string, _ storage.Encoding) {
			writeFile(t, at(dir, "."+ref(0)+".txt.0123456789ab.tmp"), []byte("partial body"))
			writeFile(t, at(dir, "notes.md"), []byte("not a spill file"))
			if err := os.Mkdir(at(dir, "sub"), 0o700); err != nil {
				t.Fatal(err)
			}
		}, func(string) []spillFound { return nil }},
		{"a file under the wrong codec", gzip, func(t *testing.T, dir string, _ storage.Encoding) {
			b, err := storage.Encoding{Codec: codec.Zstd()}.Encode(t.Context(), storage.KindSpill, spill.Scope, ref(1), []byte(bodies[1]))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, at(dir, ref(1)+".txt"), b)
		}, func(dir string) []spillFound {
			return []spillFound{{at(dir, ref(1)+".txt"), ref(1), storage.ProblemDecode}}
		}},
		{"a plaintext file under a codec", sealed, func(t *testing.T, dir string, _ storage.Encoding) {
			writeFile(t, at(dir, ref(2)+".txt"), []byte(bodies[2]))
		}, func(dir string) []spillFound {
			return []spillFound{{at(dir, ref(2)+".txt"), ref(2), storage.ProblemDecode}}
		}},
		{"an encoded file without a codec", plain, func(t *testing.T, dir string, _ storage.Encoding) {
			b, err := storage.Encoding{Codec: codec.Gzip()}.Encode(t.Context(), storage.KindSpill, spill.Scope, ref(0), []byte(bodies[0]))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, at(dir, ref(0)+".txt"), b)
		}, func(dir string) []spillFound {
			return []spillFound{{at(dir, ref(0)+".txt"), ref(0), storage.ProblemDecode}}
		}},
		{"a sealed file renamed to another ref", sealed, func(t *testing.T, dir string, _ storage.Encoding) {
			if err := os.Rename(at(dir, ref(0)+".txt"), at(dir, "0000000000000000.txt")); err != nil {
				t.Fatal(err)
			}
		}, func(dir string) []spillFound {
			return []spillFound{{at(dir, "0000000000000000.txt"), "0000000000000000", storage.ProblemDecode}}
		}},
		{"a plaintext body that does not match its ref", plain, func(t *testing.T, dir string, _ storage.Encoding) {
			writeFile(t, at(dir, ref(1)+".txt"), []byte("altered "+bodySecret))
		}, func(dir string) []spillFound {
			return []spillFound{{at(dir, ref(1)+".txt"), ref(1), storage.ProblemIntegrity}}
		}},
		{"a compressed body that does not match its ref", gzip, func(t *testing.T, dir string, enc storage.Encoding) {
			b, err := enc.Encode(t.Context(), storage.KindSpill, spill.Scope, ref(1), []byte("altered "+bodySecret))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, at(dir, ref(1)+".txt"), b)
		}, func(dir string) []spillFound {
			return []spillFound{{at(dir, ref(1)+".txt"), ref(1), storage.ProblemIntegrity}}
		}},
		{"misnamed files", plain, func(t *testing.T, dir string, _ storage.Encoding) {
			writeFile(t, at(dir, strings.ToUpper(ref(0))+".txt"), []byte(bodies[0]))
			writeFile(t, at(dir, "short.txt"), []byte("a body"))
			writeFile(t, at(dir, ref(0)[:15]+"g.txt"), []byte("a body"))
		}, func(dir string) []spillFound {
			got := []spillFound{
				{at(dir, strings.ToUpper(ref(0))+".txt"), "", storage.ProblemName},
				{at(dir, "short.txt"), "", storage.ProblemName},
				{at(dir, ref(0)[:15]+"g.txt"), "", storage.ProblemName},
			}
			slices.SortFunc(got, func(a, b spillFound) int { return strings.Compare(a.File, b.File) })
			return got
		}},
		{"a symlinked file", plain, func(t *testing.T, dir string, _ storage.Encoding) {
			target := filepath.Join(t.TempDir(), "outside.txt")
			writeFile(t, target, []byte(bodies[2]))
			if err := os.Remove(at(dir, ref(2)+".txt")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, at(dir, ref(2)+".txt")); err != nil {
				t.Fatal(err)
			}
		}, func(dir string) []spillFound {
			return []spillFound{{at(dir, ref(2)+".txt"), ref(2), storage.ProblemSymlink}}
		}},
		{"a file that is a directory", plain, func(t *testing.T, dir string, _ storage.Encoding) {
			if err := os.Mkdir(at(dir, "1111111111111111.txt"), 0o700); err != nil {
				t.Fatal(err)
			}
		}, func(dir string) []spillFound {
			return []spillFound{{at(dir, "1111111111111111.txt"), "1111111111111111", storage.ProblemFile}}
		}},
		{"all problems of a store with several", gzip, func(t *testing.T, dir string, _ storage.Encoding) {
			writeFile(t, at(dir, ref(0)+".txt"), []byte(bodies[0]))
			b, err := os.ReadFile(at(dir, ref(2)+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, at(dir, ref(1)+".txt"), b)
			writeFile(t, at(dir, "bad.txt"), b)
			if err := os.Symlink(at(dir, ref(2)+".txt"), at(dir, "2222222222222222.txt")); err != nil {
				t.Fatal(err)
			}
		}, func(dir string) []spillFound {
			got := []spillFound{
				{at(dir, ref(0)+".txt"), ref(0), storage.ProblemDecode},
				{at(dir, ref(1)+".txt"), ref(1), storage.ProblemIntegrity},
				{at(dir, "bad.txt"), "", storage.ProblemName},
				{at(dir, "2222222222222222.txt"), "2222222222222222", storage.ProblemSymlink},
			}
			slices.SortFunc(got, func(a, b spillFound) int { return strings.Compare(a.File, b.File) })
			return got
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "spill")
			enc := tt.enc(t)
			s := newStore(t, dir, enc)
			for _, b := range bodies {
				if _, err := s.Put(t.Context(), b); err != nil {
					t.Fatal(err)
				}
			}
			tt.corrupt(t, dir, enc)
			if got, want := verify(t, dir, enc), tt.want(dir); !slices.Equal(got, want) {
				t.Errorf("Verify found\n%+v\nwant\n%+v", got, want)
			}
		})
	}
}

func TestVerifyReportsAFailingSpillCodecWithoutItsError(t *testing.T) {
	dir := t.TempDir()
	c := &xorCodec{id: "xor-v1"}
	s := newStore(t, dir, storage.Encoding{Codec: c})
	ref, err := s.Put(t.Context(), "a body")
	if err != nil {
		t.Fatal(err)
	}
	c.fail = true
	got := verify(t, dir, storage.Encoding{Codec: c})
	want := []spillFound{{filepath.Join(s.Dir(), ref+".txt"), ref, storage.ProblemDecode}}
	if !slices.Equal(got, want) {
		t.Errorf("Verify found %+v, want %+v", got, want)
	}
	cs := c.contexts()
	if last := cs[len(cs)-1]; last.Kind != storage.KindSpill || last.ScopeID != spill.Scope || last.RecordID != ref {
		t.Errorf("codec context %+v", last)
	}
}

func TestVerifyFailsAsAWholeOnlyWhenItCannotCheck(t *testing.T) {
	t.Run("the context ended", func(t *testing.T) {
		s := newStore(t, t.TempDir(), storage.Encoding{})
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if p, err := s.Verify(ctx); !errors.Is(err, context.Canceled) || p != nil {
			t.Errorf("Verify = %v, %v; want the context's error", p, err)
		}
	})
	t.Run("the directory was replaced", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "spill")
		s := newStore(t, dir, storage.Encoding{})
		if _, err := s.Put(t.Context(), "a body"); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(dir, dir+".old"); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		p, err := s.Verify(t.Context())
		se := storageError(t, err)
		if !strings.Contains(se.Message, "Storage directory changed") || se.Kind != storage.KindSpill || p != nil {
			t.Errorf("Verify = %v, %v; want the directory check's error", p, err)
		}
	})
}

// FuzzVerify stores arbitrary bytes under a ref and checks that Verify
// never fails as a whole, changes nothing, and agrees with Get: no problem
// when Get returns the body, and otherwise one problem carrying Get's error.
func FuzzVerify(f *testing.F) {
	f.Add([]byte("hello world"), false)
	f.Add([]byte("hello, world"), false)
	f.Add([]byte("hello world"), true)
	f.Add([]byte(`{"liteAgentStorage":1,"codec":"xor-v1","payload":"Mj82NjV6LTUoNj4="}`), true)
	f.Add([]byte(`{"liteAgentStorage":1,"codec":"xor-v1","payload":"Mj82NjV6LTUoNj4="}`), false)
	f.Add([]byte("\xff\xfe"), false)
	ref := spill.Ref("hello world")
	f.Fuzz(func(t *testing.T, stored []byte, encoded bool) {
		var enc storage.Encoding
		if encoded {
			enc.Codec = &xorCodec{id: "xor-v1"}
		}
		dir := t.TempDir()
		s := newStore(t, dir, enc)
		p := spillPath(s, ref)
		writeFile(t, p, stored)
		problems, err := s.Verify(t.Context())
		if err != nil {
			t.Fatalf("Verify: %v", err)
		}
		if after := readFile(t, p); string(after) != string(stored) {
			t.Fatal("Verify changed the file")
		}
		_, ok, gerr := s.Get(t.Context(), ref)
		switch {
		case gerr == nil && ok && len(problems) != 0:
			t.Fatalf("Get succeeds but Verify reports %+v", problems)
		case gerr != nil && (len(problems) != 1 || problems[0].Err.Error() != gerr.Error() || problems[0].Record != ref):
			t.Fatalf("Get fails with %v but Verify reports %+v", gerr, problems)
		}
	})
}

// BenchmarkVerify100x50KB verifies a spill directory of 100 files of 50 KB,
// plaintext and gzip. The x-raw metric is the time per Verify over reading
// the 100 files raw, measured in the same run.
func BenchmarkVerify100x50KB(b *testing.B) {
	for _, enc := range []struct {
		name string
		enc  storage.Encoding
	}{{"plaintext", storage.Encoding{}}, {"gzip", storage.Encoding{Codec: codec.Gzip()}}} {
		b.Run(enc.name, func(b *testing.B) {
			dir := b.TempDir()
			s, err := spill.NewFileStore(dir, enc.enc)
			if err != nil {
				b.Fatal(err)
			}
			for i := range 100 {
				body := fmt.Sprintf("body %d\n%s", i, strings.Repeat("tool output line of moderate length\n", 50_000/36))
				if _, err := s.Put(b.Context(), body); err != nil {
					b.Fatal(err)
				}
			}
			rawStart := time.Now()
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				os.ReadFile(filepath.Join(dir, e.Name()))
			}
			raw := float64(time.Since(rawStart).Nanoseconds())
			for b.Loop() {
				problems, err := s.Verify(b.Context())
				if err != nil || len(problems) != 0 {
					b.Fatal(err, problems)
				}
			}
			b.SetBytes(100 * 50_000)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/raw, "x-raw")
		})
	}
}
