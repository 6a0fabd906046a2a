package archive_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// codecCase is one configuration of the codec matrix.
type codecCase struct {
	name  string
	codec func(t testing.TB) storage.Codec // nil codec: plaintext
}

func codecMatrix() []codecCase {
	return []codecCase{
		{"plaintext", func(testing.TB) storage.Codec { return nil }},
		{"gzip", func(testing.TB) storage.Codec { return codec.Gzip() }},
		{"zstd", func(testing.TB) storage.Codec { return codec.Zstd() }},
		{"xchacha20poly1305", func(t testing.TB) storage.Codec { return aead(t, codec.XChaCha20Poly1305, "k1", "k1") }},
		{"aes256gcm", func(t testing.TB) storage.Codec { return aead(t, codec.AES256GCM, "k1", "k1") }},
	}
}

// exercise puts, searches and reads a fixed script and returns every
// result, so that configurations can be compared.
func exercise(t *testing.T, dir string, opts archive.Options) []string {
	t.Helper()
	a := open(t, dir, opts)
	big := strings.Repeat("line of text 界😀<&>\n", 3000)
	var out []string
	for _, c := range []struct {
		content string
		meta    map[string]any
	}{
		{"short note", nil},
		{big, map[string]any{"kind": "file", "path": "big.txt"}},
		{"", map[string]any{}},
		{"short note", map[string]any{"ignored": true}},
	} {
		e := put(t, a, c.content, c.meta)
		out = append(out, e.Ref, e.Preview)
	}
	// A second value on the same directory sees what the first wrote.
	b := open(t, dir, opts)
	out = append(out,
		search(t, b, archive.Query{Text: "LINE OF", Generation: 1}),
		search(t, b, archive.Query{Text: "", Generation: 2}),
		read(t, b, archive.ReadRequest{Ref: sha(big), Generation: 3}),
		read(t, b, archive.ReadRequest{Ref: sha(big), Generation: 4, Offset: 7000, Limit: 300}),
		read(t, b, archive.ReadRequest{Ref: sha(""), Generation: 5}),
		read(t, b, archive.ReadRequest{Ref: sha("short note"), Generation: 5}),
	)
	return out
}

func TestCodecMatrixRoundTrips(t *testing.T) {
	var want []string
	for _, cc := range codecMatrix() {
		t.Run(cc.name, func(t *testing.T) {
			opts := archive.Options{Encoding: storage.Encoding{Codec: cc.codec(t), Namespace: "acme", ProjectID: "0123456789abcdef"}, SessionID: "s1"}
			got := exercise(t, filepath.Join(t.TempDir(), "s1.context"), opts)
			if want == nil {
				want = got // plaintext runs first
				return
			}
			if len(got) != len(want) {
				t.Fatalf("%d results, want %d", len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("result %d differs from plaintext:\n got %.300q\nwant %.300q", i, got[i], want[i])
				}
			}
		})
	}
}

