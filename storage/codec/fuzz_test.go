package codec_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// fuzzRecord is the record every fuzzed envelope is decoded as.
const (
	fuzzKind   = storage.KindCheckpoint
	fuzzScope  = "session-1"
	fuzzRecord = "17"
)

// knownEnvelopes returns, for each AEAD algorithm, an Encoding and the
// reproducible envelopes (stored form → plaintext) written with it for the
// fuzz record. The envelopes use fixed nonces, so the seed corpus in
// testdata/fuzz/FuzzAEADEnvelopeDecode holds exactly these bytes.
func knownEnvelopes(t testing.TB) map[codec.Algorithm]fuzzTarget {
	t.Helper()
	key := testKey("fuzz")
	plaintexts := [][]byte{{}, []byte("{}"), sessionEvent(300)}
	targets := map[codec.Algorithm]fuzzTarget{}
	for _, alg := range algorithms() {
		opts := codec.AEADOptions{Algorithm: alg, KeyID: "k1", Key: keyring(map[string][]byte{"k1": key})}
		reader, err := codec.NewAEAD(opts)
		if err != nil {
			t.Fatal(err)
		}
		ft := fuzzTarget{
			enc:   storage.Encoding{Codec: reader, Namespace: "acme", ProjectID: "0123abcd"},
			valid: map[string][]byte{},
		}
		for i, pt := range plaintexts {
			nonce := sha256.Sum256([]byte{byte(alg), byte(i)})
			writer, err := codec.NewAEADWithNonces(opts, bytes.NewReader(nonce[:]))
			if err != nil {
				t.Fatal(err)
			}
			w := ft.enc
			w.Codec = writer
			stored, err := w.Encode(t.Context(), fuzzKind, fuzzScope, fuzzRecord, pt)
			if err != nil {
				t.Fatal(err)
			}
			ft.valid[string(stored)] = pt
			ft.order = append(ft.order, stored)
		}
		targets[alg] = ft
	}
	return targets
}

// fuzzTarget is one algorithm's decoder and the envelopes it must accept.
type fuzzTarget struct {
	enc   storage.Encoding
	valid map[string][]byte // stored form → plaintext
	order [][]byte          // the keys of valid, in creation order
}

// FuzzAEADEnvelopeDecode checks that storage.Encoding.Decode with an AEAD
// codec returns bytes only for an envelope the codec wrote for that very
// record, and then exactly its plaintext: any other input, however close,
// is a *storage.Error and never a panic.
func FuzzAEADEnvelopeDecode(f *testing.F) {
	targets := knownEnvelopes(f)
	for _, alg := range algorithms() {
		for _, stored := range targets[alg].order {
			f.Add(stored)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, alg := range algorithms() {
			ft := targets[alg]
			got, err := ft.enc.Decode(t.Context(), fuzzKind, fuzzScope, fuzzRecord, data)
			// AppendDecode must agree with Decode, and keep dst's prefix.
			prefix := []byte("prefix:")
			appended, aerr := ft.enc.AppendDecode(t.Context(), prefix, fuzzKind, fuzzScope, fuzzRecord, data)
			if (err == nil) != (aerr == nil) || err != nil && err.Error() != aerr.Error() {
				t.Fatalf("%v: Decode error %v, AppendDecode error %v", alg, err, aerr)
			}
			if err == nil && (!bytes.HasPrefix(appended, prefix) || !bytes.Equal(appended[len(prefix):], got)) {
				t.Fatalf("%v: AppendDecode = %q, Decode = %q", alg, appended, got)
			}
			if want, ok := ft.valid[string(data)]; ok {
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("%v: a valid envelope decoded to %q, %v; want %q", alg, got, err, want)
				}
				continue
			}
			if got != nil {
				t.Fatalf("%v: Decode returned %q for bytes the codec never wrote", alg, got)
			}
			var se *storage.Error
			if !errors.As(err, &se) {
				t.Fatalf("%v: Decode error = %v (%T), want a *storage.Error", alg, err, err)
			}
		}
	})
}

// update rewrites the checked-in seed corpus:
//
//	go test ./storage/codec -run SeedCorpus -update
var update = flag.Bool("update", false, "rewrite testdata/fuzz seed files")

