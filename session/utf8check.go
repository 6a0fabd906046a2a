package session

import (
	"context"
	"errors"
	"strconv"

	"github.com/lite-agent/lite-agent-go/internal/jsonl"
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
	var problems []storage.Problem
	err = jsonl.CheckUTF8(ctx, f, func(rec, off int64) {
		id := strconv.FormatInt(rec, 10)
		problems = append(problems, storage.Problem{File: s.file, Record: id, Offset: off, Kind: storage.ProblemUTF8, Err: &storage.Error{
			Op: "verify", Kind: storage.KindCheckpoint, File: s.file, Record: id,
			Message: "Checkpoint record is not valid UTF-8",
		}})
	})
	var re *jsonl.ReadError
	if errors.As(err, &re) {
		return nil, readError(s.file, re.Err)
	}
	if err != nil {
		return nil, err
	}
	return problems, nil
}
