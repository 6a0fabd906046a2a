package codec_test

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
)

// verifyBenchRecords is how many record ids the encode-then-verify
// benchmarks cycle through, as a migration does through one session's.
const verifyBenchRecords = 100

// BenchmarkEncodeThenDecode encodes a 470-byte session record into a
// reused buffer and decodes the stored form again into another, record
// after record of one session: what a migration did per record before
// storage.Verifier. Compare with BenchmarkVerifier.
//
//	go test -run '^$' -bench 'EncodeThenDecode|Verifier' -count 6 ./storage/codec
func BenchmarkEncodeThenDecode(b *testing.B) {
	benchPerRecord(b, func(enc storage.Encoding, plain []byte) func(*testing.B, string) {
		var buf, back []byte
		return func(b *testing.B, id string) {
			stored, err := enc.AppendEncode(b.Context(), buf[:0], storage.KindCheckpoint, benchSession, id, plain)
			if err != nil {
				b.Fatal(err)
			}
			buf = stored
			out, err := enc.AppendDecode(b.Context(), back[:0], storage.KindCheckpoint, benchSession, id, stored)
			if err != nil || !bytes.Equal(out, plain) {
				b.Fatal("round trip", err)
			}
			back = out
		}
	})
}

// BenchmarkVerifier is BenchmarkEncodeThenDecode through a
// storage.Verifier, which carries what sealing a record derived to the
// decoding that verifies it.
func BenchmarkVerifier(b *testing.B) {
	benchPerRecord(b, func(enc storage.Encoding, plain []byte) func(*testing.B, string) {
		var v storage.Verifier
		var buf []byte
		return func(b *testing.B, id string) {
			stored, err := v.AppendEncode(b.Context(), enc, buf[:0], storage.KindCheckpoint, benchSession, id, plain)
			if err != nil {
				b.Fatal(err)
			}
			buf = stored
			same, err := v.Verify(b.Context(), enc, storage.KindCheckpoint, benchSession, id, stored, plain)
			if err != nil || !same {
				b.Fatal("round trip", err)
			}
		}
	})
}

// benchSession is the session the per-record benchmarks' records belong to.
const benchSession = "0f8c2d7e-5b1a-4c39-9e62-d4a1b7c3e905"

// benchPerRecord runs, for every AEAD algorithm, the step newStep makes
// for a 470-byte session record, once per iteration, cycling through
// verifyBenchRecords record ids.
func benchPerRecord(b *testing.B, newStep func(enc storage.Encoding, plain []byte) func(b *testing.B, id string)) {
	plain := sessionEvent(470)
	ids := recordIDs(verifyBenchRecords)
	for _, alg := range algorithms() {
		enc := storage.Encoding{Codec: newTestAEAD(b, alg, "k1", testKey("k1")), Namespace: "lite-agent", ProjectID: "9f86d081884c7d65"}
		b.Run(alg.String(), func(b *testing.B) {
			b.SetBytes(int64(len(plain)))
			b.ReportAllocs()
			step := newStep(enc, plain)
			i := 0
			for b.Loop() {
				step(b, ids[i%len(ids)])
				i++
			}
		})
	}
}

func recordIDs(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = strconv.Itoa(i + 1)
	}
	return ids
}