// seedCorpus returns the checked-in seed files of FuzzAEADEnvelopeDecode by
// name: every known envelope, and near misses of one of them.
func seedCorpus(t testing.TB) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	targets := knownEnvelopes(t)
	for _, alg := range algorithms() {
		for i, stored := range targets[alg].order {
			files[fmt.Sprintf("valid-%v-%d", alg, i)] = stored
		}
	}
	v := targets[codec.XChaCha20Poly1305].order[2] // 340-byte payload: base64 ends in "=="
	near := map[string][]byte{
		"spaces-after-colons": bytes.ReplaceAll(v, []byte(`":`), []byte(`": `)),
		"keys-reordered":      reorderEnvelope(v),
		"payload-unpadded":    bytes.Replace(v, []byte(`="}`), []byte(`"}`), 1),
		"codec-id-other-key":  bytes.Replace(v, []byte(".v1.k1"), []byte(".v1.k2"), 1),
		"codec-id-aes":        bytes.Replace(v, []byte("xchacha20poly1305.v1"), []byte("aes256gcm.v1"), 1),
		"version-2":           bytes.Replace(v, []byte(`Storage":1`), []byte(`Storage":2`), 1),
		"trailing-newline":    append(bytes.Clone(v), '\n'),
		"truncated":           v[:len(v)-5],
		"payload-last-char":   flipLastPayloadChar(v),
		"escaped-codec-id":    bytes.Replace(v, []byte(`"xchacha`), []byte(`"\u0078chacha`), 1),
		"plaintext":           []byte(`{"seq":17,"type":"user"}`),
	}
	for name, b := range near {
		if bytes.Equal(b, v) {
			t.Fatalf("near miss %s equals the envelope it was made from", name)
		}
		files["near-"+name] = b
	}
	return files
}

// reorderEnvelope moves the codec key after the payload key.
func reorderEnvelope(v []byte) []byte {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(v, &m); err != nil {
		panic(err)
	}
	return []byte(`{"liteAgentStorage":1,"payload":` + string(m["payload"]) + `,"codec":` + string(m["codec"]) + `}`)
}

// flipLastPayloadChar flips the low bit of the payload's last base64
// character: the payload's last byte or its unused padding bits change.
func flipLastPayloadChar(v []byte) []byte {
	b := bytes.Clone(v)
	i := bytes.LastIndexAny(b, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
	b[i] ^= 0x01
	return b
}

// corpusFile returns b in the go test fuzz v1 format.
func corpusFile(b []byte) []byte { return fmt.Appendf(nil, "go test fuzz v1\n[]byte(%q)\n", b) }

// TestFuzzSeedCorpusHoldsTheKnownEnvelopes keeps the checked-in seed corpus
// in step with knownEnvelopes: if the wire format changes, this fails
// (until -update) rather than letting the fuzzer lose its valid seeds.
func TestFuzzSeedCorpusHoldsTheKnownEnvelopes(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzAEADEnvelopeDecode")
	for name, b := range seedCorpus(t) {
		path := filepath.Join(dir, name)
		if *update {
			if err := os.WriteFile(path, corpusFile(b), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, corpusFile(b)) {
			t.Errorf("%s is missing or stale (%v); run go test ./storage/codec -run SeedCorpus -update", path, err)
		}
	}
}

func FuzzGzipDecode(f *testing.F) { fuzzDecompressor(f, codec.GzipWithLimit(1<<20)) }

func FuzzZstdDecode(f *testing.F) { fuzzDecompressor(f, codec.ZstdWithLimit(1<<20)) }

// fuzzDecompressor checks that Decode never panics and that whatever it
// accepts stays within the cap and survives a round trip.
func fuzzDecompressor(f *testing.F, c storage.Codec) {
	for _, pt := range [][]byte{{}, []byte("{}"), sessionEvent(500)} {
		out, err := c.Encode(f.Context(), pt, storage.Context{})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(out)
	}
	f.Add([]byte("garbage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := c.Decode(t.Context(), data, storage.Context{})
		if err != nil {
			if got != nil {
				t.Fatalf("Decode returned %d bytes with error %v", len(got), err)
			}
			return
		}
		if len(got) > 1<<20 {
			t.Fatalf("Decode returned %d bytes, above the cap", len(got))
		}
		again, err := c.Encode(t.Context(), got, storage.Context{})
		if err != nil {
			t.Fatal(err)
		}
		back, err := c.Decode(t.Context(), again, storage.Context{})
		if err != nil || !bytes.Equal(back, got) {
			t.Fatalf("round trip of decoded bytes: %d bytes, %v", len(back), err)
		}
	})
}
