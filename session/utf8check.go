package session

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/storage"
)

// CheckUTF8 reports every record of the plaintext log of session id that is
// not valid UTF-8, as a [storage.Problem] of kind [storage.ProblemUTF8], in
// order; File, Record and Offset are as in [FileCheckpointer.Verify].
// Reading such a record succeeds, with each invalid byte read as U+FFFD
// (reads are lenient, as the TypeScript SDK's are), so the damage would
// otherwise go unnoticed. An encoded log has nothing to check here (its
// decoded records are checked by every read) and a missing log has no
// problems. It changes nothing; the error reports a failure to check.
func (c *FileCheckpointer) CheckUTF8(ctx context.Context, id string) ([]storage.Problem, error) {
	if c.enc.Encoded() {
		return nil, validateID(id)
	}
	s, err := c.lock(ctx, id)
	if err != nil {
		return nil, err
	}
	defer s.unlock()
	f, err := s.open()
	if err != nil || f == nil {
		return nil, err
	}
	defer f.Close()
	var (
		problems []storage.Problem
		rec, off int64 // records seen; offset of the current line
		pos      int64 // offset of the next byte
		blank    = true
		bad      bool
		carry    []byte // an incomplete character at the end of a chunk
	)
	br := bufio.NewReaderSize(f, 64<<10)
	for {
		chunk, err := br.ReadSlice('\n')
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) && !errors.Is(err, io.EOF) {
			return nil, readError(s.file, err)
		}
		pos += int64(len(chunk))
		end := len(chunk) > 0 && chunk[len(chunk)-1] == '\n' || errors.Is(err, io.EOF)
		data := chunk
		if len(carry) > 0 {
			data = append(carry, chunk...)
		}
		if blank && len(bytes.Trim(data, " \t\r\n")) > 0 {
			blank = false
		}
		if end {
			bad = bad || !utf8.Valid(data)
			carry = carry[:0]
		} else {
			cut := completePrefix(data)
			bad = bad || !utf8.Valid(data[:cut])
			carry = append(carry[:0], data[cut:]...)
		}
		if end {
			if !blank {
				rec++
				if bad {
					id := strconv.FormatInt(rec, 10)
					problems = append(problems, storage.Problem{File: s.file, Record: id, Offset: off, Kind: storage.ProblemUTF8, Err: &storage.Error{
						Op: "verify", Kind: storage.KindCheckpoint, File: s.file, Record: id,
						Message: "Checkpoint record is not valid UTF-8",
					}})
				}
			}
			off, blank, bad = pos, true, false
		}
		if errors.Is(err, io.EOF) {
			return problems, nil
		}
		if rec&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
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
