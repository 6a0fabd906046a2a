package spill_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
)

// runContract checks the rules every Store follows.
func runContract(t *testing.T, open func(t *testing.T) (first, second spill.Store)) {
	t.Run("RoundTripsAcrossInstances", func(t *testing.T) {
		a, b := open(t)
		body := strings.Repeat("line of tool output\n", 500)
		ref, err := a.Put(t.Context(), body)
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := b.Get(t.Context(), ref)
		if err != nil || !ok || got != body {
			t.Fatalf("Get(%s) = %d bytes, %v, %v; want the body", ref, len(got), ok, err)
		}
	})
	t.Run("UnknownRefIsNotFound", func(t *testing.T) {
		s, _ := open(t)
		if _, err := s.Put(t.Context(), "something"); err != nil {
			t.Fatal(err)
		}
		for _, ref := range []string{
			"0123456789abcdef",  // well formed, never stored
			"",                  // empty
			"0123456789ABCDEF",  // uppercase
			"0123456789abcde",   // short
			"0123456789abcdef0", // long
			"../../etc/passwd",  // a path
			"0123456789abcde/",  // a path separator
			"0123456789abcdeg",  // not hex
		} {
			got, ok, err := s.Get(t.Context(), ref)
			if err != nil || ok || got != "" {
				t.Errorf("Get(%q) = %q, %v, %v; want not found", ref, got, ok, err)
			}
		}
	})
	t.Run("SameContentSharesOneRef", func(t *testing.T) {
		s, _ := open(t)
		r1, err := s.Put(t.Context(), "same body")
		if err != nil {
			t.Fatal(err)
		}
		r2, err := s.Put(t.Context(), "same body")
		if err != nil {
			t.Fatal(err)
		}
		r3, err := s.Put(t.Context(), "other body")
		if err != nil {
			t.Fatal(err)
		}
		if r1 != r2 || r1 == r3 {
			t.Fatalf("refs %s %s %s: want equal bodies to share a ref and others not", r1, r2, r3)
		}
		if r1 != spill.Ref("same body") || !spill.ValidRef(r1) {
			t.Fatalf("ref %s is not Ref(body)", r1)
		}
	})
	t.Run("CancelledContextIsReported", func(t *testing.T) {
		s, _ := open(t)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if _, err := s.Put(ctx, "x"); err != context.Canceled {
			t.Errorf("Put = %v, want context.Canceled", err)
		}
		if _, _, err := s.Get(ctx, spill.Ref("x")); err != context.Canceled {
			t.Errorf("Get = %v, want context.Canceled", err)
		}
	})
	t.Run("InvalidUTF8IsStoredAsReplacement", func(t *testing.T) {
		s, _ := open(t)
		ref, err := s.Put(t.Context(), "a\xffb")
		if err != nil {
			t.Fatal(err)
		}
		if ref != spill.Ref("a\uFFFDb") {
			t.Fatalf("ref %s, want the ref of the repaired text", ref)
		}
		got, ok, err := s.Get(t.Context(), ref)
		if err != nil || !ok || got != "a\uFFFDb" {
			t.Fatalf("Get = %q, %v, %v", got, ok, err)
		}
	})
}

func TestFileStoreContract(t *testing.T) {
	encodings := map[string]func() storage.Encoding{
		"plaintext": func() storage.Encoding { return storage.Encoding{} },
		"xor": func() storage.Encoding {
			return storage.Encoding{Codec: &xorCodec{id: "xor-v1"}, ProjectID: "0123456789abcdef"}
		},
	}
	for name, enc := range encodings {
		t.Run(name, func(t *testing.T) {
			runContract(t, func(t *testing.T) (spill.Store, spill.Store) {
				dir := filepath.Join(t.TempDir(), "spill")
				e := enc()
				return newStore(t, dir, e), newStore(t, dir, e)
			})
		})
	}
}

func TestMemoryStoreContract(t *testing.T) {
	runContract(t, func(t *testing.T) (spill.Store, spill.Store) {
		s := spill.NewMemoryStore()
		return s, s
	})
}

