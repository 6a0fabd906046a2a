package storage_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/storage"
)

// embeddedCodec is a half-built codec: a struct embedding a Codec it was
// never given, whose methods panic with a nil dereference.
type embeddedCodec struct{ storage.Codec }

// panicCodec has a valid ID, and Encode and Decode that panic.
type panicCodec struct{}

func (panicCodec) ID() string { return "panic-v1" }
func (panicCodec) Encode(context.Context, []byte, storage.Context) ([]byte, error) {
	panic("secret key material 0xDEADBEEF")
}
func (panicCodec) Decode(context.Context, []byte, storage.Context) ([]byte, error) {
	panic("secret key material 0xDEADBEEF")
}

// panicAppendCodec panics in AppendEncode and AppendDecode only.
type panicAppendCodec struct{ identity }

func (panicAppendCodec) AppendEncode(context.Context, []byte, []byte, storage.Context) ([]byte, error) {
	panic("boom")
}
func (panicAppendCodec) AppendDecode(context.Context, []byte, []byte, storage.Context) ([]byte, error) {
	panic("boom")
}

// namedIdentity is identity under another id, to write the envelopes the
// codecs of TestHandBuiltEncodingIsCheckedOnEveryRecord would read.
type namedIdentity struct {
	identity
	id string
}

func (c namedIdentity) ID() string { return c.id }

// TestHandBuiltEncodingIsCheckedOnEveryRecord checks that an Encoding that
// never went through Frozen is refused by Encode, AppendEncode, Decode and
// AppendDecode with a *storage.Error, without a panic, whatever is wrong
// with it: the namespace, the codec (nil pointer, bad ID, a struct
// embedding no codec, one that panics) or the record's kind.
func TestHandBuiltEncodingIsCheckedOnEveryRecord(t *testing.T) {
	const all, appendOnly = "all", "append"
	for _, tc := range []struct {
		name    string
		enc     storage.Encoding
		kind    storage.Kind
		ops     string // the operations that must fail: all, or the Append ones
		message string
	}{
		{"bad namespace, plaintext", storage.Encoding{Namespace: "../Not A Namespace"}, storage.KindCheckpoint, all, "storage.namespace"},
		{"bad namespace, codec", storage.Encoding{Namespace: "Acme", Codec: identity{}}, storage.KindCheckpoint, all, "storage.namespace"},
		{"unknown kind, plaintext", storage.Encoding{}, storage.Kind("bogus"), all, "Unknown storage record kind"},
		{"empty kind, codec", storage.Encoding{Codec: identity{}}, "", all, "Unknown storage record kind"},
		{"nil pointer codec", storage.Encoding{Codec: (*testCodec)(nil)}, storage.KindTask, all, "Invalid storage codec"},
		{"codec id with a space", storage.Encoding{Codec: &testCodec{id: "a b"}}, storage.KindTask, all, "Invalid storage codec"},
		{"empty codec id", storage.Encoding{Codec: &testCodec{}}, storage.KindTask, all, "Invalid storage codec"},
		{"struct embedding no codec", storage.Encoding{Codec: embeddedCodec{}}, storage.KindSpill, all, "Invalid storage codec"},
		{"codec that panics", storage.Encoding{Codec: panicCodec{}}, storage.KindArchive, all, "Storage"},
		{"append codec that panics", storage.Encoding{Codec: panicAppendCodec{}}, storage.KindArchiveIndex, appendOnly, "Storage"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			plain := []byte(`{"a":1}`)
			stored := plain
			if tc.enc.Codec != nil {
				// The envelope the codec would read, were it sound.
				id := "panic-v1"
				if _, ok := tc.enc.Codec.(panicCodec); !ok {
					id = "identity-v1"
				}
				var err error
				if stored, err = (storage.Encoding{Codec: namedIdentity{id: id}}).Encode(ctx, storage.KindTask, "s", "1", plain); err != nil {
					t.Fatal(err)
				}
			}
			check := func(op string, out []byte, err error) {
				t.Helper()
				if tc.ops == appendOnly && op[:6] != "Append" {
					return
				}
				var se *storage.Error
				if !errors.As(err, &se) {
					t.Fatalf("%s: error %v (%T) is not a *storage.Error", op, err, err)
				}
				if out != nil {
					t.Errorf("%s returned %q with its error", op, out)
				}
				if !bytes.Contains([]byte(se.Error()), []byte(tc.message)) {
					t.Errorf("%s: error %q does not contain %q", op, se.Error(), tc.message)
				}
				if bytes.Contains([]byte(err.Error()), []byte("DEADBEEF")) {
					t.Errorf("%s: error leaks the panic value: %v", op, err)
				}
			}
			out, err := tc.enc.Encode(ctx, tc.kind, "s", "1", plain)
			check("Encode", out, err)
			out, err = tc.enc.AppendEncode(ctx, make([]byte, 0, 256), tc.kind, "s", "1", plain)
			check("AppendEncode", out, err)
			out, err = tc.enc.Decode(ctx, tc.kind, "s", "1", stored)
			check("Decode", out, err)
			out, err = tc.enc.AppendDecode(ctx, make([]byte, 0, 256), tc.kind, "s", "1", stored)
			check("AppendDecode", out, err)
		})
	}
}

