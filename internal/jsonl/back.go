package jsonl

import (
	"bytes"
	"context"
	"errors"
	"io"
)

// ErrTooLong is returned by [BackReader.Prev] for a line longer than the
// reader's limit.
var ErrTooLong = errors.New("jsonl: line exceeds the length limit")

// A BackReader returns the lines of a log from its end to its start,
// reading it block-wise backwards, so that reading the last records of a
// log costs what they cost and not what the log costs. It reads the
// complete lines only: bytes after the last newline (a torn tail, see
// [Reader.Next]) are not a line.
type BackReader struct {
	r       io.ReaderAt
	off     int64  // start of the bytes not yet read into pending
	pending []byte // the bytes [off, off+len(pending)) before the lines returned
	buf     []byte // holds pending, reused
	max     int
	block   int
}

// NewBackReader returns a BackReader over the first end bytes of r, which
// must be empty or end with a newline (see [End]), returning lines of at
// most max bytes.
func NewBackReader(r io.ReaderAt, end int64, max int) *BackReader {
	return &BackReader{r: r, off: end, max: max, block: 4 * bufSize}
}

// Prev returns the line before the last one returned (the last line of
// the log at the first call), without its newline, and its offset; io.EOF
// when there is none left. The text is valid until the next call. A line
// longer than the limit returns ErrTooLong; read errors are *ReadError.
func (b *BackReader) Prev() (text []byte, start int64, err error) {
	for {
		if b.off+int64(len(b.pending)) == 0 {
			return nil, 0, io.EOF
		}
		// pending ends with the newline of the line wanted.
		body := b.pending[:max(len(b.pending)-1, 0)]
		if i := bytes.LastIndexByte(body, '\n'); i >= 0 || (b.off == 0 && len(b.pending) > 0) {
			text = body[i+1:]
			start = b.off + int64(i+1)
			b.pending = b.pending[:i+1]
			if len(text) > b.max {
				return nil, start, ErrTooLong
			}
			return text, start, nil
		}
		if len(body) > b.max {
			return nil, 0, ErrTooLong
		}
		// No line start in pending: read the block before it, growing
		// the block with the line so that a long line costs linear time.
		// pending is a prefix of buf: it moves up to make room.
		n := min(int64(max(b.block, len(b.pending))), b.off)
		need := int(n) + len(b.pending)
		if cap(b.buf) < need {
			b.buf = make([]byte, max(need, 2*cap(b.buf)))
		}
		buf := b.buf[:need]
		copy(buf[n:], b.pending)
		if _, err := b.r.ReadAt(buf[:n], b.off-n); err != nil {
			return nil, 0, &ReadError{Err: err}
		}
		b.off -= n
		b.pending = buf
	}
}

// End returns the offset after the last newline among the first size
// bytes of r: where a log's complete lines end and its torn tail, if any,
// starts.
func End(r io.ReaderAt, size int64) (int64, error) {
	buf := make([]byte, min(size, bufSize))
	for off := size; off > 0; {
		n := min(off, int64(len(buf)))
		if _, err := r.ReadAt(buf[:n], off-n); err != nil {
			return 0, &ReadError{Err: err}
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return off - n + int64(i) + 1, nil
		}
		off -= n
	}
	return 0, nil
}

// CountLines returns how many non-blank lines (lines holding more than
// JSON whitespace) the first end bytes of r hold, where end follows a
// newline. It reads the bytes once, without decoding anything.
func CountLines(ctx context.Context, r io.ReaderAt, end int64) (int64, error) {
	buf := make([]byte, min(end, 1<<20))
	var count int64
	blank := true // the line so far holds only whitespace
	for off := int64(0); off < end; {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		n := min(end-off, int64(len(buf)))
		p := buf[:n]
		if _, err := r.ReadAt(p, off); err != nil {
			return 0, &ReadError{Err: err}
		}
		off += n
		for len(p) > 0 {
			i := bytes.IndexByte(p, '\n')
			seg := p
			if i >= 0 {
				seg = p[:i]
			}
			if blank && len(TrimSpace(seg)) > 0 {
				blank = false
			}
			if i < 0 {
				break
			}
			if !blank {
				count++
			}
			blank = true
			p = p[i+1:]
		}
	}
	return count, nil
}
