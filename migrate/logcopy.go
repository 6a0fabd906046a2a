package migrate

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/lite-agent/lite-agent-go/internal/logframe"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// copySession copies one session log record by record, under its lock.
// Each record is decoded again with the destination configuration as soon as
// it is encoded and compared with the source plaintext, and each chunk of
// the file is read back after it is written and compared with what was
// written: together they prove that every record on disk decodes to its
// source.
func (m *migration) copySession(ctx context.Context, s *scratch, u *unit, t *tally) error {
	pr, sid := u.p, u.id
	name := sid + session.LogSuffix
	srcDir, dstDir, err := u.files.handles(m)
	if err != nil {
		return err
	}
	if err := s.lock.take(ctx, pr.sessions, srcDir, name); err != nil {
		return err
	}
	// The log's time as it is opened, under its lock: a writer changes
	// the log only under the lock, which the check after the copy finds
	// still held, so that is the time of everything read.
	f, path, mtime, err := srcDir.open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	dstRel := filepath.Join(pr.dstRel, sessionsName, name)
	dstPath := filepath.Join(m.dstRoot, dstRel)
	out, err := m.createAt(dstDir, dstRel, name)
	if err != nil {
		return err
	}
	defer func() { _ = out.close() }()
	w := s.writer(out)
	defer s.keep(w)
	c := Count{Files: 1}
	lr := s.lines(endAt(m.readLog(f), f.size))
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
		if l.torn {
			// Bytes after the last newline: an append that never
			// completed, so not a record (session.TornTailError). The
			// source keeps them; the next append there sets them aside.
			m.skip(Skipped{File: path, Record: s.id(pos + 1), Reason: "torn tail of " + strconv.FormatInt(l.size, 10) +
				" bytes (an append that never completed): not a record, left out"})
			break
		}
		text := bytes.Trim(l.text, " \t\r\n")
		if c.SourceBytes == l.size && !l.tooLong {
			// The log's first line, newline included: what tells this
			// log from a new one of the same id (see sessionKept).
			u.first = append(append([]byte(nil), l.text...), '\n')
		}
		if len(text) == 0 && !l.tooLong {
			continue
		}
		pos++
		rec := s.id(pos)
		plain, err := sessionRecord(ctx, s, pr.srcEnc, sid, path, pos, rec, l, text)
		var stored []byte
		if err == nil {
			stored, err = w.encode(ctx, pr.dstEnc, sid, rec, dstPath, plain)
			switch {
			case err == nil:
			case pr.dstEnc.Encoded() && errors.Is(err, storage.ErrUnstorable):
				// The encoding refuses plaintext that is not UTF-8, which
				// a plaintext log may hold but encoded storage cannot: a
				// record of the source the destination cannot hold,
				// checked there rather than in a pass of its own.
				err = corrupt(storage.KindCheckpoint, path, rec, "the record is not valid UTF-8, which encoded storage requires")
			default:
				return err
			}
		}
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
		if out != nil {
			if err := m.checkSessionRecord(ctx, s, pr.dstEnc, sid, rec, dstPath, stored, plain); err != nil {
				return err
			}
		}
		if err := w.next(); err != nil {
			return err
		}
		c.Records++
		c.Bytes += int64(len(plain))
		c.DestinationBytes += int64(len(stored)) + 1
		t.add(1, l.size)
	}
	if err := w.flush(); err != nil {
		return err
	}
	if err := s.lock.check(); err != nil {
		return err
	}
	if err := out.finishAt(dstDir, name, mtime); err != nil {
		return err
	}
	m.count(storage.KindCheckpoint, c)
	return nil
}

// sessionRecord decodes and validates the record at position pos (1-based,
// counting non-blank lines, record id rec) of the log of sid: it must decode
// and pass the checks a reader applies to every record (logframe.Check:
// a frame whose seq is pos, whose sessionId is sid and whose parentSeq
// precedes it, with a time and an event with a type). The event's body is
// copied as it is, not decoded. (An encoded destination also requires valid
// UTF-8, which a plaintext log need not hold: its encoding refuses the
// record, see copySession.)
func sessionRecord(ctx context.Context, s *scratch, enc storage.Encoding, sid, path string, pos int64, rec string, l line, text []byte) ([]byte, error) {
	if l.tooLong {
		return nil, corrupt(storage.KindCheckpoint, path, rec, "line exceeds the length limit")
	}
	plain := text
	if enc.Encoded() {
		var err error
		plain, err = enc.AppendDecode(ctx, s.src[:0], storage.KindCheckpoint, sid, rec, text)
		if err != nil {
			return nil, decodeError(ctx, err, path, rec)
		}
		s.src = plain
	}
	// Without a codec, logframe.Check refuses an envelope as Decode would.
	if err := logframe.Check(plain, sid, pos, enc.Encoded()); err != nil {
		return nil, unreadable(err, path, rec)
	}
	return plain, nil
}

