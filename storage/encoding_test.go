package storage_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
)

// testCodec is a deterministic codec for vectors: it XORs every byte with
// 0x5a, and can be told to fail or to misbehave.
type testCodec struct {
	id        string
	failEnc   bool
	failDec   bool
	nilOut    bool
	badUTF8   bool
	seen      []storage.Context
	secretErr error
}

func (c *testCodec) ID() string { return c.id }

func (c *testCodec) Encode(_ context.Context, p []byte, sc storage.Context) ([]byte, error) {
	c.seen = append(c.seen, sc)
	if c.failEnc {
		return nil, c.secretErr
	}
	if c.nilOut {
		return nil, nil
	}
	return xor(p), nil
}

func (c *testCodec) Decode(_ context.Context, p []byte, sc storage.Context) ([]byte, error) {
	c.seen = append(c.seen, sc)
	if c.failDec {
		return nil, c.secretErr
	}
	if c.nilOut {
		return nil, nil
	}
	if c.badUTF8 {
		return []byte{0xff, 0xfe}, nil
	}
	return xor(p), nil
}

func xor(p []byte) []byte {
	out := make([]byte, len(p))
	for i, b := range p {
		out[i] = b ^ 0x5a
	}
	return out
}

// identity is a codec that stores bytes unchanged, for hand-written vectors.
type identity struct{}

func (identity) ID() string { return "identity-v1" }
func (identity) Encode(_ context.Context, p []byte, _ storage.Context) ([]byte, error) {
	return bytes.Clone(p), nil
}
func (identity) Decode(_ context.Context, p []byte, _ storage.Context) ([]byte, error) {
	return bytes.Clone(p), nil
}

