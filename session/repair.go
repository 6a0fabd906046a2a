package session

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

// repairTail drops the torn last line bad of a plaintext log: it copies the
// whole file aside as <id>.jsonl.broken-<unix ms> (never replacing an
// existing file), then atomically rewrites the log with the bytes before
// the bad line, which are kept exactly as they were.
func (s *session) repairTail(bad *problem) error {
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
		err = s.c.dir.WriteFileExclusive(copyName(s.rel, CopyBroken, ms, try), orig)
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

// setAsideTorn copies the torn tail of the log, the bytes from..to, into
// <id>.jsonl.torn-<unix ms> beside it (never replacing an existing file,
// fsynced with its directory), so that cutting it from the log loses
// nothing. The bytes are streamed: a torn record may be large. A torn
// tail over safefs.MaxReadBytes, which only a planted log holds (a sparse
// one costs no disk, its copy as much disk as it claims), is refused with
// a *storage.Error: the log stays as it is.
func (s *session) setAsideTorn(from, to int64) error {
	if to-from > safefs.MaxReadBytes {
		return &storage.Error{Op: "write", Kind: storage.KindCheckpoint, File: s.file,
			Message: "the torn tail of checkpoint log is larger than 1 GiB; refusing to copy it aside"}
	}
	src, err := s.open()
	if err != nil {
		return err
	}
	if src == nil {
		return readError(s.file, fs.ErrNotExist)
	}
	defer src.Close()
	if err := s.held(); err != nil {
		return err
	}
	ms := s.c.now().UnixMilli()
	for try := 0; ; try++ {
		err = s.writeExclusive(copyName(s.rel, CopyTorn, ms, try), io.NewSectionReader(src, from, to-from))
		if err == nil || !errors.Is(err, fs.ErrExist) || try == 99 {
			return err
		}
	}
}

// writeExclusive creates rel (0600, failing with an error matching
// fs.ErrExist if it exists) with the bytes of r, fsyncs it and its
// directory. On failure nothing is left behind.
func (s *session) writeExclusive(rel string, r io.Reader) error {
	p := filepath.Join(s.c.dir.Real(), rel)
	fail := func(err error) error {
		return (&storage.Error{Op: "write", Kind: storage.KindCheckpoint, File: p, Message: "cannot set aside the torn tail of " + s.rel}).WithCause(err)
	}
	f, err := s.c.dir.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, safefs.FileMode)
	if err != nil {
		var se *storage.Error
		if errors.Is(err, fs.ErrExist) || errors.As(err, &se) {
			return err
		}
		return fail(err)
	}
	s.c.stepDone("torn-created")
	_, err = io.Copy(f, r)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = s.c.syncDir(filepath.Dir(p))
	}
	if err != nil {
		_ = s.c.dir.Remove(rel)
		return fail(err)
	}
	return nil
}

// cutBack undoes a write that failed part-way (err): it truncates the log
// to end, its length before the write, through f if still open (else by
// path), or removes it when the append had just created it. It returns err,
// joined with the failure to cut back if there is one.
func (s *session) cutBack(f *os.File, end int64, created bool, err error) error {
	var terr error
	switch {
	case created:
		terr = s.c.dir.Remove(s.rel)
	case f != nil:
		terr = f.Truncate(end)
	default:
		terr = s.c.dir.Truncate(s.rel, end)
	}
	if terr != nil {
		return errors.Join(err, (&storage.Error{Op: "write", Kind: storage.KindCheckpoint, File: s.file,
			Message: "cannot cut a failed append back from checkpoint log"}).WithCause(terr))
	}
	return err
}
