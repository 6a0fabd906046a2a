package codec_test

import (
	"bytes"
	"encoding/hex"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// zstdV1Golden is the stored form of zstdV1GoldenRecord as zstd-v1 has
// written it since its first release: one frame of one compressed block
// (Huffman-coded literals and sequences) with a content checksum. It must
// decode to that record for as long as the codec id exists.
const zstdV1Golden = "28b52ffd04001d03007206161970511b389a8192cb859a468b0135e6ffdf2386d56e52ff1f42037447236fdb4c9533196df174d4f8627dfe7638b43c2154f3c0b1c5a14829cfc56fe9ec5db334f2b7c69967dbf084d066cfc598905f320a80842c1d0a02015418052b4e80010dab0630"

var zstdV1GoldenRecord = `{"seq":1,"text":"` + strings.Repeat("the quick brown fox jumps over the lazy dog; ", 4) + `pack my box with five dozen liquor jugs"}`

func TestZstdDecodesWhatEarlierBuildsWrote(t *testing.T) {
	stored, err := hex.DecodeString(zstdV1Golden)
	if err != nil {
		t.Fatal(err)
	}
	want := []byte(zstdV1GoldenRecord)
	got, err := codec.Zstd().Decode(t.Context(), stored, storage.Context{})
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("Decode = %q, %v; want %q", got, err, want)
	}
	// Encode still writes the same frame: the encoder's options are part
	// of the format's promise that equal records store equally.
	enc, err := codec.Zstd().Encode(t.Context(), want, storage.Context{})
	if err != nil || hex.EncodeToString(enc) != zstdV1Golden {
		t.Errorf("Encode = %x, %v; want %s", enc, err, zstdV1Golden)
	}
}

