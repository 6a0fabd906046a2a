package storage

import (
	"bytes"
	"encoding/base64"
	"math/rand/v2"
	"testing"
)

// checkBase64 holds the envelope's base64 coders to encoding/base64 for
// src, as the envelope parser would pass it (a multiple of 4 bytes, no CR
// or LF, which encoding/base64 would skip and the parser refuses first).
func checkBase64(t *testing.T, src []byte) {
	t.Helper()
	if len(src)%4 != 0 || bytes.IndexByte(src, '\r') >= 0 || bytes.IndexByte(src, '\n') >= 0 {
		return
	}
	n := base64.StdEncoding.DecodedLen(len(src))
	want := make([]byte, n)
	wn, werr := base64.StdEncoding.Strict().Decode(want, src)
	got := make([]byte, n)
	gn, gerr := strictBase64.Decode(got, src)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%q: error %v, encoding/base64 says %v", src, gerr, werr)
	}
	if werr == nil && (gn != wn || !bytes.Equal(got[:gn], want[:wn])) {
		t.Fatalf("%q: decoded %x, encoding/base64 decodes %x", src, got[:gn], want[:wn])
	}
}

func TestEnvelopeBase64MatchesEncodingBase64(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, size := range []int{0, 1, 2, 3, 4, 5, 31, 32, 33, 47, 48, 49, 95, 96, 97, 200, 1000, 2300, 5000} {
		plain := make([]byte, size)
		for i := range plain {
			plain[i] = byte(rng.IntN(256))
		}
		// Encoding: the same bytes as encoding/base64.
		enc := appendEnvelope(nil, "c", plain)
		want := appendEnvelope(nil, "c", nil)
		want = append(want[:len(want)-2], base64.StdEncoding.EncodeToString(plain)+`"}`...)
		if !bytes.Equal(enc, want) {
			t.Fatalf("size %d: envelope %q, want %q", size, enc, want)
		}
		b64 := []byte(base64.StdEncoding.EncodeToString(plain))
		checkBase64(t, b64)
		// Every single-byte change, at every position of short payloads
		// and at sampled positions of long ones (the vector loop's lanes).
		step := 1
		if len(b64) > 200 {
			step = 7
		}
		for i := 0; i < len(b64); i += step {
			for _, c := range []byte{'=', '-', '_', ' ', 0, 0x80, 0xff, 'A', '/', '+', 'z', '9', '.', ':', '@', '[', '`', '{'} {
				mut := bytes.Clone(b64)
				mut[i] = c
				checkBase64(t, mut)
			}
		}
	}
	for _, s := range []string{"", "====", "A===", "AA==", "AAA=", "AB==", "AAB=", "AAAA", "AAAAAB==", "AAAAAAB=", "=AAA", "AA=A", "AAAA====", "QUJD\x00EFG"} {
		checkBase64(t, []byte(s))
	}
}

func FuzzEnvelopeBase64(f *testing.F) {
	f.Add([]byte("AAAA"))
	f.Add([]byte("QUJDRA=="))
	f.Add(bytes.Repeat([]byte("QUJDREVG"), 20))
	f.Fuzz(func(t *testing.T, src []byte) { checkBase64(t, src) })
}