func TestEnvelopeBytesMatchReference(t *testing.T) {
	enc := storage.Encoding{Codec: identity{}}
	got, err := enc.Encode(t.Context(), storage.KindCheckpoint, "s1", "1", []byte(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"liteAgentStorage":1,"codec":"identity-v1","payload":"eyJhIjoxfQ=="}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}

	// The XOR codec: "hi" -> 0x32 0x33 -> "MjM=".
	enc = storage.Encoding{Codec: &testCodec{id: "xor.v1.k1"}}
	got, err = enc.Encode(t.Context(), storage.KindTask, "list", "1", []byte("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"liteAgentStorage":1,"codec":"xor.v1.k1","payload":"MjM="}`; string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestHandWrittenReferenceVectorsDecode(t *testing.T) {
	vectors := []struct {
		stored, plain string
	}{
		{`{"liteAgentStorage":1,"codec":"identity-v1","payload":"eyJhIjoxfQ=="}`, `{"a":1}`},
		{`{"liteAgentStorage":1,"codec":"identity-v1","payload":""}`, ``},
		{`{"liteAgentStorage":1,"codec":"identity-v1","payload":"w6k="}`, "é"},
		{`{"liteAgentStorage":1,"codec":"identity-v1","payload":"YWI="}`, "ab"},
	}
	enc := storage.Encoding{Codec: identity{}}
	for _, v := range vectors {
		got, err := enc.Decode(t.Context(), storage.KindArchive, "s", "r", []byte(v.stored))
		if err != nil {
			t.Errorf("%s: %v", v.stored, err)
			continue
		}
		if string(got) != v.plain {
			t.Errorf("%s: got %q want %q", v.stored, got, v.plain)
		}
	}
}

func TestPlaintextIsStoredUnchanged(t *testing.T) {
	var enc storage.Encoding
	in := []byte("not json at all\n")
	out, err := enc.Encode(t.Context(), storage.KindArchive, "s", "r", in)
	if err != nil || !bytes.Equal(out, in) {
		t.Fatalf("encode: %q %v", out, err)
	}
	out, err = enc.Decode(t.Context(), storage.KindArchive, "s", "r", in)
	if err != nil || !bytes.Equal(out, in) {
		t.Fatalf("decode: %q %v", out, err)
	}
	// JSON objects that merely mention the key inside a value are plaintext.
	in = []byte(`{"seq":1,"event":{"text":"liteAgentStorage"}}`)
	if out, err := enc.Decode(t.Context(), storage.KindCheckpoint, "s", "1", in); err != nil || !bytes.Equal(out, in) {
		t.Fatalf("decode: %q %v", out, err)
	}
}

func TestContextDefaultsAndKeyOrder(t *testing.T) {
	c := &testCodec{id: "t1"}
	enc := storage.Encoding{Codec: c}
	if _, err := enc.Encode(t.Context(), storage.KindSpill, "project", "abcd", []byte("x")); err != nil {
		t.Fatal(err)
	}
	want := storage.Context{Namespace: "lite-agent", ProjectID: "standalone", Kind: storage.KindSpill, ScopeID: "project", RecordID: "abcd"}
	if c.seen[0] != want {
		t.Errorf("context %+v, want %+v", c.seen[0], want)
	}
	b, _ := json.Marshal(want)
	if s := `{"namespace":"lite-agent","projectId":"standalone","kind":"spill","scopeId":"project","recordId":"abcd"}`; string(b) != s {
		t.Errorf("json %s", b)
	}
	enc = storage.Encoding{Codec: c, Namespace: "acme", ProjectID: "0123456789abcdef"}
	if got := enc.Context(storage.KindCheckpoint, "s", "3"); got.Namespace != "acme" || got.ProjectID != "0123456789abcdef" {
		t.Errorf("context %+v", got)
	}
}

func TestContextJSONEscapesLikeJavaScript(t *testing.T) {
	sc := storage.Context{Namespace: "n", ProjectID: "p", Kind: storage.KindTask, ScopeID: "a\"b\\c\n\t\x01", RecordID: "<&>\u2028é"}
	b, err := sc.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"namespace":"n","projectId":"p","kind":"task","scopeId":"a\"b\\c\n\t\u0001","recordId":"<&>` + "\u2028" + `é"}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	var back map[string]string
	if err := json.Unmarshal(b, &back); err != nil || back["scopeId"] != sc.ScopeID {
		t.Errorf("round trip: %v %v", back, err)
	}
	// A byte that is not UTF-8 becomes U+FFFD, as on its way into a
	// JavaScript string; a long plain id is copied as it is.
	sc = storage.Context{Namespace: "n", ProjectID: "0123456789abcdef0123", Kind: storage.KindTask, ScopeID: "x\xffy\xe2\x82", RecordID: "1"}
	b, _ = sc.MarshalJSON()
	want = `{"namespace":"n","projectId":"0123456789abcdef0123","kind":"task","scopeId":"x` + "\ufffd" + `y` + "\ufffd\ufffd" + `","recordId":"1"}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

func TestEncodingErrors(t *testing.T) {
	secret := errors.New("secret key material 0xDEADBEEF")
	valid := `{"liteAgentStorage":1,"codec":"t1","payload":"MjM="}`
	tests := []struct {
		name    string
		codec   storage.Codec
		encode  bool
		stored  string
		message string
	}{
		{"encode callback fails", &testCodec{id: "t1", failEnc: true, secretErr: secret}, true, "", "Storage encode failed (checkpoint)"},
		{"encode returns no bytes", &testCodec{id: "t1", nilOut: true}, true, "", "Storage encode must return bytes"},
		{"decode callback fails", &testCodec{id: "t1", failDec: true, secretErr: secret}, false, valid, "Storage decode failed (checkpoint)"},
		{"decode returns no bytes", &testCodec{id: "t1", nilOut: true}, false, valid, "Storage decode must return bytes"},
		{"decode returns invalid UTF-8", &testCodec{id: "t1", badUTF8: true}, false, valid, "Storage decode returned invalid UTF-8"},
		{"codec id mismatch", &testCodec{id: "t2"}, false, valid, "explicit migration is required"},
		{"plaintext under a codec", &testCodec{id: "t1"}, false, `{"seq":1}`, "explicit migration is required"},
		{"non-JSON under a codec", &testCodec{id: "t1"}, false, `hello`, "explicit migration is required"},
		{"envelope without codec", nil, false, valid, "Encoded storage requires its configured codec"},
		{"envelope without codec, other version", nil, false, `{"liteAgentStorage":2}`, "Encoded storage requires its configured codec"},
		{"unpadded base64", &testCodec{id: "t1"}, false, `{"liteAgentStorage":1,"codec":"t1","payload":"MjM"}`, "migration"},
		{"non-canonical base64 bits", &testCodec{id: "t1"}, false, `{"liteAgentStorage":1,"codec":"t1","payload":"MjN="}`, "migration"},
		{"base64 with newline", &testCodec{id: "t1"}, false, `{"liteAgentStorage":1,"codec":"t1","payload":"Mj\nM="}`, "migration"},
		{"url-safe base64", &testCodec{id: "t1"}, false, `{"liteAgentStorage":1,"codec":"t1","payload":"-_8="}`, "migration"},
		{"version 2", &testCodec{id: "t1"}, false, `{"liteAgentStorage":2,"codec":"t1","payload":"MjM="}`, "migration"},
		{"version as string", &testCodec{id: "t1"}, false, `{"liteAgentStorage":"1","codec":"t1","payload":"MjM="}`, "migration"},
		{"missing codec", &testCodec{id: "t1"}, false, `{"liteAgentStorage":1,"payload":"MjM="}`, "migration"},
		{"missing payload", &testCodec{id: "t1"}, false, `{"liteAgentStorage":1,"codec":"t1"}`, "migration"},
		{"payload not a string", &testCodec{id: "t1"}, false, `{"liteAgentStorage":1,"codec":"t1","payload":5}`, "migration"},
		{"extra key", &testCodec{id: "t1"}, false, `{"liteAgentStorage":1,"codec":"t1","payload":"MjM=","x":1}`, "migration"},
		{"reordered keys", &testCodec{id: "t1"}, false, `{"codec":"t1","liteAgentStorage":1,"payload":"MjM="}`, "migration"},
		{"whitespace", &testCodec{id: "t1"}, false, `{"liteAgentStorage":1, "codec":"t1","payload":"MjM="}`, "migration"},
		{"bad codec id", &testCodec{id: "bad id"}, false, valid, "Invalid storage codec"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			enc := storage.Encoding{Codec: tc.codec}
			var err error
			if tc.encode {
				_, err = enc.Encode(t.Context(), storage.KindCheckpoint, "s", "3", []byte(`{"x":"plaintext-secret"}`))
			} else {
				_, err = enc.Decode(t.Context(), storage.KindCheckpoint, "s", "3", []byte(tc.stored))
			}
			se := asStorageError(t, err)
			if !strings.Contains(se.Error(), tc.message) {
				t.Errorf("error %q does not contain %q", se.Error(), tc.message)
			}
			if strings.Contains(err.Error(), "DEADBEEF") || strings.Contains(err.Error(), "plaintext-secret") || errors.Is(err, secret) {
				t.Errorf("error leaks the callback error or the payload: %v", err)
			}
		})
	}
}

// ctxCodec fails the way a codec does when its context is cancelled.
type ctxCodec struct{}

func (ctxCodec) ID() string { return "ctx-v1" }
func (ctxCodec) Encode(ctx context.Context, _ []byte, _ storage.Context) ([]byte, error) {
	return nil, ctx.Err()
}
func (ctxCodec) Decode(ctx context.Context, _ []byte, _ storage.Context) ([]byte, error) {
	return nil, ctx.Err()
}

func TestCancelledContextIsReportedAsItself(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	enc := storage.Encoding{Codec: ctxCodec{}}
	if _, err := enc.Encode(ctx, storage.KindTask, "l", "1", []byte("x")); !errors.Is(err, context.Canceled) {
		t.Errorf("encode: %v", err)
	}
	if _, err := enc.Decode(ctx, storage.KindTask, "l", "1", []byte(`{"liteAgentStorage":1,"codec":"ctx-v1","payload":"eA=="}`)); !errors.Is(err, context.Canceled) {
		t.Errorf("decode: %v", err)
	}
}

func TestValidateCodecRejectsNilAndBadIDs(t *testing.T) {
	var nilPtr *testCodec
	cases := map[string]storage.Codec{
		"nil":          nil,
		"typed nil":    nilPtr,
		"empty id":     &testCodec{id: ""},
		"space":        &testCodec{id: "a b"},
		"leading dot":  &testCodec{id: ".gz"},
		"slash":        &testCodec{id: "a/b"},
		"129 chars":    &testCodec{id: strings.Repeat("a", 129)},
		"quote":        &testCodec{id: `a"b`},
		"non-ascii id": &testCodec{id: "gzíp"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			se := asStorageError(t, storage.ValidateCodec(c))
			if !strings.Contains(se.Message, "Invalid storage codec") {
				t.Errorf("message %q", se.Message)
			}
		})
	}
	for _, id := range []string{"gzip-v1", "xchacha20poly1305.v1.k1", "A", strings.Repeat("a", 128)} {
		if err := storage.ValidateCodec(&testCodec{id: id}); err != nil {
			t.Errorf("ValidateCodec(%q) = %v", id, err)
		}
	}
}

