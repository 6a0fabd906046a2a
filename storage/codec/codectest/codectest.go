// Package codectest checks that a storage.Codec keeps the contract, in the
// manner of testing/fstest and testing/slogtest. Every codec of
// storage/codec runs it, and so can a host's own codec:
//
//	func TestMyCodec(t *testing.T) {
//		codectest.Run(t, func(t *testing.T) storage.Codec {
//			return newMyCodec(t)
//		}, codectest.Options{Authenticated: true})
//	}
package codectest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
)

// Options says which optional promises the codec under test makes.
type Options struct {
	// Authenticated says that the codec authenticates what it stores and
	// binds it to its record: Decode must fail for a payload that was
	// changed in any way (one flipped bit, a truncation, nothing at all)
	// and for a payload decoded under a storage.Context that differs from
	// the one it was encoded under in any field. Encryption codecs make
	// this promise; compression codecs do not.
	Authenticated bool
}

// Run runs the conformance suite as subtests of t. newCodec is called once
// per subtest.
func Run(t *testing.T, newCodec func(t *testing.T) storage.Codec, opts Options) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(t *testing.T, c storage.Codec)
	}{
		{"IDIsValidAndStable", testID},
		{"RoundTrip", testRoundTrip},
		{"LargeInput", testLarge},
		{"InputsAreNeitherChangedNorKept", testInputsUntouched},
		{"AppendMethodsMatch", testAppendMethods},
		{"ThroughEncoding", testThroughEncoding},
		{"DamagedInputNeverPanics", testDamagedNeverPanics},
		{"ConcurrentUse", testConcurrent},
	}
	if opts.Authenticated {
		tests = append(tests, []struct {
			name string
			fn   func(t *testing.T, c storage.Codec)
		}{
			{"AnyChangeFailsToDecode", testTamper},
			{"EmptyInputFailsToDecode", testEmptyFails},
			{"OtherContextFailsToDecode", testOtherContext},
			{"OtherContextFailsThroughEncoding", testOtherContextThroughEncoding},
		}...)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.fn(t, newCodec(t))
		})
	}
}

// sc is the context the suite encodes under.
var sc = storage.Context{Namespace: "acme", ProjectID: "0123456789abcdef", Kind: storage.KindCheckpoint, ScopeID: "session-1", RecordID: "7"}

// inputs returns the plaintexts the suite round-trips: UTF-8 record
// bytes, as the stores hand them over.
func inputs() []struct {
	name string
	data []byte
} {
	return []struct {
		name string
		data []byte
	}{
		{"nil", nil},
		{"empty", []byte{}},
		{"object", []byte("{}")},
		{"newline", []byte("\n")},
		{"non-ASCII", []byte(`{"text":"héllo wörld ✓ 日本語 🚀 \u2028"}`)},
		{"NUL", []byte("a\x00b")},
		{"64KiB repetitive", bytes.Repeat([]byte(`{"type":"user","text":"again"}`), 64<<10/30)},
		{"64KiB random hex", randomHex(64 << 10)},
	}
}

func randomHex(n int) []byte {
	b := make([]byte, n/2)
	rand.Read(b)
	return []byte(hex.EncodeToString(b))
}

func encode(t *testing.T, c storage.Codec, plain []byte, sc storage.Context) []byte {
	t.Helper()
	out, err := c.Encode(t.Context(), plain, sc)
	if err != nil {
		t.Fatalf("Encode(%d bytes): %v", len(plain), err)
	}
	return out
}

func decode(t *testing.T, c storage.Codec, enc []byte, sc storage.Context) []byte {
	t.Helper()
	out, err := c.Decode(t.Context(), enc, sc)
	if err != nil {
		t.Fatalf("Decode(%d bytes): %v", len(enc), err)
	}
	return out
}

func testID(t *testing.T, c storage.Codec) {
	if err := storage.ValidateCodec(c); err != nil {
		t.Fatalf("ValidateCodec: %v", err)
	}
	id := c.ID()
	for range 3 {
		if got := c.ID(); got != id {
			t.Fatalf("ID() = %q then %q; it must stay the same", id, got)
		}
	}
}

func testRoundTrip(t *testing.T, c storage.Codec) {
	for _, in := range inputs() {
		stored := encode(t, c, in.data, sc)
		if got := decode(t, c, stored, sc); !bytes.Equal(got, in.data) {
			t.Errorf("%s: Decode(Encode(x)) is %d bytes that differ from the %d encoded", in.name, len(got), len(in.data))
		}
		// Encoding again may differ (a fresh nonce), but decodes the same.
		if got := decode(t, c, encode(t, c, in.data, sc), sc); !bytes.Equal(got, in.data) {
			t.Errorf("%s: a second encoding decodes differently", in.name)
		}
	}
}

