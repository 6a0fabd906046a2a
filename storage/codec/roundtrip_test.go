package codec_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

func TestEveryCodecRoundTripsRecordsThroughEncoding(t *testing.T) {
	inputs := []struct {
		name string
		data []byte
	}{
		{"nil", nil},
		{"empty", []byte{}},
		{"empty object", []byte("{}")},
		{"one newline", []byte("\n")},
		{"1KB JSON", sessionEvent(1 << 10)},
		{"1MB JSON", sessionEvent(1 << 20)},
		{"non-ASCII", []byte(`{"text":"héllo wörld ✓ 日本語 🚀"}`)},
	}
	for _, c := range everyCodec(t) {
		for _, in := range inputs {
			t.Run(c.name+"/"+in.name, func(t *testing.T) {
				enc := storage.Encoding{Codec: c.codec, Namespace: "acme", ProjectID: "0123abcd"}
				stored, err := enc.Encode(t.Context(), storage.KindCheckpoint, "session-1", "42", in.data)
				if err != nil {
					t.Fatalf("Encode: %v", err)
				}
				// Callers keep what Encode returns: no room to spare.
				if cap(stored) > len(stored)+len(stored)/8+64 {
					t.Errorf("Encode returned %d bytes in a buffer of %d", len(stored), cap(stored))
				}
				prefix := `{"liteAgentStorage":1,"codec":"` + c.codec.ID() + `","payload":"`
				if !bytes.HasPrefix(stored, []byte(prefix)) {
					t.Fatalf("stored form does not start with %s: %.80s", prefix, stored)
				}
				got, err := enc.Decode(t.Context(), storage.KindCheckpoint, "session-1", "42", stored)
				if err != nil {
					t.Fatalf("Decode: %v", err)
				}
				if !bytes.Equal(got, in.data) {
					t.Fatalf("Decode returned %d bytes that differ from the %d encoded", len(got), len(in.data))
				}
				if out, err := enc.AppendDecode(t.Context(), nil, storage.KindCheckpoint, "session-1", "42", stored); err != nil || !bytes.Equal(out, in.data) {
					t.Fatalf("AppendDecode into nil = %d bytes, %v", len(out), err)
				}
				// AppendEncode after a prefix, into nil, a full buffer and a
				// roomy one holding garbage: the prefix is kept and the
				// record decodes.
				for _, dst := range [][]byte{nil, []byte("kept"), append(bytes.Repeat([]byte{'#'}, 4<<10), "kept"...)[4<<10:]} {
					n := len(dst)
					out, err := enc.AppendEncode(t.Context(), dst, storage.KindCheckpoint, "session-1", "42", in.data)
					if err != nil || string(out[:n]) != string(dst) || !bytes.HasPrefix(out[n:], []byte(prefix)) {
						t.Fatalf("AppendEncode after %q = %.80q, %v", dst, out, err)
					}
					got, err := enc.Decode(t.Context(), storage.KindCheckpoint, "session-1", "42", out[n:])
					if err != nil || !bytes.Equal(got, in.data) {
						t.Fatalf("Decode of AppendEncode's record = %d bytes, %v", len(got), err)
					}
				}
				buf := []byte("kept")
				for range 2 { // the second time into the grown buffer
					out, err := enc.AppendDecode(t.Context(), buf, storage.KindCheckpoint, "session-1", "42", stored)
					if err != nil || string(out[:4]) != "kept" || !bytes.Equal(out[4:], in.data) {
						t.Fatalf("AppendDecode = %d bytes, %v", len(out), err)
					}
					buf = out[:4]
				}
			})
		}
	}
}

func TestCodecIDsAreStableAndValid(t *testing.T) {
	want := map[string]string{
		"gzip":              "gzip-v1",
		"zstd":              "zstd-v1",
		"xchacha20poly1305": "xchacha20poly1305.v1.k1",
		"aes256gcm":         "aes256gcm.v1.k1",
	}
	for _, c := range everyCodec(t) {
		if got := c.codec.ID(); got != want[c.name] {
			t.Errorf("%s: ID() = %q, want %q", c.name, got, want[c.name])
		}
		if err := storage.ValidateCodec(c.codec); err != nil {
			t.Errorf("%s: ValidateCodec: %v", c.name, err)
		}
	}
}

