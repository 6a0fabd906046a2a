package spill_test

import (
	"bytes"
	"errors"
	"os"
	"testing"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
)

// FuzzGet stores arbitrary bytes under a ref and checks that Get either
// returns a body that hashes to the ref or a *storage.Error, and never
// changes the file.
func FuzzGet(f *testing.F) {
	f.Add([]byte("hello world"), false)
	f.Add([]byte("hello world"), true)
	f.Add([]byte(`{"liteAgentStorage":1,"codec":"xor-v1","payload":"Mj82NjV6LTUoNj4="}`), true)
	f.Add([]byte(`{"liteAgentStorage":1,"codec":"xor-v1","payload":"Mj82NjV6LTUoNj4="}`), false)
	f.Add([]byte(`{"liteAgentStorage":1,"codec":"xor-v1","payload":"Mj82NjV6LTUoNj4"}`), true)
	f.Add([]byte("\xff\xfe"), false)
	dir := f.TempDir()
	ref := spill.Ref("hello world")
	f.Fuzz(func(t *testing.T, stored []byte, encoded bool) {
		var enc storage.Encoding
		if encoded {
			enc.Codec = &xorCodec{id: "xor-v1"}
		}
		s, err := spill.NewFileStore(dir, enc)
		if err != nil {
			t.Fatal(err)
		}
		p := spillPath(s, ref)
		if err := os.WriteFile(p, stored, 0o600); err != nil {
			t.Fatal(err)
		}
		got, ok, err := s.Get(t.Context(), ref)
		var se *storage.Error
		switch {
		case err != nil && !errors.As(err, &se):
			t.Fatalf("error %v is not a *storage.Error", err)
		case err != nil && ok:
			t.Fatal("ok with an error")
		case err == nil && !ok:
			t.Fatal("existing file reported missing")
		case err == nil && (spill.Ref(got) != ref || !utf8.ValidString(got)):
			t.Fatalf("Get returned %q, which is not the body of %s", got, ref)
		}
		if after, _ := os.ReadFile(p); !bytes.Equal(after, stored) {
			t.Fatal("Get changed the file")
		}
	})
}