func testLarge(t *testing.T, c storage.Codec) {
	// 3 MiB: 2 MiB of repetitive lines (which compress well), then 1 MiB
	// of random hex (which does not).
	data := make([]byte, 0, 3<<20)
	for i := 0; len(data) < 2<<20; i++ {
		data = append(data, `{"seq":`...)
		data = strconv.AppendInt(data, int64(i), 10)
		data = append(data, `,"text":"line 界😀"}`+"\n"...)
	}
	data = append(data, randomHex(1<<20)...)
	if got := decode(t, c, encode(t, c, data, sc), sc); !bytes.Equal(got, data) {
		t.Errorf("a %d-byte record does not round-trip (%d bytes back)", len(data), len(got))
	}
}

func testInputsUntouched(t *testing.T, c storage.Codec) {
	plain := []byte(`{"text":"do not change me"}`)
	orig := bytes.Clone(plain)
	stored := encode(t, c, plain, sc)
	if !bytes.Equal(plain, orig) {
		t.Fatalf("Encode changed its input")
	}
	storedCopy := bytes.Clone(stored)
	for i := range plain { // the codec must not keep the plaintext
		plain[i] = 'X'
	}
	got := decode(t, c, stored, sc)
	if !bytes.Equal(stored, storedCopy) {
		t.Fatalf("Decode changed its input")
	}
	if !bytes.Equal(got, orig) {
		t.Fatalf("Decode = %q after the caller reused the plaintext buffer, want %q", got, orig)
	}
	for i := range stored { // nor the encoded bytes
		stored[i] = 0
	}
	if !bytes.Equal(got, orig) {
		t.Fatalf("Decode's result changed with its input: %q", got)
	}
}

func testAppendMethods(t *testing.T, c storage.Codec) {
	data := []byte(`{"text":"append me ✓"}`)
	if ae, ok := c.(storage.AppendEncoder); ok {
		out, err := ae.AppendEncode(t.Context(), []byte("kept"), data, sc)
		if err != nil || !bytes.HasPrefix(out, []byte("kept")) {
			t.Fatalf("AppendEncode = %q, %v; want the prefix kept", out, err)
		}
		if got := decode(t, c, out[4:], sc); !bytes.Equal(got, data) {
			t.Errorf("Decode of AppendEncode's output = %q", got)
		}
	}
	if ad, ok := c.(storage.AppendDecoder); ok {
		stored := encode(t, c, data, sc)
		dst := make([]byte, 4, 4+len(stored)+64)
		copy(dst, "kept")
		out, err := ad.AppendDecode(t.Context(), dst, stored, sc)
		if err != nil || string(out) != "kept"+string(data) {
			t.Errorf("AppendDecode = %q, %v; want %q", out, err, "kept"+string(data))
		}
	}
}

func testThroughEncoding(t *testing.T, c storage.Codec) {
	enc := storage.Encoding{Codec: c, Namespace: sc.Namespace, ProjectID: sc.ProjectID}
	for _, in := range inputs() {
		stored, err := enc.Encode(t.Context(), sc.Kind, sc.ScopeID, sc.RecordID, in.data)
		if err != nil {
			t.Fatalf("%s: Encoding.Encode: %v", in.name, err)
		}
		prefix := `{"liteAgentStorage":1,"codec":"` + c.ID() + `","payload":"`
		if !bytes.HasPrefix(stored, []byte(prefix)) || bytes.ContainsRune(stored, '\n') {
			t.Fatalf("%s: stored form %.80q is not a one-line envelope", in.name, stored)
		}
		got, err := enc.Decode(t.Context(), sc.Kind, sc.ScopeID, sc.RecordID, stored)
		if err != nil || !bytes.Equal(got, in.data) {
			t.Errorf("%s: Encoding.Decode = %d bytes, %v", in.name, len(got), err)
		}
		// Plaintext readers refuse it, never returning the envelope.
		var se *storage.Error
		if got, err := (storage.Encoding{}).Decode(t.Context(), sc.Kind, sc.ScopeID, sc.RecordID, stored); !errors.As(err, &se) {
			t.Errorf("%s: decoding without a codec = %.40q, %v; want a *storage.Error", in.name, got, err)
		}
	}
}