func TestRoundTripThroughCodec(t *testing.T) {
	enc := storage.Encoding{Codec: &testCodec{id: "t1"}, Namespace: "acme", ProjectID: "p"}
	for _, s := range []string{"", "x", `{"seq":1,"event":{"type":"user"}}`, strings.Repeat("é€😀", 1000)} {
		stored, err := enc.Encode(t.Context(), storage.KindArchive, "s", "r", []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.ContainsAny(stored, "\n\r") {
			t.Error("envelope is not one line")
		}
		got, err := enc.Decode(t.Context(), storage.KindArchive, "s", "r", stored)
		if err != nil || string(got) != s {
			t.Errorf("round trip of %q: %q %v", s, got, err)
		}
	}
}

// appendCodec is an AppendEncoder that XORs like testCodec and then pads
// its output with pad bytes, or returns a fresh slice instead of appending
// to the caller's, or fails.
type appendCodec struct {
	testCodec
	pad   int
	fresh bool
	own   bool // returns only its output, ignoring dst: a broken AppendEncoder
}

func (c *appendCodec) Encode(ctx context.Context, p []byte, sc storage.Context) ([]byte, error) {
	return c.AppendEncode(ctx, nil, p, sc)
}

func (c *appendCodec) AppendEncode(_ context.Context, dst, p []byte, _ storage.Context) ([]byte, error) {
	if c.failEnc {
		return nil, c.secretErr
	}
	if c.fresh {
		dst = append([]byte(nil), dst...)
	}
	if c.own {
		dst = nil
	}
	for _, b := range p {
		dst = append(dst, b^0x5a)
	}
	return append(dst, bytes.Repeat([]byte{0}, c.pad)...), nil
}

func (c *appendCodec) Decode(_ context.Context, p []byte, _ storage.Context) ([]byte, error) {
	if len(p) < c.pad {
		return nil, errors.New("short")
	}
	return xor(p[:len(p)-c.pad]), nil
}

// TestAppendEncodeMatchesEncode checks that AppendEncode appends what
// Encode returns, after dst's contents, whatever the codec does with the
// buffer: appends within the room it is given, outgrows it (output much
// longer than the plaintext), or returns a slice of its own.
func TestAppendEncodeMatchesEncode(t *testing.T) {
	plain := []byte(strings.Repeat(`{"type":"user","text":"héllo"}`, 40))
	for _, c := range []storage.Codec{
		&testCodec{id: "xor-v1"},
		&appendCodec{testCodec: testCodec{id: "pad-v1"}, pad: 40},
		&appendCodec{testCodec: testCodec{id: "pad-v1"}, pad: 5000},
		&appendCodec{testCodec: testCodec{id: "pad-v1"}, pad: 40, fresh: true},
		nil,
	} {
		enc := storage.Encoding{Codec: c, Namespace: "acme"}
		want, err := enc.Encode(t.Context(), storage.KindCheckpoint, "s1", "3", plain)
		if err != nil {
			t.Fatal(err)
		}
		for _, room := range []int{0, 100, 20000} {
			dst := append(make([]byte, 0, 4+room), "kept"...)
			got, err := enc.AppendEncode(t.Context(), dst, storage.KindCheckpoint, "s1", "3", plain)
			if err != nil || string(got[:4]) != "kept" || !bytes.Equal(got[4:], want) {
				t.Errorf("%T (room %d): AppendEncode = %.60q…, %v; want kept + %.60q…", c, room, got, err, want)
				continue
			}
			back, err := enc.Decode(t.Context(), storage.KindCheckpoint, "s1", "3", got[4:])
			if err != nil || !bytes.Equal(back, plain) {
				t.Errorf("%T (room %d): the record decodes to %d bytes, %v", c, room, len(back), err)
			}
		}
	}
}

func TestAppendEncodeErrorsAreEncodeErrors(t *testing.T) {
	secret := errors.New("key server says: key=hunter2")
	for _, c := range []storage.Codec{
		&appendCodec{testCodec: testCodec{id: "pad-v1", failEnc: true, secretErr: secret}},
		&testCodec{id: "xor-v1", nilOut: true},
		&appendCodec{testCodec: testCodec{id: "pad-v1"}, own: true},
	} {
		enc := storage.Encoding{Codec: c}
		out, err := enc.AppendEncode(t.Context(), []byte("kept"), storage.KindCheckpoint, "s1", "3", []byte("{}"))
		var se *storage.Error
		if out != nil || !errors.As(err, &se) || errors.Is(err, secret) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%T: AppendEncode = %q, %v; want nil and a *storage.Error without the codec's", c, out, err)
		}
	}
}