func TestFileIsNamedByRefAndHoldsPlaintextWithoutCodec(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "spill")
	s := newStore(t, dir, storage.Encoding{})
	ref, err := s.Put(t.Context(), "hello world")
	if err != nil {
		t.Fatal(err)
	}
	// SHA-1("hello world") = 2aae6c35c94fcfb415dbe95f408b9ce91ee846ed.
	if ref != "2aae6c35c94fcfb4" {
		t.Fatalf("ref = %s, want 2aae6c35c94fcfb4", ref)
	}
	if names := listDir(t, dir); !slices.Equal(names, []string{"2aae6c35c94fcfb4.txt"}) {
		t.Fatalf("spill dir holds %v", names)
	}
	p := spillPath(s, ref)
	if got := readFile(t, p); string(got) != "hello world" {
		t.Fatalf("file holds %q", got)
	}
	assertMode(t, p, 0o600)
	assertMode(t, dir, 0o700|fs.ModeDir)
	assertMode(t, filepath.Dir(dir), 0o700|fs.ModeDir)
}

func assertMode(t *testing.T, p string, want fs.FileMode) {
	t.Helper()
	st, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode() != want {
		t.Errorf("%s has mode %v, want %v", p, st.Mode(), want)
	}
}

func TestReadsFileWrittenByOtherImplementation(t *testing.T) {
	// A plaintext spill file as the reference writes it, and an encoded one
	// (XOR codec: every byte ^ 0x5a).
	dir := t.TempDir()
	body := "hello world"
	ref := "2aae6c35c94fcfb4"

	if err := os.MkdirAll(filepath.Join(dir, "plain"), 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "plain", ref+".txt"), []byte(body))
	got, ok, err := newStore(t, filepath.Join(dir, "plain"), storage.Encoding{}).Get(t.Context(), ref)
	if err != nil || !ok || got != body {
		t.Fatalf("plaintext: Get = %q, %v, %v", got, ok, err)
	}

	enc := storage.Encoding{Codec: &xorCodec{id: "xor-v1"}}
	stored, err := enc.Encode(t.Context(), storage.KindSpill, "project", ref, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"liteAgentStorage":1,"codec":"xor-v1","payload":"Mj82NjV6LTUoNj4="}`
	if string(stored) != want {
		t.Fatalf("envelope %s, want %s", stored, want)
	}
	encDir := filepath.Join(dir, "encoded")
	if err := os.MkdirAll(encDir, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(encDir, ref+".txt"), []byte(want))
	got, ok, err = newStore(t, encDir, enc).Get(t.Context(), ref)
	if err != nil || !ok || got != body {
		t.Fatalf("encoded: Get = %q, %v, %v", got, ok, err)
	}
}

func TestEncodedFileHoldsNoPlaintextAndBindsContext(t *testing.T) {
	c := &xorCodec{id: "xor-v1"}
	enc := storage.Encoding{Codec: c, Namespace: "acme", ProjectID: "0123456789abcdef"}
	s := newStore(t, filepath.Join(t.TempDir(), "spill"), enc)
	body := "SECRET tool output " + strings.Repeat("z", 100)
	ref, err := s.Put(t.Context(), body)
	if err != nil {
		t.Fatal(err)
	}
	raw := readFile(t, spillPath(s, ref))
	if bytes.Contains(raw, []byte("SECRET")) {
		t.Fatalf("encoded file holds plaintext: %s", raw)
	}
	if !bytes.HasPrefix(raw, []byte(`{"liteAgentStorage":1,"codec":"xor-v1","payload":"`)) || bytes.Contains(raw, []byte("\n")) {
		t.Fatalf("file is not a one-line envelope: %s", raw)
	}
	got, ok, err := s.Get(t.Context(), ref)
	if err != nil || !ok || got != body {
		t.Fatalf("Get = %v, %v", ok, err)
	}
	want := storage.Context{Namespace: "acme", ProjectID: "0123456789abcdef", Kind: storage.KindSpill, ScopeID: "project", RecordID: ref}
	seen := c.contexts()
	if len(seen) == 0 {
		t.Fatal("codec never called")
	}
	for _, sc := range seen {
		if sc != want {
			t.Fatalf("codec saw context %+v, want %+v", sc, want)
		}
	}
}

