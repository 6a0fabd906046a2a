package migrate

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// copySession copies one session log record by record, under its lock,
// then reads the copy back.
func (m *migration) copySession(ctx context.Context, s *scratch, u *unit, t *tally) error {
	pr, sid := u.p, u.id
	name := sid + logExt
	lock, err := pr.sessions.Lock(ctx, name, filelock.Options{})
	if err != nil {
		return err
	}
	unlock := releaser(lock)
	defer func() { _ = unlock() }()
	f, path, err := openSource(pr.sessions, name)
	if err != nil {
		return err
	}
	defer f.Close()
	dstRel := filepath.Join(pr.dstRel, sessionsName, name)
	dstPath := filepath.Join(m.dstRoot, dstRel)
	out, err := m.create(dstRel)
	if err != nil {
		return err
	}
	defer func() { _ = out.close() }()
	if s.chunk == nil {
		s.chunk = make([]byte, 0, chunkSize+64<<10)
	}
	w := &chunkWriter{f: out, buf: s.chunk[:0]}
	defer func() { s.chunk = w.buf[:0] }()
	c := Count{Files: 1}
	var digests []digest
	lr := s.lines(f)
	var pos int64
	for {
		l, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return readError(path, err)
		}
		c.SourceBytes += l.size
		text := bytes.Trim(l.text, " \t\r\n")
		if len(text) == 0 && !l.tooLong {
			continue
		}
		pos++
		rec := strconv.FormatInt(pos, 10)
		plain, err := sessionRecord(ctx, pr.srcEnc, sid, path, pos, l, text)
		if err != nil {
			rest, cerr := lr.countRest()
			if cerr != nil {
				return readError(path, cerr)
			}
			note := "; this record and the " + strconv.FormatInt(rest, 10) + " after it are left out"
			if err := m.skipOrFail(path, rec, err, note); err != nil {
				return err
			}
			break
		}
		stored, err := encodeDest(ctx, pr.dstEnc, storage.KindCheckpoint, sid, rec, dstPath, plain)
		if err != nil {
			return err
		}
		if err := w.add(stored); err != nil {
			return err
		}
		digests = append(digests, sha256.Sum256(plain))
		c.Records++
		c.Bytes += int64(len(plain))
		c.DestinationBytes += int64(len(stored)) + 1
		t.add(1, l.size)
	}
	if err := w.flush(); err != nil {
		return err
	}
	if err := unlock(); err != nil {
		return err
	}
	if out != nil {
		if err := m.verifySession(ctx, s, pr, sid, out, digests); err != nil {
			return err
		}
	}
	m.count(storage.KindCheckpoint, c)
	return out.close()
}

// sessionRecord decodes and validates the record at position pos (1-based,
// counting non-blank lines) of the log of sid: it must decode and be a
// record frame whose seq is pos, whose sessionId is sid and whose parentSeq
// precedes it, with a valid event.
func sessionRecord(ctx context.Context, enc storage.Encoding, sid, path string, pos int64, l line, text []byte) ([]byte, error) {
	rec := strconv.FormatInt(pos, 10)
	if l.tooLong {
		return nil, corrupt(storage.KindCheckpoint, path, rec, "line exceeds the length limit")
	}
	plain, err := decodeSource(ctx, enc, storage.KindCheckpoint, sid, rec, path, text)
	if err != nil {
		return nil, err
	}
	var ev session.StoredEvent
	switch {
	case ev.UnmarshalJSON(plain) != nil:
		return nil, corrupt(storage.KindCheckpoint, path, rec, "not a valid log record")
	case ev.Seq != pos:
		return nil, corrupt(storage.KindCheckpoint, path, rec, "seq is not "+rec)
	case ev.SessionID != sid:
		return nil, corrupt(storage.KindCheckpoint, path, rec, "sessionId does not match")
	case ev.ParentSeq != pos-1:
		return nil, corrupt(storage.KindCheckpoint, path, rec, "parentSeq does not precede seq")
	}
	return plain, nil
}

// verifySession reads back the destination log f and checks that its
// records decode with the destination configuration to the plaintexts
// whose digests are want. Differences are problems, not errors.
func (m *migration) verifySession(ctx context.Context, s *scratch, pr *project, sid string, f *destFile, want []digest) error {
	r, err := f.reader()
	if err != nil {
		m.problem(f.path, "", "cannot read back: "+err.Error())
		return nil
	}
	lr := s.lines(r)
	var pos int64
	for {
		l, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			m.problem(f.path, "", "cannot read back: "+err.Error())
			return nil
		}
		pos++
		rec := strconv.FormatInt(pos, 10)
		if pos > int64(len(want)) {
			continue // counted below
		}
		if l.tooLong {
			m.problem(f.path, rec, "the record exceeds the length limit of a session log")
			continue
		}
		plain, err := pr.dstEnc.Decode(ctx, storage.KindCheckpoint, sid, rec, l.text)
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			m.problem(f.path, rec, err.Error())
			continue
		}
		if sha256.Sum256(plain) != want[pos-1] {
			m.problem(f.path, rec, "the record differs from the source")
		}
	}
	if pos != int64(len(want)) {
		m.problem(f.path, "", fmt.Sprintf("%d records read back, %d written", pos, len(want)))
	}
	return nil
}

// chunkWriter buffers the lines of one destination file and writes them in
// chunks.
type chunkWriter struct {
	f   *destFile
	buf []byte
}

func (w *chunkWriter) add(line []byte) error {
	if w.f == nil {
		return nil
	}
	w.buf = append(w.buf, line...)
	w.buf = append(w.buf, '\n')
	if len(w.buf) >= chunkSize {
		return w.flush()
	}
	return nil
}

func (w *chunkWriter) flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	err := w.f.write(w.buf)
	w.buf = w.buf[:0]
	return err
}

// line is one line of a log.
type line struct {
	text    []byte // without the newline; valid until the next call
	size    int64  // bytes taken from the file, newline included
	tooLong bool   // longer than the limit; text is then empty
}

// lineReader splits a file into lines with bounded memory.
type lineReader struct {
	br   *bufio.Reader
	long []byte
	max  int
}

// next returns the next line, or io.EOF after the last.
func (lr *lineReader) next() (line, error) {
	frag, err := lr.br.ReadSlice('\n')
	l := line{size: int64(len(frag))}
	if errors.Is(err, bufio.ErrBufferFull) {
		lr.long = append(lr.long[:0], frag...)
		for errors.Is(err, bufio.ErrBufferFull) {
			frag, err = lr.br.ReadSlice('\n')
			l.size += int64(len(frag))
			if !l.tooLong && len(lr.long)+len(frag) <= lr.max+1 {
				lr.long = append(lr.long, frag...)
			} else {
				l.tooLong = true
			}
		}
		frag = lr.long
	}
	switch {
	case err == nil:
		frag = frag[:len(frag)-1]
	case err == io.EOF:
		if l.size == 0 {
			return l, io.EOF
		}
	default:
		return l, err
	}
	if l.tooLong || len(frag) > lr.max {
		l.tooLong, frag = true, nil
	}
	l.text = frag
	return l, nil
}

// countRest counts the non-blank lines left.
func (lr *lineReader) countRest() (int64, error) {
	var n int64
	for {
		l, err := lr.next()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		if l.tooLong || len(bytes.Trim(l.text, " \t\r\n")) > 0 {
			n++
		}
	}
}