// TestDecodeNamesTheCodecARecordWasWrittenWith: a record refused because it
// was written under another configuration says which (Error.Found), so that
// a reader can tell the user which --codec to pass; damage does not.
func TestDecodeNamesTheCodecARecordWasWrittenWith(t *testing.T) {
	ctx := t.Context()
	other := storage.Encoding{Codec: identity{}}
	enveloped, err := other.Encode(ctx, storage.KindTask, "l", "1", []byte(`{"id":"1"}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		enc    storage.Encoding
		stored string
		found  string
	}{
		{"envelope read without codec", storage.Encoding{}, string(enveloped), "identity-v1"},
		{"envelope of another codec", storage.Encoding{Codec: &testCodec{id: "other-v2"}}, string(enveloped), "identity-v1"},
		{"plaintext read with codec", storage.Encoding{Codec: identity{}}, `{"id":"1"}`, storage.FoundPlaintext},
		{"damaged envelope", storage.Encoding{Codec: identity{}}, `{"liteAgentStorage":1,"codec":"identity-v1","payload":"@@"}`, ""},
		{"truncated envelope", storage.Encoding{Codec: identity{}}, `{"liteAgentStorage":1,"codec":"ident`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.enc.Decode(ctx, storage.KindTask, "l", "1", []byte(tt.stored))
			var se *storage.Error
			if !errors.As(err, &se) {
				t.Fatalf("Decode error %v, want *storage.Error", err)
			}
			if se.Found != tt.found || se.CodecMismatch() != (tt.found != "") {
				t.Errorf("Found = %q (mismatch %t), want %q", se.Found, se.CodecMismatch(), tt.found)
			}
		})
	}
}