func TestDecodeRefusalsLeaveFileUnchanged(t *testing.T) {
	body := "hello world"
	ref := spill.Ref(body)
	xorEnvelope := func(t *testing.T) []byte {
		b, err := storage.Encoding{Codec: &xorCodec{id: "xor-v1"}}.Encode(t.Context(), storage.KindSpill, "project", ref, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		name    string
		stored  func(t *testing.T) []byte
		enc     storage.Encoding
		message string
	}{
		{"PlaintextUnderCodecNeedsMigration", func(*testing.T) []byte { return []byte(body) },
			storage.Encoding{Codec: &xorCodec{id: "xor-v1"}}, "migration"},
		{"EnvelopeWithoutCodecIsRefused", xorEnvelope,
			storage.Encoding{}, "requires its configured codec"},
		{"OtherCodecIDNeedsMigration", xorEnvelope,
			storage.Encoding{Codec: &xorCodec{id: "xor-v2"}}, "migration"},
		{"FailingCodecIsReportedWithoutItsText", xorEnvelope,
			storage.Encoding{Codec: &xorCodec{id: "xor-v1", fail: true}}, "Storage decode failed (spill)"},
		{"BodyNotMatchingRefIsReported", func(*testing.T) []byte { return []byte("hello worle") },
			storage.Encoding{}, "does not match its ref"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStore(t, t.TempDir(), tt.enc)
			p := spillPath(s, ref)
			stored := tt.stored(t)
			writeFile(t, p, stored)

			_, ok, err := s.Get(t.Context(), ref)
			se := storageError(t, err)
			if ok || !strings.Contains(se.Message, tt.message) {
				t.Fatalf("Get = %v, %v; want an error containing %q", ok, err, tt.message)
			}
			if se.Kind != storage.KindSpill || se.Record != ref || se.File != p {
				t.Fatalf("error names kind %q record %q file %q; want spill, %s, %s", se.Kind, se.Record, se.File, ref, p)
			}
			if got := readFile(t, p); !bytes.Equal(got, stored) {
				t.Fatalf("Get changed the file: %q", got)
			}
		})
	}
}

func TestPutNeverOverwritesUndecodableFile(t *testing.T) {
	body := "hello world"
	s := newStore(t, t.TempDir(), storage.Encoding{Codec: &xorCodec{id: "xor-v1"}})
	p := spillPath(s, spill.Ref(body))
	writeFile(t, p, []byte(body)) // plaintext from before the codec
	_, err := s.Put(t.Context(), body)
	if se := storageError(t, err); !strings.Contains(se.Message, "migration") {
		t.Fatalf("Put = %v, want a migration error", err)
	}
	if got := readFile(t, p); string(got) != body {
		t.Fatalf("Put changed the file: %q", got)
	}
}

func TestPutRewritesBodyNotMatchingRef(t *testing.T) {
	body := "hello world"
	s := newStore(t, t.TempDir(), storage.Encoding{})
	p := spillPath(s, spill.Ref(body))
	writeFile(t, p, []byte("damaged"))
	if _, err := s.Put(t.Context(), body); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, p); string(got) != body {
		t.Fatalf("file holds %q, want the body", got)
	}
}

func TestPutOfStoredContentWritesNothing(t *testing.T) {
	s := newStore(t, t.TempDir(), storage.Encoding{})
	ref, err := s.Put(t.Context(), "body")
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.Lstat(spillPath(s, ref))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(t.Context(), "body"); err != nil {
		t.Fatal(err)
	}
	after, err := os.Lstat(spillPath(s, ref))
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Fatal("second Put replaced the file")
	}
}

func TestFailingEncodeWritesNothing(t *testing.T) {
	dir := t.TempDir()
	s := newStore(t, dir, storage.Encoding{Codec: &xorCodec{id: "xor-v1", fail: true}})
	_, err := s.Put(t.Context(), "body")
	if se := storageError(t, err); se.Message != "Storage encode failed (spill)" || se.Record != spill.Ref("body") {
		t.Fatalf("Put = %v", err)
	}
	if names := listDir(t, dir); len(names) != 0 {
		t.Fatalf("spill dir holds %v after a failed encode", names)
	}
}