// TestEncodeNeverWritesWhatDecodeRefuses checks the records that a valid
// Encoding used to write and then could not read back: plaintext that is
// an envelope, stored without a codec, and plaintext that is not UTF-8,
// stored under a codec. Encode refuses both with a *storage.Error.
func TestEncodeNeverWritesWhatDecodeRefuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		enc   storage.Encoding
		plain []byte
	}{
		{"envelope as plaintext", storage.Encoding{}, []byte(`{"liteAgentStorage":1,"codec":"gzip","payload":"AAAA"}`)},
		{"escaped envelope key as plaintext", storage.Encoding{}, []byte(`{"liteAgent\u0053torage":2}`)},
		{"invalid UTF-8 under a codec", storage.Encoding{Codec: identity{}}, []byte{'{', 0xff, '}'}},
		{"invalid UTF-8 under an append codec", storage.Encoding{Codec: &appendCodec{testCodec: testCodec{id: "pad-v1"}}}, []byte{0xc3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			if _, err := tc.enc.Encode(ctx, storage.KindSpill, "s", "r", tc.plain); err == nil {
				t.Fatal("Encode succeeded")
			} else {
				asStorageError(t, err)
			}
			if _, err := tc.enc.AppendEncode(ctx, nil, storage.KindSpill, "s", "r", tc.plain); err == nil {
				t.Fatal("AppendEncode succeeded")
			} else {
				asStorageError(t, err)
			}
		})
	}
}

// FuzzEncodingRoundTrip checks that whatever an Encoding built by hand
// holds, Encode either refuses with a *storage.Error or writes a record
// that Decode with the same Encoding gives back exactly, and that neither
// panics.
func FuzzEncodingRoundTrip(f *testing.F) {
	f.Add("", "checkpoint", []byte(`{"seq":1}`), false, "identity-v1")
	f.Add("acme", "spill", []byte(`{"liteAgentStorage":1,"codec":"gzip","payload":"AAAA"}`), false, "")
	f.Add("acme", "task", []byte{0xff}, true, "identity-v1")
	f.Add("Bad", "archive", []byte(`x`), true, "identity-v1")
	f.Add("acme", "", []byte(`x`), true, "bad id")
	f.Add("acme", "archive-index", []byte(``), true, "")
	f.Fuzz(func(t *testing.T, ns, kind string, plain []byte, withCodec bool, id string) {
		ctx := t.Context()
		enc := storage.Encoding{Namespace: ns, ProjectID: "p"}
		if withCodec {
			enc.Codec = &testCodec{id: id}
		}
		stored, err := enc.Encode(ctx, storage.Kind(kind), "s", "1", plain)
		if err != nil {
			var se *storage.Error
			if !errors.As(err, &se) {
				t.Fatalf("Encode error %v (%T) is not a *storage.Error", err, err)
			}
			return
		}
		if withCodec && !utf8.Valid(plain) {
			t.Fatalf("Encode took invalid UTF-8 under a codec")
		}
		back, err := enc.Decode(ctx, storage.Kind(kind), "s", "1", stored)
		if err != nil {
			t.Fatalf("Decode of what Encode wrote: %v", err)
		}
		if !bytes.Equal(back, plain) {
			t.Fatalf("round trip changed %q into %q", plain, back)
		}
		app, err := enc.AppendDecode(ctx, []byte("x"), storage.Kind(kind), "s", "1", stored)
		if err != nil || !bytes.Equal(app, append([]byte("x"), plain...)) {
			t.Fatalf("AppendDecode = %q, %v", app, err)
		}
	})
}