func TestEncodedRecordsAreOneLineEnvelopes(t *testing.T) {
	for _, cc := range codecMatrix()[1:] {
		t.Run(cc.name, func(t *testing.T) {
			dir := t.TempDir()
			c := cc.codec(t)
			exercise(t, dir, archive.Options{Encoding: storage.Encoding{Codec: c}})
			prefix := `{"liteAgentStorage":1,"codec":"` + c.ID() + `","payload":"`
			index, err := os.ReadFile(filepath.Join(dir, "index.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(string(index), "\n"), "\n")
			if len(lines) != 3 {
				t.Fatalf("%d index lines, want 3", len(lines))
			}
			for i, l := range lines {
				if !strings.HasPrefix(l, prefix) || !strings.HasSuffix(l, `"}`) {
					t.Errorf("index line %d is not an envelope: %.80s", i, l)
				}
			}
			notes, _ := os.ReadDir(filepath.Join(dir, "notes"))
			for _, n := range notes {
				b, _ := os.ReadFile(filepath.Join(dir, "notes", n.Name()))
				if !strings.HasPrefix(string(b), prefix) || strings.Contains(string(b), "\n") {
					t.Errorf("note %s is not a one-line envelope", n.Name())
				}
			}
		})
	}
}

func TestAEADFilesHoldNoPlaintext(t *testing.T) {
	for _, alg := range []codec.Algorithm{codec.XChaCha20Poly1305, codec.AES256GCM} {
		t.Run(alg.String(), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "s1.context")
			a := open(t, dir, archive.Options{Encoding: storage.Encoding{Codec: aead(t, alg, "k1", "k1")}, SessionID: "s1"})
			const content = "PREVIEWSECRET at the start, BODYSECRET later " + "padding padding padding"
			put(t, a, content+strings.Repeat(" more", 200)+" TAILSECRET", map[string]any{"KEYSECRET": "METASECRET.txt"})
			put(t, a, "short PREVIEWSECRET2", nil)
			secrets := []string{"SECRET", "padding", "preview", "metadata", `"ref"`}
			err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				for _, s := range secrets {
					if strings.Contains(string(b), s) {
						t.Errorf("%s contains %q in clear", p, s)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestChangingTheCodecFailsAndChangesNothing(t *testing.T) {
	const (
		migration = "explicit migration is required"
		required  = "Encoded storage requires its configured codec"
		failed    = "Storage decode failed (archive-index)"
	)
	k1 := func(t testing.TB) storage.Codec { return aead(t, codec.XChaCha20Poly1305, "k1", "k1") }
	tests := []struct {
		name     string
		from, to func(t testing.TB) storage.Codec
		want     string
	}{
		{"enabling gzip over plaintext", nil, func(testing.TB) storage.Codec { return codec.Gzip() }, migration},
		{"enabling AEAD over plaintext", nil, k1, migration},
		{"removing gzip", func(testing.TB) storage.Codec { return codec.Gzip() }, nil, required},
		{"removing AEAD", k1, nil, required},
		{"gzip to zstd", func(testing.TB) storage.Codec { return codec.Gzip() }, func(testing.TB) storage.Codec { return codec.Zstd() }, migration},
		{"a new key id", k1, func(t testing.TB) storage.Codec { return aead(t, codec.XChaCha20Poly1305, "k2", "k2") }, migration},
		{"another algorithm", k1, func(t testing.TB) storage.Codec { return aead(t, codec.AES256GCM, "k1", "k1") }, migration},
		{"a wrong key under the same id", k1, func(t testing.TB) storage.Codec { return aead(t, codec.XChaCha20Poly1305, "k1", "other") }, failed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			codecOf := func(f func(testing.TB) storage.Codec) storage.Codec {
				if f == nil {
					return nil
				}
				return f(t)
			}
			f := newFixture(t, archive.Options{Encoding: storage.Encoding{Codec: codecOf(tt.from)}, SessionID: "s1"})
			f.everyOperation(t, archive.Options{Encoding: storage.Encoding{Codec: codecOf(tt.to)}, SessionID: "s1"}, tt.want, f.index, "0")
		})
	}
}

func TestACopiedArchiveResolvesRefsOnlyUnderItsSession(t *testing.T) {
	c := aead(t, codec.XChaCha20Poly1305, "k1", "k1")
	src := filepath.Join(t.TempDir(), "s1.context")
	a := open(t, src, archive.Options{Encoding: storage.Encoding{Codec: c}, SessionID: "s1"})
	e := put(t, a, "moved with the home", nil)

	moved := filepath.Join(t.TempDir(), "elsewhere", "s1.context")
	copyTree(t, src, moved)
	same := open(t, moved, archive.Options{Encoding: storage.Encoding{Codec: c}, SessionID: "s1"})
	if out := read(t, same, archive.ReadRequest{Ref: e.Ref}); !strings.Contains(out, "moved with the home") {
		t.Errorf("copy under the same session:\n%s", out)
	}

	before := snapshot(t, moved)
	other := open(t, moved, archive.Options{Encoding: storage.Encoding{Codec: c}, SessionID: "s2"})
	_, err := other.Read(t.Context(), archive.ReadRequest{Ref: e.Ref})
	storageError(t, err, "Storage decode failed")
	_, err = other.Search(t.Context(), archive.Query{})
	storageError(t, err, "Storage decode failed")
	_, err = other.Put(t.Context(), "moved with the home", nil)
	storageError(t, err, "Storage decode failed")
	sameSnapshot(t, before, snapshot(t, moved))
}

// copyTree copies the regular files and directories under from to to.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o700)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
}
