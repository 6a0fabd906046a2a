package codec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/lite-agent/lite-agent-go/storage"
)

// MaxDecodedSize is the largest record, in bytes, that the codecs returned
// by [Gzip] and [Zstd] decode: 256 MiB. Larger output is refused with
// [ErrTooLarge] rather than allocated, so that a small stored record cannot
// expand into an unbounded amount of memory (a decompression bomb).
const MaxDecodedSize = 256 << 20

// ErrTooLarge is returned by the Decode method of a compression codec when
// the record would decode to more than [MaxDecodedSize] bytes.
var ErrTooLarge = errors.New("codec: decoded record exceeds size limit")

// Gzip returns a codec with ID "gzip-v1" that stores each record as one
// gzip stream (RFC 1952) at the default compression level, with no file
// name and a zero modification time in its header, so the same record always
// encodes to the same bytes.
//
// Decode accepts any gzip data (several concatenated members included),
// verifies each member's CRC-32 and length, and refuses output above
// [MaxDecodedSize] with [ErrTooLarge].
//
// The codec is safe for concurrent use. It compresses; it does not hide
// anything (see the package documentation).
func Gzip() storage.Codec { return newGzip(MaxDecodedSize) }

var (
	_ storage.Codec = (*gzipCodec)(nil)
	_ storage.Codec = (*zstdCodec)(nil)
)

// gzipCodec implements [Gzip].
type gzipCodec struct {
	maxSize int // bytes; output above this is refused

	writers sync.Pool // of *gzip.Writer, reset before each use
	readers sync.Pool // of *gzip.Reader, reset before each use
}

func newGzip(maxSize int) *gzipCodec {
	c := &gzipCodec{maxSize: maxSize}
	c.writers.New = func() any {
		w, err := gzip.NewWriterLevel(nil, gzip.DefaultCompression)
		if err != nil {
			panic("codec: gzip: " + err.Error()) // a constant, valid level
		}
		return w
	}
	c.readers.New = func() any { return new(gzip.Reader) }
	return c
}

func (c *gzipCodec) ID() string { return "gzip-v1" }

func (c *gzipCodec) Encode(ctx context.Context, plaintext []byte, _ storage.Context) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(len(plaintext)/2 + 64)
	zw := c.writers.Get().(*gzip.Writer)
	defer c.writers.Put(zw)
	zw.Reset(&buf)
	if _, err := zw.Write(plaintext); err != nil {
		return nil, fmt.Errorf("codec: gzip: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("codec: gzip: %w", err)
	}
	return buf.Bytes(), nil
}

func (c *gzipCodec) Decode(ctx context.Context, encoded []byte, _ storage.Context) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	zr := c.readers.Get().(*gzip.Reader)
	defer c.readers.Put(zr)
	if err := zr.Reset(bytes.NewReader(encoded)); err != nil {
		return nil, fmt.Errorf("codec: gzip: %w", eofAsUnexpected(err))
	}
	// Read one byte past the limit to tell "exactly at the limit" from
	// "above it" without decoding the rest.
	out, err := io.ReadAll(io.LimitReader(zr, int64(c.maxSize)+1))
	if err != nil {
		return nil, fmt.Errorf("codec: gzip: %w", err)
	}
	if len(out) > c.maxSize {
		return nil, ErrTooLarge
	}
	if err := zr.Close(); err != nil {
		return nil, fmt.Errorf("codec: gzip: %w", err)
	}
	return out, nil
}

// eofAsUnexpected reports empty input as truncated data rather than as the
// io.EOF sentinel, which callers could mistake for a clean end.
func eofAsUnexpected(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// Zstd returns a codec with ID "zstd-v1" that stores each record as one
// Zstandard frame (RFC 8878) at the default level, with a content checksum
// and the content size in the frame header; an empty record is stored as
// an empty frame, never as zero bytes.
//
// Decode accepts any Zstandard data without dictionaries, verifies
// checksums, and refuses output above [MaxDecodedSize] with [ErrTooLarge],
// before allocating when a frame header declares a larger size or window.
// Empty input is an error.
//
// The codec is safe for concurrent use: it shares one encoder and one decoder
// that start no goroutines and run EncodeAll and DecodeAll on the calling
// goroutine. It compresses; it does not hide anything (see the package
// documentation).
func Zstd() storage.Codec { return newZstd(MaxDecodedSize) }

// zstdCodec implements [Zstd].
type zstdCodec struct {
	maxSize int // bytes; output above this is refused

	enc *zstd.Encoder // used only through EncodeAll, which is concurrency-safe
	dec *zstd.Decoder // used only through DecodeAll, which is concurrency-safe
}

func newZstd(maxSize int) *zstdCodec {
	enc, err := zstd.NewWriter(nil,
		zstd.WithEncoderLevel(zstd.SpeedDefault),
		zstd.WithEncoderCRC(true),
		zstd.WithZeroFrames(true),
	)
	if err != nil {
		panic("codec: zstd encoder: " + err.Error()) // constant, valid options
	}
	dec, err := zstd.NewReader(nil,
		zstd.WithDecoderMaxMemory(uint64(maxSize)),
	)
	if err != nil {
		panic("codec: zstd decoder: " + err.Error()) // constant, valid options
	}
	return &zstdCodec{maxSize: maxSize, enc: enc, dec: dec}
}

func (c *zstdCodec) ID() string { return "zstd-v1" }

func (c *zstdCodec) Encode(ctx context.Context, plaintext []byte, _ storage.Context) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// A non-nil dst keeps the result non-nil, as storage.Encoding requires.
	return c.enc.EncodeAll(plaintext, make([]byte, 0, len(plaintext)/2+32)), nil
}

func (c *zstdCodec) Decode(ctx context.Context, encoded []byte, _ storage.Context) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(encoded) == 0 {
		// DecodeAll treats no frames at all as an empty record; Encode
		// never writes that, so it can only be damage.
		return nil, fmt.Errorf("codec: zstd: %w", io.ErrUnexpectedEOF)
	}
	out, err := c.dec.DecodeAll(encoded, nil)
	if errors.Is(err, zstd.ErrDecoderSizeExceeded) || errors.Is(err, zstd.ErrWindowSizeExceeded) || err == nil && len(out) > c.maxSize {
		return nil, ErrTooLarge
	}
	if err != nil {
		return nil, fmt.Errorf("codec: zstd: %w", err)
	}
	if out == nil {
		out = []byte{}
	}
	return out, nil
}
