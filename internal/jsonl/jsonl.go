// Package jsonl splits a log of newline-terminated records (JSON Lines)
// with bounded memory, telling a final record without its newline, the
// torn tail of an interrupted append, from the records before it.
package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// bufSize is the size of a Reader's buffer; a line that fits is returned
// from it without copying.
const bufSize = 64 << 10

// A Reader returns the lines of a log: a line is held in the read buffer
// when it fits and in one reused buffer otherwise, and a line longer than
// its limit is skipped rather than held. The zero Reader is ready for
// [Reader.Reset].
type Reader struct {
	br   *bufio.Reader
	long []byte
	off  int64 // offset of the next line
	max  int
	// Torn is set when the log ends with bytes after its last newline,
	// which Next does not return as a line; TornAt is where they start.
	Torn   bool
	TornAt int64
}

// A Line is one line of a log.
type Line struct {
	// Text is the line without its newline, valid until the next call of
	// Next; nil when TooLong.
	Text []byte
	// Start is the offset of the line; End the offset after the line and
	// its newline.
	Start, End int64
	// TooLong is set when the line is longer than the Reader's limit.
	TooLong bool
}

// Reset makes lr read r from its start, returning lines of at most max
// bytes; it keeps lr's buffers.
func (lr *Reader) Reset(r io.Reader, max int) {
	if lr.br == nil {
		lr.br = bufio.NewReaderSize(r, bufSize)
	} else {
		lr.br.Reset(r)
	}
	lr.off, lr.max = 0, max
	lr.Torn, lr.TornAt = false, 0
}

// Release lets go of the underlying reader and of a long-line buffer that
// grew past 1 MiB, so that a pooled Reader holds little.
func (lr *Reader) Release() {
	if lr.br != nil {
		lr.br.Reset(nil)
	}
	if cap(lr.long) > 1<<20 {
		lr.long = nil
	}
}

// Offset returns the offset after the last line returned.
func (lr *Reader) Offset() int64 { return lr.off }

// Next returns the next line, or io.EOF after the last. Bytes after the
// last newline are not a line: they are the torn tail of an interrupted
// append, and Next records them in lr.Torn and lr.TornAt and returns
// io.EOF.
func (lr *Reader) Next() (Line, error) {
	l := Line{Start: lr.off}
	frag, err := lr.br.ReadSlice('\n')
	n := int64(len(frag))
	if errors.Is(err, bufio.ErrBufferFull) {
		lr.long = append(lr.long[:0], frag...)
		for errors.Is(err, bufio.ErrBufferFull) {
			frag, err = lr.br.ReadSlice('\n')
			n += int64(len(frag))
			if !l.TooLong && len(lr.long)+len(frag) <= lr.max+1 {
				lr.long = append(lr.long, frag...)
			} else {
				l.TooLong = true
			}
		}
		frag = lr.long
	}
	lr.off += n
	l.End = lr.off
	switch {
	case err == nil:
		frag = frag[:len(frag)-1]
	case err == io.EOF:
		if n > 0 {
			lr.Torn, lr.TornAt = true, l.Start
		}
		return l, io.EOF
	default:
		return l, err
	}
	if len(frag) > lr.max {
		l.TooLong = true
	}
	if l.TooLong {
		frag = nil
		if cap(lr.long) > 64<<20 {
			lr.long = nil // do not keep a huge buffer for the rest of the log
		}
	}
	l.Text = frag
	return l, nil
}

// TrimSpace trims the whitespace JSON allows around a value.
func TrimSpace(b []byte) []byte {
	return bytes.Trim(b, " \t\r\n")
}

// LastLine returns the last non-blank line of b (which holds complete
// lines, without the final newline), and whether it is known to start in
// b: false when b holds no newline before it.
func LastLine(b []byte) ([]byte, bool) {
	for {
		i := bytes.LastIndexByte(b, '\n')
		line := b[i+1:]
		if len(TrimSpace(line)) > 0 || i < 0 {
			return line, i >= 0
		}
		b = b[:i]
	}
}