// TestZstdDecodesFramesOfOtherWriters checks that Decode accepts Zstandard
// data it does not write itself: frames without a content size or a
// checksum, frames of several blocks, several frames in a row and raw
// (uncompressed) frames, as any other writer of zstd-v1 records may produce.
func TestZstdDecodesFramesOfOtherWriters(t *testing.T) {
	big := bytes.Repeat(sessionEvent(4<<10), 80) // 320 KiB: several blocks
	small := sessionEvent(2 << 10)
	stream := func(t *testing.T, in []byte, opts ...zstd.EOption) []byte {
		t.Helper()
		var buf bytes.Buffer
		zw, err := zstd.NewWriter(&buf, append([]zstd.EOption{zstd.WithEncoderConcurrency(1)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := zw.Write(in); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	all := func(t *testing.T, in []byte, opts ...zstd.EOption) []byte {
		t.Helper()
		zw, err := zstd.NewWriter(nil, opts...)
		if err != nil {
			t.Fatal(err)
		}
		defer zw.Close()
		return zw.EncodeAll(in, nil)
	}
	cases := []struct {
		name   string
		stored func(t *testing.T) []byte
		want   []byte
	}{
		{"streamed, no content size", func(t *testing.T) []byte { return stream(t, small) }, small},
		{"no checksum", func(t *testing.T) []byte { return all(t, small, zstd.WithEncoderCRC(false)) }, small},
		{"several blocks", func(t *testing.T) []byte { return stream(t, big) }, big},
		{"several blocks with content size", func(t *testing.T) []byte { return all(t, big) }, big},
		{"best compression", func(t *testing.T) []byte { return all(t, small, zstd.WithEncoderLevel(zstd.SpeedBestCompression)) }, small},
		{"no entropy coding", func(t *testing.T) []byte { return all(t, small, zstd.WithNoEntropyCompression(true)) }, small},
		{"two frames", func(t *testing.T) []byte {
			return append(all(t, small[:100]), all(t, small[100:])...)
		}, small},
		{"empty frame", func(t *testing.T) []byte { return all(t, nil, zstd.WithZeroFrames(true)) }, []byte{}},
	}
	c := codec.Zstd()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stored := tc.stored(t)
			got, err := c.Decode(t.Context(), stored, storage.Context{})
			if err != nil || !bytes.Equal(got, tc.want) {
				t.Fatalf("Decode = %d bytes, %v; want %d", len(got), err, len(tc.want))
			}
			// Appended to a buffer holding something already, with and
			// without room to spare.
			for _, dst := range [][]byte{[]byte("prefix"), append(make([]byte, 0, 1<<20), "prefix"...)} {
				out, err := c.(storage.AppendDecoder).AppendDecode(t.Context(), dst, stored, storage.Context{})
				if err != nil || !bytes.Equal(out, append([]byte("prefix"), tc.want...)) {
					t.Fatalf("AppendDecode after %d bytes = %d bytes, %v", len(dst), len(out), err)
				}
			}
		})
	}
}

// TestZstdAppendDecodeReusesTheBuffer checks that a reader decoding record
// after record through storage.Encoding into one buffer stops allocating
// for the plaintext once the buffer has grown: the decompressed record and
// the next payload both fit in what the previous record left.
func TestZstdAppendDecodeReusesTheBuffer(t *testing.T) {
	enc := storage.Encoding{Codec: codec.Zstd()}
	var stored [][]byte
	var plain [][]byte
	for _, size := range []int{2 << 10, 1 << 10, 3 << 10, 2 << 10} {
		p := sessionEvent(size)
		s, err := enc.Encode(t.Context(), storage.KindCheckpoint, "s", "7", p)
		if err != nil {
			t.Fatal(err)
		}
		stored, plain = append(stored, s), append(plain, p)
	}
	var buf []byte
	grown := 0
	for round := range 20 {
		for i := range stored {
			out, err := enc.AppendDecode(t.Context(), buf[:0], storage.KindCheckpoint, "s", "7", stored[i])
			if err != nil || !bytes.Equal(out, plain[i]) {
				t.Fatalf("AppendDecode = %d bytes, %v", len(out), err)
			}
			if round > 0 && &out[:1][0] != &buf[:1][0] {
				grown++
			}
			buf = out
		}
	}
	if grown > 0 {
		t.Errorf("AppendDecode moved to a new buffer %d times after the first round", grown)
	}
	if raceEnabled {
		return // sync.Pool drops a quarter of the decoders it is given
	}
	allocs := testing.AllocsPerRun(50, func() {
		out, err := enc.AppendDecode(t.Context(), buf[:0], storage.KindCheckpoint, "s", "7", stored[0])
		if err != nil {
			t.Fatal(err)
		}
		buf = out
	})
	if allocs > 0 {
		t.Errorf("AppendDecode allocates %.1f times per record", allocs)
	}
}

// TestZstdAppendEncodeReusesTheBuffer checks that a writer encoding record
// after record into one buffer writes them there.
func TestZstdAppendEncodeReusesTheBuffer(t *testing.T) {
	enc := storage.Encoding{Codec: codec.Zstd()}
	plain := sessionEvent(2 << 10)
	var buf []byte
	fresh := 0
	for range 50 {
		out, err := enc.AppendEncode(t.Context(), buf[:0], storage.KindCheckpoint, "s", "7", plain)
		if err != nil {
			t.Fatal(err)
		}
		if cap(buf) == 0 || &out[0] != &buf[:1][0] {
			fresh++
		}
		buf = out
	}
	if fresh > 2 {
		t.Errorf("AppendEncode allocated a new buffer for %d of 50 records", fresh)
	}
	got, err := enc.Decode(t.Context(), storage.KindCheckpoint, "s", "7", buf)
	if err != nil || !bytes.Equal(got, plain) {
		t.Errorf("the last record = %d bytes, %v", len(got), err)
	}
}

// TestZstdDecodersAreNotShared decodes different records on many
// goroutines at once, each into its own buffer, and checks every result:
// pooled decoders must never be used by two callers at a time (run it with
// -race).
func TestZstdDecodersAreNotShared(t *testing.T) {
	c := codec.Zstd().(storage.AppendDecoder)
	const records = 16
	var stored, plain [records][]byte
	for i := range records {
		plain[i] = sessionEvent(512 + 300*i)
		var err error
		if stored[i], err = c.Encode(t.Context(), plain[i], storage.Context{}); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for g := range 4 * runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			var buf []byte
			for n := range 200 {
				i := (g + n) % records
				out, err := c.AppendDecode(t.Context(), buf[:0], stored[i], storage.Context{})
				if err != nil || !bytes.Equal(out, plain[i]) {
					t.Errorf("goroutine %d: record %d = %d bytes, %v", g, i, len(out), err)
					return
				}
				buf = out
			}
		})
	}
	wg.Wait()
}

// TestZstdDecodeOfTruncatedInputNeverReturnsEOF covers the empty and cut
// inputs AppendDecode sees, with a buffer or without.
func TestZstdDecodeOfTruncatedInputNeverReturnsEOF(t *testing.T) {
	c := codec.Zstd().(storage.AppendDecoder)
	valid, err := c.Encode(t.Context(), sessionEvent(1<<10), storage.Context{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 3, 4, 5, 9, len(valid) / 2, len(valid) - 1} {
		for _, dst := range [][]byte{nil, make([]byte, 0, 4<<10)} {
			out, err := c.AppendDecode(t.Context(), dst, valid[:n], storage.Context{})
			if err == nil || out != nil {
				t.Errorf("AppendDecode of %d of %d bytes = %d bytes, %v; want an error", n, len(valid), len(out), err)
			}
			if err == io.EOF {
				t.Errorf("AppendDecode of %d bytes returned io.EOF", n)
			}
		}
	}
}
