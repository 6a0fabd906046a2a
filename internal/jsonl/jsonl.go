// Package jsonl splits a log of newline-terminated records (JSON Lines)
// with bounded memory, telling a final record without its newline, the
// torn tail of an interrupted append, from the records before it.
package jsonl

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"unicode/utf8"
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

// A ReadError is a failure to read the log, as opposed to ctx's error.
type ReadError struct{ Err error }

// Error returns the read error's message.
func (e *ReadError) Error() string { return e.Err.Error() }

// Unwrap returns e.Err.
func (e *ReadError) Unwrap() error { return e.Err }

// CheckUTF8 reads the log r to its end and calls bad with the number and
// offset of every record (non-blank line, the last one with or without its
// newline) that is not valid UTF-8. Lines of any length are checked in
// chunks, so memory stays bounded. It returns ctx's error if ctx is done
// (checked every 1024 records) and a *[ReadError] if reading fails.
func CheckUTF8(ctx context.Context, r io.Reader, bad func(rec, off int64)) error {
	var (
		rec, off int64 // records seen; offset of the current line
		pos      int64 // offset of the next byte
		blank    = true
		invalid  bool
		carry    []byte // an incomplete character at the end of a chunk
	)
	br := bufio.NewReaderSize(r, bufSize)
	for {
		chunk, err := br.ReadSlice('\n')
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) && !errors.Is(err, io.EOF) {
			return &ReadError{Err: err}
		}
		pos += int64(len(chunk))
		end := len(chunk) > 0 && chunk[len(chunk)-1] == '\n' || errors.Is(err, io.EOF)
		data := chunk
		if len(carry) > 0 {
			data = append(carry, chunk...)
		}
		if blank && len(TrimSpace(data)) > 0 {
			blank = false
		}
		if end {
			invalid = invalid || !utf8.Valid(data)
			carry = carry[:0]
		} else {
			cut := completePrefix(data)
			invalid = invalid || !utf8.Valid(data[:cut])
			carry = append(carry[:0], data[cut:]...)
		}
		if end {
			if !blank {
				rec++
				if invalid {
					bad(rec, off)
				}
			}
			off, blank, invalid = pos, true, false
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if rec&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
}

// completePrefix returns the length of the longest prefix of b that does
// not end inside a UTF-8 sequence which more bytes could complete.
func completePrefix(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}
