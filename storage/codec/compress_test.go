package codec_test

import (
	"bytes"
	stdgzip "compress/gzip"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

func TestGzipOutputIsStandardAndDeterministic(t *testing.T) {
	c := codec.Gzip()
	in := sessionEvent(4 << 10)
	a, err := c.Encode(t.Context(), in, storage.Context{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Encode(t.Context(), in, storage.Context{RecordID: "other"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("the same record encoded to different bytes")
	}
	zr, err := stdgzip.NewReader(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(got, in) {
		t.Fatalf("compress/gzip reads %d bytes, %v; want the %d encoded", len(got), err, len(in))
	}
	if zr.Name != "" || !zr.ModTime.IsZero() {
		t.Errorf("gzip header carries name %q and time %v, want neither", zr.Name, zr.ModTime)
	}
}

func TestZstdOutputDeclaresItsContentSize(t *testing.T) {
	in := sessionEvent(4 << 10)
	out, err := codec.Zstd().Encode(t.Context(), in, storage.Context{})
	if err != nil {
		t.Fatal(err)
	}
	var h zstd.Header
	if err := h.Decode(out); err != nil {
		t.Fatal(err)
	}
	if !h.HasFCS || h.FrameContentSize != uint64(len(in)) || !h.HasCheckSum {
		t.Errorf("frame header: content size %v/%d, checksum %v; want %d and a checksum", h.HasFCS, h.FrameContentSize, h.HasCheckSum, len(in))
	}
}

func TestCompressorsRejectGarbageWithoutPanicking(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 1024)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	for _, c := range []namedCodec{{"gzip", codec.Gzip()}, {"zstd", codec.Zstd()}} {
		valid, err := c.codec.Encode(t.Context(), sessionEvent(2<<10), storage.Context{})
		if err != nil {
			t.Fatal(err)
		}
		flipped := bytes.Clone(valid)
		flipped[len(flipped)/2] ^= 0x01
		flippedTail := bytes.Clone(valid)
		flippedTail[len(flippedTail)-2] ^= 0x80
		garbage := []struct {
			name string
			in   []byte
		}{
			{"nil", nil},
			{"empty", []byte{}},
			{"text", []byte(`{"not":"compressed"}`)},
			{"random bytes", random},
			{"zeros", make([]byte, 512)},
			{"header only", valid[:10]},
			{"cut in the middle", valid[:len(valid)/2]},
			{"last byte missing", valid[:len(valid)-1]},
			{"byte flipped in the body", flipped},
			{"checksum or size damaged", flippedTail},
			{"trailing garbage", append(bytes.Clone(valid), "garbage"...)},
			{"other compressor's output", otherCompressed(t, c.name)},
		}
		for _, g := range garbage {
			t.Run(c.name+"/"+g.name, func(t *testing.T) {
				got, err := c.codec.Decode(t.Context(), g.in, storage.Context{})
				if err == nil {
					t.Fatalf("Decode succeeded with %d bytes", len(got))
				}
				if errors.Is(err, io.EOF) {
					t.Errorf("Decode error %v is io.EOF, which callers take for a clean end", err)
				}
				// Through Encoding the same payload is a *storage.Error.
				env := envelope(c.codec.ID(), g.in)
				if _, err := (storage.Encoding{Codec: c.codec}).Decode(t.Context(), storage.KindSpill, "project", "r", env); err == nil {
					t.Fatal("Encoding.Decode succeeded")
				} else {
					asStorageError(t, err)
				}
			})
		}
	}
}

// otherCompressed returns a record compressed by the compressor that name
// is not.
func otherCompressed(t *testing.T, name string) []byte {
	t.Helper()
	other := codec.Zstd()
	if name == "zstd" {
		other = codec.Gzip()
	}
	out, err := other.Encode(t.Context(), []byte(`{"a":1}`), storage.Context{})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// envelope returns the canonical envelope of payload under codec id.
func envelope(id string, payload []byte) []byte {
	return []byte(`{"liteAgentStorage":1,"codec":"` + id + `","payload":"` + base64Std(payload) + `"}`)
}

func TestCompressorsRefuseOutputAboveTheirCap(t *testing.T) {
	const limit = 1 << 20
	compressors := []struct {
		name  string
		codec storage.Codec
		// bomb compresses n zero bytes the way a hostile writer might.
		bomb func(t *testing.T, n int64) []byte
	}{
		{"gzip", codec.GzipWithLimit(limit), gzipZeros},
		{"zstd with content size", codec.ZstdWithLimit(limit), zstdZerosWithSize},
		{"zstd streamed", codec.ZstdWithLimit(limit), zstdZerosStreamed},
		{"zstd in two frames", codec.ZstdWithLimit(limit), func(t *testing.T, n int64) []byte {
			half := zstdZerosWithSize(t, n/2)
			return append(half, zstdZerosWithSize(t, n-n/2)...)
		}},
	}
	t.Run("zstd with a window above the cap", func(t *testing.T) {
		var buf bytes.Buffer
		zw, err := zstd.NewWriter(&buf, zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(4*limit))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.CopyN(zw, zeros{}, 2*limit); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		got, err := codec.ZstdWithLimit(limit).Decode(t.Context(), buf.Bytes(), storage.Context{})
		if !errors.Is(err, codec.ErrTooLarge) || got != nil {
			t.Errorf("Decode = %d bytes, %v; want ErrTooLarge", len(got), err)
		}
	})
	for _, c := range compressors {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			at := c.bomb(t, limit)
			if got, err := c.codec.Decode(t.Context(), at, storage.Context{}); err != nil || len(got) != limit {
				t.Fatalf("Decode of exactly the cap = %d bytes, %v; want %d", len(got), err, limit)
			}
			for _, n := range []int64{limit + 1, 64 * limit} {
				bomb := c.bomb(t, n)
				got, err := c.codec.Decode(t.Context(), bomb, storage.Context{})
				if !errors.Is(err, codec.ErrTooLarge) || got != nil {
					t.Errorf("Decode of %d bytes (%d stored) = %d bytes, %v; want ErrTooLarge", n, len(bomb), len(got), err)
				}
			}
		})
	}
}

func TestCompressorsUseTheDefaultCap(t *testing.T) {
	// The cap itself is exercised cheaply above with small limits; here the
	// public constructors must carry MaxDecodedSize…
	for _, c := range []namedCodec{{"gzip", codec.Gzip()}, {"zstd", codec.Zstd()}} {
		if got := codec.DecodedSizeLimit(c.codec); got != codec.MaxDecodedSize {
			t.Errorf("%s: decoded-size limit = %d, want MaxDecodedSize (%d)", c.name, got, codec.MaxDecodedSize)
		}
	}
	// …and a frame declaring one byte more is refused before any
	// allocation. (Decoding a streamed 256 MiB bomb would take a minute
	// under the race detector.)
	bomb := zstdZerosWithSize(t, codec.MaxDecodedSize+1)
	got, err := codec.Zstd().Decode(t.Context(), bomb, storage.Context{})
	if !errors.Is(err, codec.ErrTooLarge) || got != nil {
		t.Errorf("Decode of MaxDecodedSize+1 bytes (%d stored) = %d bytes, %v; want ErrTooLarge", len(bomb), len(got), err)
	}
}

// zeros is an endless reader of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func gzipZeros(t *testing.T, n int64) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.CopyN(zw, zeros{}, n); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// zstdZerosWithSize is a zstd frame of n zeros that states its content
// size in its header.
func zstdZerosWithSize(t *testing.T, n int64) []byte { return zstdZeros(t, n, true) }

// zstdZerosStreamed is a zstd frame of n zeros written as a stream, whose
// header does not state its size.
func zstdZerosStreamed(t *testing.T, n int64) []byte { return zstdZeros(t, n, false) }

// zstdZeros is a zstd frame of n zeros, with its content size in the
// header when withSize.
func zstdZeros(t *testing.T, n int64, withSize bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := zstd.NewWriter(&buf, zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	if withSize {
		zw.ResetContentSize(&buf, n)
	}
	if _, err := io.CopyN(zw, zeros{}, n); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
