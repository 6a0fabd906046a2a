package codec_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// BenchmarkEncodingRoundTrip measures storage.Encoding.Encode followed by
// Decode of one ~1 KB session-log line, for plaintext and every codec.
// Besides ns/op it reports stored-bytes/op (envelope size) and, for the
// codecs, x-plaintext: ns/op divided by the plaintext sub-benchmark's ns/op
// in the same run (reported only when plaintext ran first).
func BenchmarkEncodingRoundTrip(b *testing.B) {
	record := sessionEvent(1 << 10)
	cases := []struct {
		name  string
		codec storage.Codec
	}{
		{"plaintext", nil},
		{"gzip", codec.Gzip()},
		{"zstd", codec.Zstd()},
		{"xchacha20poly1305", newTestAEAD(b, codec.XChaCha20Poly1305, "k1", testKey("k1"))},
		{"aes256gcm", newTestAEAD(b, codec.AES256GCM, "k1", testKey("k1"))},
	}
	var plainNsPerOp float64
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			enc := storage.Encoding{Codec: c.codec, Namespace: "lite-agent", ProjectID: "9f86d081884c7d65"}
			var stored []byte
			b.SetBytes(int64(len(record)))
			b.ReportAllocs()
			for b.Loop() {
				var err error
				stored, err = enc.Encode(b.Context(), storage.KindCheckpoint, "0f8c2d7e-5b1a-4c39-9e62-d4a1b7c3e905", "1842", record)
				if err != nil {
					b.Fatal(err)
				}
				out, err := enc.Decode(b.Context(), storage.KindCheckpoint, "0f8c2d7e-5b1a-4c39-9e62-d4a1b7c3e905", "1842", stored)
				if err != nil {
					b.Fatal(err)
				}
				if len(out) != len(record) {
					b.Fatal("round trip changed the record")
				}
			}
			if !bytes.HasSuffix(stored, []byte("}")) {
				b.Fatal("no stored form")
			}
			nsPerOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(float64(len(stored)), "stored-bytes/op")
			if c.codec == nil {
				plainNsPerOp = nsPerOp
			} else if plainNsPerOp > 0 {
				b.ReportMetric(nsPerOp/plainNsPerOp, "x-plaintext")
			}
		})
	}
}

// BenchmarkCodecRoundTrip measures a codec's own Encode followed by Decode
// of the same ~1 KB line, without the envelope, so that the codec's share
// of BenchmarkEncodingRoundTrip can be told from the envelope's.
func BenchmarkCodecRoundTrip(b *testing.B) {
	record := sessionEvent(1 << 10)
	sc := storage.Context{Namespace: "lite-agent", ProjectID: "9f86d081884c7d65", Kind: storage.KindCheckpoint,
		ScopeID: "0f8c2d7e-5b1a-4c39-9e62-d4a1b7c3e905", RecordID: "1842"}
	for _, c := range everyCodec(b) {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(record)))
			b.ReportAllocs()
			for b.Loop() {
				out, err := c.codec.Encode(b.Context(), record, sc)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := c.codec.Decode(b.Context(), out, sc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDecodeSessionRecord decodes a 2.3 KB session record into a
// reused buffer, as the session reader does. For comparison, "base64" is
// encoding/base64's strict decoder alone on the same payload, which
// storage's vectorized decoder replaces.
//
//	go test -run '^$' -bench DecodeSessionRecord ./storage/codec
func BenchmarkDecodeSessionRecord(b *testing.B) {
	plain := sessionEvent(2300)
	for _, alg := range algorithms() {
		enc := storage.Encoding{Codec: newTestAEAD(b, alg, "k1", testKey("k1"))}
		stored, err := enc.Encode(context.Background(), storage.KindCheckpoint, "s", "12345", plain)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(alg.String(), func(b *testing.B) {
			b.SetBytes(int64(len(plain)))
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				out, err := enc.AppendDecode(context.Background(), buf[:0], storage.KindCheckpoint, "s", "12345", stored)
				if err != nil {
					b.Fatal(err)
				}
				buf = out
			}
		})
	}
	b.Run("base64", func(b *testing.B) {
		src := []byte(base64.StdEncoding.EncodeToString(plain))
		dst := make([]byte, len(plain)+3)
		b.SetBytes(int64(len(plain)))
		for b.Loop() {
			if _, err := base64.StdEncoding.Strict().Decode(dst, src); err != nil {
				b.Fatal(err)
			}
		}
	})
}
