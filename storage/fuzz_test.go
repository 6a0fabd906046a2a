package storage_test

import (
	"bytes"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
)

// FuzzDecodeEnvelope checks that decoding arbitrary stored text never panics,
// that plaintext mode only ever returns its input, and that under a codec the
// only stored text that decodes is the exact envelope Encode would write.
func FuzzDecodeEnvelope(f *testing.F) {
	f.Add([]byte(`{"liteAgentStorage":1,"codec":"identity-v1","payload":"eyJhIjoxfQ=="}`))
	f.Add([]byte(`{"seq":1,"sessionId":"s","parentSeq":null,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user"}}`))
	f.Add([]byte(`{"liteAgentStorage":1,"codec":"identity-v1","payload":"MjM"}`))
	f.Add([]byte(``))
	f.Fuzz(func(t *testing.T, stored []byte) {
		ctx := t.Context()
		plain, err := storage.Encoding{}.Decode(ctx, storage.KindCheckpoint, "s", "1", stored)
		if err == nil && !bytes.Equal(plain, stored) {
			t.Fatalf("plaintext decode changed the bytes")
		}
		enc := storage.Encoding{Codec: identity{}}
		out, err := enc.Decode(ctx, storage.KindCheckpoint, "s", "1", stored)
		if err != nil {
			return
		}
		again, err := enc.Encode(ctx, storage.KindCheckpoint, "s", "1", out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again, stored) {
			t.Fatalf("non-canonical envelope decoded: %q", stored)
		}
	})
}

// FuzzValidateNamespace checks the namespace rule against a hand-written
// reading of ^[a-z][a-z0-9_-]{0,63}$.
func FuzzValidateNamespace(f *testing.F) {
	for _, s := range []string{"lite-agent", "acme", "../escape", "/root", ".git", "", "a/b", `a\b`, "Mixed", "a_b-9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ns string) {
		want := len(ns) >= 1 && len(ns) <= 64 && ns[0] >= 'a' && ns[0] <= 'z'
		for i := 1; want && i < len(ns); i++ {
			c := ns[i]
			want = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
		}
		if got := storage.ValidateNamespace(ns) == nil; got != want {
			t.Fatalf("ValidateNamespace(%q) valid=%v, want %v", ns, got, want)
		}
	})
}

// FuzzValidateID checks the id rule against a hand-written reading of
// ^[A-Za-z0-9_-]{1,128}$, and that a valid id always stays inside its directory.
func FuzzValidateID(f *testing.F) {
	for _, s := range []string{"abc", "", " ", "..", "/", ".", "é", "a-b_C9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		want := len(id) > 0 && len(id) <= storage.MaxIDLength
		for i := 0; want && i < len(id); i++ {
			c := id[i]
			want = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
		}
		if got := storage.ValidateID(id) == nil; got != want {
			t.Fatalf("ValidateID(%q) valid=%v, want %v", id, got, want)
		}
		dir := storage.SessionContextDir("/h/sessions", id)
		if !bytes.HasPrefix([]byte(dir), []byte("/h/sessions/")) || bytes.Count([]byte(dir[len("/h/sessions/"):]), []byte("/")) != 0 {
			t.Fatalf("context dir %q escapes", dir)
		}
	})
}