// checkSessionRecord checks that stored, the destination form of record rec
// of the log of sid, is one log line and decodes with the destination
// configuration to plain. Differences are problems, not errors.
func (m *migration) checkSessionRecord(ctx context.Context, s *scratch, enc storage.Encoding, sid, rec, path string, stored, plain []byte) error {
	if len(stored) > session.MaxLineBytes {
		m.problem(path, rec, "the record exceeds the length limit of a session log")
		return nil
	}
	if bytes.IndexByte(stored, '\n') >= 0 {
		m.problem(path, rec, "the record holds a line break")
		return nil
	}
	same, err := s.verify.Verify(ctx, enc, storage.KindCheckpoint, sid, rec, stored, plain)
	return m.verdict(ctx, path, rec, same, err, "the record differs from the source")
}

// chunkWriter buffers the lines of one destination file and writes them in
// chunks, reading each chunk back and comparing it with what was written.
type chunkWriter struct {
	m    *migration
	f    *destFile
	v    *storage.Verifier // encodes, for checkSessionRecord to verify
	buf  []byte
	back []byte // the read-back buffer
	off  int64  // where the next chunk goes
	recs int64  // records written before buf
}

// encode appends the stored form of record rec of the log of sid, whose
// plaintext is plain, to the buffered lines and returns it; it is valid
// until next is called.
func (w *chunkWriter) encode(ctx context.Context, enc storage.Encoding, sid, rec, path string, plain []byte) ([]byte, error) {
	start := len(w.buf)
	buf, err := w.v.AppendEncode(ctx, enc, w.buf, storage.KindCheckpoint, sid, rec, plain)
	if err != nil {
		return nil, encodeError(err, path, rec)
	}
	w.buf = append(buf, '\n')
	return w.buf[start : len(w.buf)-1], nil
}

// next ends the record encode appended last, writing the buffered lines out
// once they fill a chunk. In a dry run (no file) they are dropped.
func (w *chunkWriter) next() error {
	if w.f == nil {
		w.buf = w.buf[:0]
		return nil
	}
	if len(w.buf) >= chunkSize {
		return w.flush()
	}
	return nil
}

// flush writes the buffered lines and reads them back. A difference is a
// problem naming the first record that differs.
func (w *chunkWriter) flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	if err := w.f.write(w.buf); err != nil {
		return err
	}
	w.back = slices.Grow(w.back[:0], len(w.buf))[:len(w.buf)]
	n, err := w.f.f.ReadAt(w.back, w.off)
	switch {
	case err != nil && !(err == io.EOF && n == len(w.buf)):
		w.m.problem(w.f.path, "", "cannot read back: "+readError(w.f.path, err).Error())
	case !bytes.Equal(w.back, w.buf):
		i := 0
		for i < len(w.buf) && w.back[i] == w.buf[i] {
			i++
		}
		rec := w.recs + int64(bytes.Count(w.buf[:i], []byte{'\n'})) + 1
		w.m.problem(w.f.path, strconv.FormatInt(rec, 10), "the record read back differs from what was written")
	}
	w.off += int64(len(w.buf))
	w.recs += int64(bytes.Count(w.buf, []byte{'\n'}))
	w.buf = w.buf[:0]
	return nil
}

// line is one line of a log.
type line struct {
	text    []byte // without the newline; valid until the next call
	size    int64  // bytes taken from the file, newline included
	tooLong bool   // longer than the limit; text is then empty
	torn    bool   // the file's last bytes, without a newline: a torn tail
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
		l.torn = true
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

// endAt returns a reader of the log r, whose size was size when it was
// opened (0 or less if not known), that tells the end of the log without reading
// again once a read has come back short exactly at that size: on a regular
// file a short read ends at the file's end, so the read after it would
// only return nothing, one system call per log for a migration that
// copies thousands of them. The log is read under its lock, which every
// writer takes, so its end does not move while it is read. A size that is
// no longer the file's never cuts the copy short: a file that grew since
// has its next read come back past the size, or full; one that shrank
// ends before it, and is read to its end as usual.
func endAt(r io.Reader, size int64) io.Reader {
	return &endReader{r: r, size: size}
}

// endReader is the reader endAt returns.
type endReader struct {
	r    io.Reader
	size int64 // the file's size when opened, or 0 or less
	off  int64 // bytes read so far
	end  bool  // a short read reached size
}

func (e *endReader) Read(p []byte) (int, error) {
	if e.end {
		return 0, io.EOF
	}
	n, err := e.r.Read(p)
	e.off += int64(n)
	e.end = err == nil && n > 0 && n < len(p) && e.off == e.size
	return n, err
}
