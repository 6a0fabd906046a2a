package archive_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A copy into another session's archive re-encodes every note under that
// session's id: refs and metadata stay, the copy reads back in its own
// scope, and search shows the same entries.
func TestCopyReencodesUnderTheDestinationSession(t *testing.T) {
	for _, c := range codecMatrix() {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			enc := storage.Encoding{Codec: c.codec(t)}
			root := t.TempDir()
			src := open(t, filepath.Join(root, "s1"), archive.Options{Encoding: enc, SessionID: "s1"})
			big := strings.Repeat("archived tool result 界\n", 2000)
			contents := []struct {
				content string
				meta    map[string]any
			}{
				{big, map[string]any{"tool": "read_file", "n": int64(12345678901234567), "nested": map[string]any{"a": []any{1.5, "x"}}}},
				{"short", nil},
				{"", map[string]any{}},
			}
			for _, x := range contents {
				put(t, src, x.content, x.meta)
			}
			dst := open(t, filepath.Join(root, "s2"), archive.Options{Encoding: enc, SessionID: "s2"})
			n, err := archive.Copy(ctx, dst, src)
			if err != nil || n != len(contents) {
				t.Fatalf("Copy = %d, %v", n, err)
			}
			want := search(t, src, archive.Query{Generation: 1, Limit: 10})
			if got := search(t, dst, archive.Query{Generation: 1, Limit: 10}); got != want {
				t.Errorf("search of the copy:\n%s\nwant\n%s", got, want)
			}
			if got := read(t, dst, archive.ReadRequest{Ref: sha(big), Generation: 2, Limit: 300}); !strings.Contains(got, "archived tool result 界") {
				t.Errorf("read of the copy: %.200q", got)
			}
			// Copying again adds nothing.
			if n, err := archive.Copy(ctx, dst, src); err != nil || n != len(contents) {
				t.Fatalf("second Copy = %d, %v", n, err)
			}
			notes, err := dst.Notes(ctx)
			if err != nil || len(notes) != len(contents) {
				t.Fatalf("Notes = %d, %v", len(notes), err)
			}
			// AEAD notes are bound to their session: the source's note
			// file does not decode as the destination's.
			if c.name != "xchacha20poly1305" && c.name != "aes256gcm" {
				return
			}
			note := filepath.Join("notes", sha("short")+archive.NoteSuffix)
			stored, err := os.ReadFile(filepath.Join(root, "s1", note))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "s2", note), stored, 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := open(t, filepath.Join(root, "s2"), archive.Options{Encoding: enc, SessionID: "s2"}).Notes(ctx); err == nil {
				t.Errorf("a note of session s1 read back as one of s2")
			}
		})
	}
}

// Notes refuses an entry whose note is missing or altered, and Copy then
// puts nothing.
func TestCopyRefusesADamagedSource(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	src := open(t, filepath.Join(root, "s1"), archive.Options{SessionID: "s1"})
	put(t, src, "one", nil)
	put(t, src, "two", nil)
	for _, tc := range []struct {
		name   string
		damage func(note string) error
	}{
		{"altered", func(note string) error { return os.WriteFile(note, []byte("three"), 0o600) }},
		{"missing", os.Remove},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.damage(filepath.Join(root, "s1", "notes", sha("two")+archive.NoteSuffix)); err != nil {
				t.Fatal(err)
			}
			dst := archive.NewMemoryArchive()
			n, err := archive.Copy(ctx, dst, src)
			var se *storage.Error
			if !errors.As(err, &se) || n != 0 {
				t.Fatalf("Copy = %d, %v; want a *storage.Error", n, err)
			}
			if notes, _ := dst.Notes(ctx); len(notes) != 0 {
				t.Errorf("the copy holds %d entries", len(notes))
			}
		})
	}
}