func TestSymlinkedSpillFileIsRefused(t *testing.T) {
	root := t.TempDir()
	decoy := filepath.Join(root, "decoy.txt")
	writeFile(t, decoy, []byte("hello world"))
	s := newStore(t, filepath.Join(root, "spill"), storage.Encoding{})
	ref := spill.Ref("hello world")
	if err := os.Symlink(decoy, spillPath(s, ref)); err != nil {
		t.Fatal(err)
	}
	_, ok, err := s.Get(t.Context(), ref)
	if se := storageError(t, err); ok || !strings.Contains(se.Message, "Symlink") {
		t.Fatalf("Get through a symlink = %v, %v", ok, err)
	}
	if _, err := s.Put(t.Context(), "hello world"); err == nil {
		t.Fatal("Put through a symlink succeeded")
	}
	if got := readFile(t, decoy); string(got) != "hello world" {
		t.Fatalf("decoy changed: %q", got)
	}
	if st, err := os.Lstat(spillPath(s, ref)); err != nil || st.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("symlink was replaced: %v", err)
	}
}

func TestSymlinkedSpillDirIsRefused(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(root, "target")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "spill")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	_, err := spill.NewFileStore(link, storage.Encoding{})
	if se := storageError(t, err); !strings.Contains(se.Message, "must not be a symlink") {
		t.Fatalf("NewFileStore on a symlink = %v", err)
	}
}

func TestReplacedDirIsDetected(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "spill")
	s := newStore(t, dir, storage.Encoding{})
	ref, err := s.Put(t.Context(), "body")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(dir, filepath.Join(root, "moved")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Get(t.Context(), ref); !strings.Contains(storageError(t, err).Message, "directory changed") {
		t.Fatalf("Get after replacement = %v", err)
	}
	if _, err := s.Put(t.Context(), "other"); !strings.Contains(storageError(t, err).Message, "directory changed") {
		t.Fatalf("Put after replacement = %v", err)
	}
	if names := listDir(t, dir); len(names) != 0 {
		t.Fatalf("replacement dir holds %v", names)
	}
}

func TestRemovedDirIsAnErrorNotAMissingRef(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spill")
	s := newStore(t, dir, storage.Encoding{})
	ref, err := s.Put(t.Context(), "body")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Get(t.Context(), ref); ok || !strings.Contains(storageError(t, err).Message, "directory changed") {
		t.Fatalf("Get after removal = %v, %v", ok, err)
	}
}

func TestInvalidCodecIsRejectedAtConstruction(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spill")
	_, err := spill.NewFileStore(dir, storage.Encoding{Codec: &xorCodec{id: "bad id"}})
	storageError(t, err)
	if _, err := os.Lstat(dir); err == nil {
		t.Fatal("directory created for an invalid codec")
	}
}

func TestConcurrentPutsAndGets(t *testing.T) {
	dir := t.TempDir()
	a := newStore(t, dir, storage.Encoding{})
	b := newStore(t, dir, storage.Encoding{})
	var wg sync.WaitGroup
	for g := range 8 {
		s := a
		if g%2 == 1 {
			s = b
		}
		wg.Go(func() {
			for i := range 50 {
				body := strings.Repeat("x", i) // shared between goroutines
				ref, err := s.Put(t.Context(), body)
				if err != nil {
					t.Error(err)
					return
				}
				if got, ok, err := s.Get(t.Context(), ref); err != nil || !ok || got != body {
					t.Errorf("Get(%s) = %v, %v", ref, ok, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if names := listDir(t, dir); len(names) != 50 {
		t.Fatalf("spill dir holds %d files, want 50 (no temp files left)", len(names))
	}
}

func TestValidRefMatchesItsPattern(t *testing.T) {
	pattern := regexp.MustCompile(`^[a-f0-9]{16}$`)
	refs := []string{
		"", "0123456789abcdef", "0123456789ABCDEF", "0123456789abcde", "0123456789abcdef0", "0123456789abcdeg",
		"0123456789abcde\n", "/123456789abcdef", ":123456789abcdef", "`123456789abcdef", spill.Ref("x"),
	}
	for _, r := range refs {
		if got, want := spill.ValidRef(r), pattern.MatchString(r); got != want {
			t.Errorf("ValidRef(%q) = %v, want %v", r, got, want)
		}
	}
}
