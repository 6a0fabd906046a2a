package codec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
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
// The codec is safe for concurrent use and starts no goroutines: it shares
// one encoder, whose EncodeAll runs on the calling goroutine, and keeps a
// pool of single-threaded decoders, so that a reader decoding record after
// record reuses one decoder's state and buffers. It is a
// [storage.AppendEncoder] and a [storage.AppendDecoder]. It compresses; it
// does not hide anything (see the package documentation).
func Zstd() storage.Codec { return newZstd(MaxDecodedSize) }

var (
	_ storage.AppendDecoder = (*zstdCodec)(nil)
	_ storage.AppendEncoder = (*zstdCodec)(nil)
)

// zstdCodec implements [Zstd].
type zstdCodec struct {
	maxSize int // bytes; output above this is refused

	enc *zstd.Encoder // used only through EncodeAll, which is concurrency-safe

	// decoders holds *zstd.Decoder, each with concurrency 1, used by one
	// caller at a time through DecodeAll. Such a decoder starts no
	// goroutine, so one the pool drops needs no Close.
	decoders sync.Pool
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
	c := &zstdCodec{maxSize: maxSize, enc: enc}
	c.decoders.New = func() any {
		dec, err := zstd.NewReader(nil,
			zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderMaxMemory(uint64(maxSize)),
		)
		if err != nil {
			panic("codec: zstd decoder: " + err.Error()) // constant, valid options
		}
		return dec
	}
	return c
}

func (c *zstdCodec) ID() string { return "zstd-v1" }

func (c *zstdCodec) Encode(ctx context.Context, plaintext []byte, sc storage.Context) ([]byte, error) {
	return c.AppendEncode(ctx, nil, plaintext, sc)
}

// AppendEncode implements [storage.AppendEncoder]: Encode, appending the
// frame to dst.
func (c *zstdCodec) AppendEncode(ctx context.Context, dst, plaintext []byte, _ storage.Context) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if dst == nil {
		// A non-nil dst keeps the result non-nil, as storage.Encoding
		// requires.
		dst = make([]byte, 0, len(plaintext)/2+32)
	}
	return c.enc.EncodeAll(plaintext, dst), nil
}

func (c *zstdCodec) Decode(ctx context.Context, encoded []byte, sc storage.Context) ([]byte, error) {
	return c.AppendDecode(ctx, nil, encoded, sc)
}

// AppendDecode implements [storage.AppendDecoder]: Decode, appending the
// record to dst.
func (c *zstdCodec) AppendDecode(ctx context.Context, dst, encoded []byte, _ storage.Context) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(encoded) == 0 {
		// DecodeAll treats no frames at all as an empty record; Encode
		// never writes that, so it can only be damage.
		return nil, fmt.Errorf("codec: zstd: %w", io.ErrUnexpectedEOF)
	}
	dst = c.room(dst, encoded)
	base := len(dst)
	dec := c.decoders.Get().(*zstd.Decoder)
	out, err := dec.DecodeAll(encoded, dst)
	c.decoders.Put(dec)
	if errors.Is(err, zstd.ErrDecoderSizeExceeded) || errors.Is(err, zstd.ErrWindowSizeExceeded) || err == nil && len(out)-base > c.maxSize {
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

// room returns dst with spare capacity for the content size the first frame
// of encoded declares, when that is at most roomMax, plus len(encoded), so
// that a caller reusing the result as its next dst (storage.Encoding puts
// the next payload in the spare capacity too) need not grow it again for a
// record of about the same size. A larger or undeclared size is left to
// DecodeAll, which checks it against the limit first.
func (c *zstdCodec) room(dst, encoded []byte) []byte {
	var h zstd.Header
	if h.Decode(encoded) != nil || !h.HasFCS || h.FrameContentSize > roomMax || h.FrameContentSize > uint64(c.maxSize) {
		return dst
	}
	if need := int(h.FrameContentSize); cap(dst)-len(dst) < need {
		return slices.Grow(dst, need+len(encoded))
	}
	return dst
}

// roomMax is the largest declared content size, in bytes, room grows a
// buffer for ahead of decoding.
const roomMax = 1 << 20
