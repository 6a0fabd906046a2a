package session

import (
	"errors"
	"io"
	"io/fs"
	"strconv"
)

// repairTail drops the torn last line bad of a plaintext log: it copies the
// whole file aside as <id>.jsonl.broken-<unix ms> (never replacing an
// existing file), then atomically rewrites the log with the bytes before
// the bad line, which are kept exactly as they were.
func (s *session) repairTail(bad *Problem) error {
	f, err := s.open()
	if err != nil {
		return err
	}
	if f == nil {
		return readError(s.file, fs.ErrNotExist)
	}
	orig, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return readError(s.file, err)
	}
	if bad.Offset > int64(len(orig)) {
		return bad.Err
	}
	if err := s.held(); err != nil {
		return err
	}
	ms := s.c.now().UnixMilli()
	for try := 0; ; try++ {
		err = s.c.dir.WriteFileExclusive(s.rel+".broken-"+strconv.FormatInt(ms+int64(try), 10), orig)
		if err == nil || !errors.Is(err, fs.ErrExist) || try == 99 {
			break
		}
	}
	if err != nil {
		return err
	}
	err = s.c.dir.WriteFile(s.rel, orig[:bad.Offset])
	s.c.dropHead(s.id)
	return err
}