// damaged returns variants of stored: truncations, bit flips, appended
// bytes, and nothing at all.
func damaged(stored []byte) map[string][]byte {
	out := map[string][]byte{"nil": nil, "empty": {}, "appended": append(bytes.Clone(stored), 0, 1, 2)}
	for _, n := range []int{1, 2, len(stored) / 2, len(stored) - 1} {
		if n > 0 && n < len(stored) {
			out[fmt.Sprintf("first %d bytes", n)] = bytes.Clone(stored[:n])
			out[fmt.Sprintf("last %d bytes", n)] = bytes.Clone(stored[len(stored)-n:])
		}
	}
	for _, i := range []int{0, 1, len(stored) / 2, len(stored) - 1} {
		if i >= 0 && i < len(stored) {
			b := bytes.Clone(stored)
			b[i] ^= 0x01
			out[fmt.Sprintf("bit flipped at %d", i)] = b
		}
	}
	return out
}

func testDamagedNeverPanics(t *testing.T, c storage.Codec) {
	stored := encode(t, c, []byte(`{"text":"soon damaged, soon damaged, soon damaged"}`), sc)
	for name, b := range damaged(stored) {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: Decode panicked: %v", name, r)
				}
			}()
			c.Decode(t.Context(), b, sc) // any result but a panic will do
		}()
	}
	for _, garbage := range [][]byte{[]byte("not encoded at all"), bytes.Repeat([]byte{0xff}, 100), make([]byte, 64)} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("Decode(%.20q) panicked: %v", garbage, r)
				}
			}()
			c.Decode(t.Context(), garbage, sc)
		}()
	}
}

func testConcurrent(t *testing.T, c storage.Codec) {
	const workers, each = 8, 20
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				ctx := sc
				ctx.RecordID = fmt.Sprintf("%d-%d", w, i)
				plain := []byte(strings.Repeat(ctx.RecordID+" ", 50+i))
				stored, err := c.Encode(context.Background(), plain, ctx)
				if err != nil {
					errs <- err
					return
				}
				got, err := c.Decode(context.Background(), stored, ctx)
				if err != nil || !bytes.Equal(got, plain) {
					errs <- fmt.Errorf("record %s: Decode = %d bytes, %v", ctx.RecordID, len(got), err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func testTamper(t *testing.T, c storage.Codec) {
	stored := encode(t, c, []byte(`{"text":"authenticated"}`), sc)
	for name, b := range damaged(stored) {
		if got, err := c.Decode(t.Context(), b, sc); err == nil {
			t.Errorf("%s: Decode = %q, nil; want an error", name, got)
		}
	}
}

func testEmptyFails(t *testing.T, c storage.Codec) {
	for _, b := range [][]byte{nil, {}} {
		if got, err := c.Decode(t.Context(), b, sc); err == nil {
			t.Errorf("Decode(%v) = %q, nil; want an error", b, got)
		}
	}
}

// otherContexts returns sc with each field changed in turn.
func otherContexts() map[string]storage.Context {
	out := map[string]storage.Context{}
	x := sc
	x.Namespace = "other"
	out["namespace"] = x
	x = sc
	x.ProjectID = "fedcba9876543210"
	out["projectId"] = x
	x = sc
	x.Kind = storage.KindTask
	out["kind"] = x
	x = sc
	x.ScopeID = "session-2"
	out["scopeId"] = x
	x = sc
	x.RecordID = "8"
	out["recordId"] = x
	x = sc
	x.ScopeID, x.RecordID = "session-17", "" // the same bytes if fields were joined naively
	out["shifted"] = x
	return out
}

func testOtherContext(t *testing.T, c storage.Codec) {
	plain := []byte(`{"text":"bound to its record"}`)
	stored := encode(t, c, plain, sc)
	for name, other := range otherContexts() {
		if got, err := c.Decode(t.Context(), stored, other); err == nil {
			t.Errorf("Decode under another %s = %q, nil; want an error", name, got)
		}
	}
	if got := decode(t, c, stored, sc); !bytes.Equal(got, plain) {
		t.Errorf("Decode under the right context = %q", got)
	}
}

func testOtherContextThroughEncoding(t *testing.T, c storage.Codec) {
	enc := storage.Encoding{Codec: c, Namespace: sc.Namespace, ProjectID: sc.ProjectID}
	stored, err := enc.Encode(t.Context(), sc.Kind, sc.ScopeID, sc.RecordID, []byte(`{"text":"moved"}`))
	if err != nil {
		t.Fatal(err)
	}
	var se *storage.Error
	for name, other := range otherContexts() {
		e := storage.Encoding{Codec: c, Namespace: other.Namespace, ProjectID: other.ProjectID}
		got, err := e.Decode(t.Context(), other.Kind, other.ScopeID, other.RecordID, stored)
		if !errors.As(err, &se) {
			t.Errorf("Encoding.Decode under another %s = %q, %v; want a *storage.Error", name, got, err)
		} else if strings.Contains(err.Error(), "moved") {
			t.Errorf("error %q shows the plaintext", err)
		}
	}
}