func TestCodecsAreSafeForConcurrentUse(t *testing.T) {
	for _, c := range everyCodec(t) {
		t.Run(c.name, func(t *testing.T) {
			enc := storage.Encoding{Codec: c.codec}
			var wg sync.WaitGroup
			errs := make(chan error, 8)
			for g := range 8 {
				wg.Go(func() {
					for i := range 40 {
						rec := fmt.Sprintf("%d-%d", g, i)
						in := sessionEvent(200 + 37*i + g)
						stored, err := enc.Encode(t.Context(), storage.KindTask, "list", rec, in)
						if err != nil {
							errs <- err
							return
						}
						out, err := enc.Decode(t.Context(), storage.KindTask, "list", rec, stored)
						if err != nil {
							errs <- err
							return
						}
						if !bytes.Equal(out, in) {
							errs <- fmt.Errorf("record %s: round trip changed the bytes", rec)
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
		})
	}
}

func TestCancelledContextStopsEveryCodecBeforeWork(t *testing.T) {
	for _, c := range everyCodec(t) {
		t.Run(c.name, func(t *testing.T) {
			enc := storage.Encoding{Codec: c.codec}
			stored, err := enc.Encode(t.Context(), storage.KindSpill, "project", "r1", []byte("{}"))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			if _, err := enc.Encode(ctx, storage.KindSpill, "project", "r1", []byte("{}")); err != ctx.Err() {
				t.Errorf("Encode with a cancelled context: err = %v, want %v", err, ctx.Err())
			}
			if _, err := enc.Decode(ctx, storage.KindSpill, "project", "r1", stored); err != ctx.Err() {
				t.Errorf("Decode with a cancelled context: err = %v, want %v", err, ctx.Err())
			}
		})
	}
}

func TestSessionEventIsRealisticJSON(t *testing.T) {
	ev := sessionEvent(1 << 10)
	if n := len(ev); n < 1000 || n > 1100 {
		t.Errorf("len(sessionEvent(1KiB)) = %d, want about 1024", n)
	}
	if !json.Valid(ev) || !strings.HasPrefix(string(ev), `{"seq":`) {
		t.Errorf("sessionEvent is not one JSON object: %.60s…", ev)
	}
}

// TestAEADAppendDecodeReusesTheBuffer checks that a reader decoding record
// after record into one buffer allocates nothing for the plaintext, which
// is what keeps an encrypted resume close to a plaintext one.
func TestAEADAppendDecodeReusesTheBuffer(t *testing.T) {
	enc := storage.Encoding{Codec: newTestAEAD(t, codec.XChaCha20Poly1305, "k1", testKey("k1"))}
	plain := sessionEvent(2 << 10)
	stored, err := enc.Encode(t.Context(), storage.KindCheckpoint, "s", "7", plain)
	if err != nil {
		t.Fatal(err)
	}
	var buf []byte
	allocs := testing.AllocsPerRun(50, func() {
		out, err := enc.AppendDecode(t.Context(), buf[:0], storage.KindCheckpoint, "s", "7", stored)
		if err != nil || !bytes.Equal(out, plain) {
			t.Fatalf("AppendDecode = %d bytes, %v", len(out), err)
		}
		if cap(buf) >= len(out) && &out[0] != &buf[:1][0] {
			t.Fatal("AppendDecode did not reuse a buffer large enough")
		}
		buf = out
	})
	// One small one: the test key callback's copy of the key. Neither
	// the plaintext, the decoded payload nor the associated data.
	if allocs > maxAllocs() {
		t.Errorf("AppendDecode allocates %.0f times per record", allocs)
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	before := m.TotalAlloc
	for range 100 {
		out, err := enc.AppendDecode(t.Context(), buf[:0], storage.KindCheckpoint, "s", "7", stored)
		if err != nil {
			t.Fatal(err)
		}
		buf = out
	}
	runtime.ReadMemStats(&m)
	if per := (m.TotalAlloc - before) / 100; per >= uint64(len(plain)/2) {
		t.Errorf("AppendDecode allocates %d bytes per %d-byte record", per, len(plain))
	}
}

// TestAEADAppendEncodeReusesTheBuffer checks that a writer encoding record
// after record into one buffer allocates nothing for the stored form.
func TestAEADAppendEncodeReusesTheBuffer(t *testing.T) {
	for _, alg := range []codec.Algorithm{codec.XChaCha20Poly1305, codec.AES256GCM} {
		enc := storage.Encoding{Codec: newTestAEAD(t, alg, "k1", testKey("k1"))}
		plain := sessionEvent(2 << 10)
		var buf []byte
		fresh := 0 // records that did not go into buf
		allocs := testing.AllocsPerRun(50, func() {
			out, err := enc.AppendEncode(t.Context(), buf[:0], storage.KindCheckpoint, "s", "7", plain)
			if err != nil {
				t.Fatal(err)
			}
			if cap(buf) == 0 || &out[0] != &buf[:1][0] {
				fresh++
			}
			buf = out
		})
		// The first record, and one more while buf grows to hold the
		// codec's output beside the envelope's room.
		if fresh > 2 {
			t.Errorf("%v: AppendEncode allocated a new buffer for %d of 51 records", alg, fresh)
		}
		// One small one: the test key callback's copy of the key.
		if allocs > maxAllocs() {
			t.Errorf("%v: AppendEncode allocates %.0f times per record", alg, allocs)
		}
		got, err := enc.Decode(t.Context(), storage.KindCheckpoint, "s", "7", buf)
		if err != nil || !bytes.Equal(got, plain) {
			t.Errorf("%v: the last record = %d bytes, %v", alg, len(got), err)
		}
	}
}

// maxAllocs is how many allocations an AEAD record may cost: the test key
// callback's copy of the key, and under -race the buffers sync.Pool drops
// (it drops a quarter of what it is given there): associated data, and on
// encoding a batch of nonces. Averaged over the runs, that stays under 3.
func maxAllocs() float64 {
	if raceEnabled {
		return 3
	}
	return 1
}
