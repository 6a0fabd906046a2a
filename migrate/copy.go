package migrate

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// chunkSize is how many bytes of a session log are buffered before they
// are written to the destination.
const chunkSize = 256 << 10

// prefetchAhead is how many units ahead of the one a worker takes have
// their logs prefetched (see prefetch): with logs of ~50 KB, some 20 ms of
// copying for the disk to read them in, 3 MiB of page cache (at most
// prefetchAhead × prefetchBytes, 64 MiB, for long logs).
const prefetchAhead = 64

// progressEvery is how many records of one log are copied between two
// progress reports.
const progressEvery = 4096

type digest = [sha256.Size]byte

// copyAll copies every unit of p, Workers at a time. The first error stops
// the others and is returned.
//
// Each worker takes the next unit itself, by an atomic counter: no
// goroutine hands the units out, so taking one wakes nobody (a feeding
// goroutine blocked on a full queue was woken once per file, and with it,
// often, a thread to run it on).
func (m *migration) copyAll(ctx context.Context, p *plan) error {
	m.mu.Lock()
	m.copyFrom = time.Now()
	m.mu.Unlock()
	if m.dst != nil {
		for _, rel := range p.dirs {
			if err := m.mkdir(rel); err != nil {
				return err
			}
		}
	}
	defer func() {
		for _, pair := range p.pairs {
			pair.close()
		}
	}()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		once     sync.Once
		firstErr error
		wg       sync.WaitGroup
		next     atomic.Int64
		ahead    prefetcher
	)
	for range min(m.workers, max(len(p.units), 1)) {
		wg.Go(func() {
			s := &scratch{}
			defer func() { _ = s.lock.release() }()
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= len(p.units) {
					return
				}
				if m.cold.Load() {
					ahead.upTo(m, p, i+prefetchAhead)
				}
				if err := m.copyUnit(ctx, s, &p.units[i]); err != nil {
					_ = s.lock.release()
					once.Do(func() {
						firstErr = err
						cancel()
					})
				}
			}
		})
	}
	wg.Wait()
	if firstErr == nil && int(next.Load()) < len(p.units) {
		// The workers stopped taking units as the caller's context was
		// done (between two units, where no copy of one failed): the
		// units never taken are not copied, and the copy is not whole.
		return ctx.Err()
	}
	return firstErr
}

// prefetcher prefetches the logs of the units of a plan in order, once
// the migration has found them out of the page cache (see readLog): the
// worker that takes unit i makes sure that the units from i to i +
// prefetchAhead are prefetched, i itself included when the logs were
// found out of the cache only now, so that a log's reads have that long
// to reach it before a worker needs it.
type prefetcher struct {
	mu      sync.Mutex
	fetched int // units[:fetched] are prefetched, or were taken before
}

// upTo prefetches the units of p up to last (included) not prefetched yet.
// A worker that finds another prefetching goes on with its own unit: the
// other is prefetching ahead of it.
func (f *prefetcher) upTo(m *migration, p *plan, last int) {
	if !f.mu.TryLock() {
		return
	}
	defer f.mu.Unlock()
	// From the taker's own unit on: units taken before it are being copied
	// already, the first found out of the cache among them.
	for f.fetched = max(f.fetched, last-prefetchAhead); f.fetched <= last && f.fetched < len(p.units); f.fetched++ {
		m.prefetch(&p.units[f.fetched])
	}
}

// scratch holds the buffers one worker reuses from file to file.
type scratch struct {
	br    *bufio.Reader
	chunk []byte
	back  []byte
	src   []byte   // the plaintext of the source record
	plain []byte   // the plaintext of a record decoded again
	ids   []string // ids[i] is strconv.Itoa(i+1)
	lock  carriedLock

	// verify encodes destination records and decodes them again, reusing
	// what the codec derived for a record when it checks that record.
	verify storage.Verifier
}

// writer returns a chunk writer of f that uses the worker's buffers; one at
// a time, returned with keep.
func (s *scratch) writer(f *destFile) *chunkWriter {
	if s.chunk == nil {
		s.chunk = make([]byte, 0, chunkSize+64<<10)
	}
	return &chunkWriter{m: f.migration(), f: f, v: &s.verify, buf: s.chunk[:0], back: s.back}
}

// keep takes back the buffers of w. Buffers that grew past keepMax for a
// long record are let go.
func (s *scratch) keep(w *chunkWriter) {
	s.chunk, s.back = small(w.buf), small(w.back)
	s.plain, s.src = small(s.plain), small(s.src)
}

// keepMax is the largest buffer a worker keeps from file to file.
const keepMax = 4 << 20

// small returns b emptied, or nil if it is larger than keepMax.
func small(b []byte) []byte {
	if cap(b) > keepMax {
		return nil
	}
	return b[:0]
}

// id returns the record id of position pos (1-based) of a session log.
func (s *scratch) id(pos int64) string {
	if pos > int64(len(s.ids)) {
		if pos > 1<<12 {
			return strconv.FormatInt(pos, 10)
		}
		for i := int64(len(s.ids)) + 1; i <= pos; i++ {
			s.ids = append(s.ids, strconv.FormatInt(i, 10))
		}
	}
	return s.ids[pos-1]
}

// lines returns a line reader of r that uses the worker's buffer; one at a
// time.
func (s *scratch) lines(r io.Reader) *lineReader {
	if s.br == nil {
		s.br = bufio.NewReaderSize(r, 64<<10)
	} else {
		s.br.Reset(r)
	}
	return &lineReader{br: s.br, max: session.MaxLineBytes}
}

// copyUnit copies one unit and reports its progress.
func (m *migration) copyUnit(ctx context.Context, s *scratch, u *unit) error {
	if u.files != nil {
		defer u.files.done()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if u.kind != unitSession && u.kind != unitArchive {
		// The carried lock is for the sessions directory: let it go
		// rather than hold it while this unit waits for other locks.
		// A lock found lost here guarded a record already checked.
		_ = s.lock.release()
	}
	t := &tally{m: m, u: u}
	var err error
	switch u.kind {
	case unitSession:
		err = m.copySession(ctx, s, u, t)
	case unitArchive:
		err = m.copyArchive(ctx, s, u, t)
	case unitTasks:
		err = m.copyTasks(ctx, u, t)
	case unitSpill:
		err = m.copySpill(ctx, u, t)
	case unitConfig:
		err = m.copyConfig(u, t)
	}
	if err != nil {
		return err
	}
	t.done(&s.lock)
	return nil
}

// tally reports the progress of one unit, so that the counts reach the
// planned totals exactly when the unit is done: the bytes always, the
// records with CountRecords (without it, the records copied are reported).
type tally struct {
	m                *migration
	u                *unit
	records, bytes   int64
	pendingR, pendBy int64
}

// add reports records copied and bytes read.
func (t *tally) add(records, bytes int64) {
	t.pendingR += records
	t.pendBy += bytes
	if t.pendingR >= progressEvery {
		t.records += t.pendingR
		t.bytes += t.pendBy
		t.m.advance(0, t.pendingR, t.pendBy, nil)
		t.pendingR, t.pendBy = 0, 0
	}
}

// done reports the rest of the unit's counts. The worker is between files:
// if Progress is called, the lock it carries is released first.
func (t *tally) done(between *carriedLock) {
	records := t.pendingR
	if t.m.countRecords() {
		records = t.u.records - t.records
	}
	t.m.advance(1, records, t.u.bytes-t.bytes, between)
}

// lockSource takes the lock of the source record rel of d (the lock
// directory <rel>.lock) and returns the function that releases it. The
// function releases the lock the first time it is called and returns the
// error of that release: a lock found compromised means that what was read
// under it may not be consistent. Later calls return nil, so that a deferred
// call after an explicit one is harmless.
//
// The lock keeps its directory open while held (see filelock). Removing a
// directory frees its inode and block when the last reference to it goes,
// so that happens when the lock closes it after the removal rather than
// during it, while the removal holds the lock of the source directory (on
// a file system mounted with discard, freeing the block waits for the
// disk) and every other lock taken or released in that directory waits.
func lockSource(ctx context.Context, d *safefs.Dir, rel string, opts filelock.Options) (func() error, error) {
	c := new(carriedLock)
	if err := c.acquire(ctx, d, rel, opts); err != nil {
		return nil, err
	}
	return c.release, nil // release returns nil once there is no lock
}

// carriedLock is the source lock a worker holds. When the worker finishes
// one log or archive and goes on to the next in the same directory, it
// moves the lock there (filelock's Move, a rename) instead of removing the
// lock directory and creating another: creating directories is the dearest
// part of locking on some file systems, and a migration locks every log in
// turn. The lock is released when the next file is in another directory,
// is locked by someone else or is not a log or archive, before Progress is
// called between files, and when the worker stops, so that no source lock
// outlives the migration, is held while the worker waits for another, or
// is held while the caller's code runs between files.
type carriedLock struct {
	lock   *filelock.Lock
	dir    *safefs.Dir // where the lock is
	noMove bool        // the file system cannot move locks
}

// take locks the source record rel of d, moving the carried lock there if
// it can, and otherwise releasing it and taking a new one. h, if not nil,
// is d opened, which the record is read through.
func (c *carriedLock) take(ctx context.Context, d *safefs.Dir, h *dirHandle, rel string) error {
	if c.lock != nil && c.dir == d && !c.noMove && filepath.Base(rel) == rel {
		var err error
		if h != nil {
			// Where files are opened relative to an open directory, the
			// lock moves within the directory the record is read from, by
			// name: neither the directory's path nor rel is resolved
			// again. Should the directory no longer be at its path, the
			// lock's check when the copy of the record ends (by path)
			// finds the lock gone. Elsewhere d is checked first (see
			// dirHandle.moveLock).
			err = h.moveLock(d, c.lock, filepath.Join(d.Real(), rel))
		} else {
			// The directory is checked as Resolve would, but rel need
			// not be resolved component by component: it names a file
			// of the directory the lock is in, and the file is opened
			// without following symlinks.
			if err := d.Check(); err != nil {
				return err
			}
			err = c.lock.Move(filepath.Join(d.Real(), rel))
		}
		if err == nil {
			return nil
		}
		// Refused because rel is locked (wait for it as usual), unsupported
		// (never try again) or compromised: the record the lock guarded was
		// checked when its copy ended, so losing it now is of no
		// consequence.
		if errors.Is(err, errors.ErrUnsupported) {
			c.noMove = true
		}
	}
	_ = c.release()
	return c.acquire(ctx, d, rel, filelock.Options{})
}

// acquire takes the lock of the source record rel of d, holding no lock
// before.
func (c *carriedLock) acquire(ctx context.Context, d *safefs.Dir, rel string, opts filelock.Options) error {
	lock, err := d.Lock(ctx, rel, opts)
	if err != nil {
		return err
	}
	c.lock, c.dir = lock, d
	return nil
}

// check reports an error if the lock was lost (taken over or removed by
// someone else) while the record was read: what was read may then not be
// consistent.
func (c *carriedLock) check() error {
	return c.lock.Check()
}

// release releases the carried lock, if there is one.
func (c *carriedLock) release() error {
	if c.lock == nil {
		return nil
	}
	err := c.lock.Release()
	c.lock, c.dir = nil, nil
	return err
}

// unreadable marks err, a *storage.Error naming file and record, as a bad
// source record.
func unreadable(err error, file, record string) error {
	var se *storage.Error
	if errors.As(err, &se) {
		err = se.At(file, record)
	}
	return fmt.Errorf("%w: %w", ErrUnreadable, err)
}

// corrupt returns the error of a source record that decodes but is not a
// valid record of its kind.
func corrupt(kind storage.Kind, file, record, reason string) error {
	return unreadable(&storage.Error{Op: "read", Kind: kind, File: file, Record: record, Message: "Corrupt " + string(kind) + " record: " + reason}, "", "")
}

// decodeSource decodes one source record; a failure other than a done
// context is unreadable.
func decodeSource(ctx context.Context, enc storage.Encoding, kind storage.Kind, scope, record, file string, stored []byte) ([]byte, error) {
	plain, err := enc.Decode(ctx, kind, scope, record, stored)
	if err != nil {
		return nil, decodeError(ctx, err, file, record)
	}
	return plain, nil
}

// decodeError is the error of a source record that failed to decode:
// ctx.Err() if ctx is done, and otherwise err marked unreadable.
func decodeError(ctx context.Context, err error, file, record string) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	return unreadable(err, file, record)
}

// encodeDest encodes one record for the destination through v, which
// verifyRecord then checks it with.
func encodeDest(ctx context.Context, v *storage.Verifier, enc storage.Encoding, kind storage.Kind, scope, record, file string, plain []byte) ([]byte, error) {
	stored, err := v.AppendEncode(ctx, enc, nil, kind, scope, record, plain)
	if err != nil {
		return nil, encodeError(err, file, record)
	}
	return stored, nil
}

// encodeError names file and record in err, an encoding error.
func encodeError(err error, file, record string) error {
	var se *storage.Error
	if errors.As(err, &se) {
		return se.At(file, record)
	}
	return err
}

// skipOrFail leaves out an unreadable record with SkipUnreadable, and
// otherwise returns err. Errors that are not about a record always fail.
func (m *migration) skipOrFail(file, record string, err error, note string) error {
	if !errors.Is(err, ErrUnreadable) || !m.opts.SkipUnreadable {
		return err
	}
	m.skip(Skipped{File: file, Record: record, Reason: err.Error() + note})
	var se *storage.Error
	if errors.As(err, &se) && se.Op == "decode" {
		// The codec refused it (or it needed one): the configuration may
		// be wrong, not the data.
		m.mu.Lock()
		m.undecodable++
		m.mu.Unlock()
	}
	return nil
}

// copyArchive copies one context archive, index line by index line and
// note by note, under its lock, reading each file back after writing it.
// The archive package walks the source and names the files: migrate only
// decodes, checks, encodes and writes.
func (m *migration) copyArchive(ctx context.Context, s *scratch, u *unit, t *tally) error {
	pr, sid, v := u.p, u.id, &s.verify
	rel := filepath.Base(storage.SessionContextDir(pr.sessions.Path(), sid))
	if err := s.lock.take(ctx, pr.sessions, nil, rel); err != nil {
		return err
	}
	dstRel := filepath.Join(pr.dstRel, sessionsName, rel)
	if err := m.mkdir(dstRel); err != nil {
		return err
	}
	dirTime, err := modTime(pr.sessions, rel)
	if err != nil {
		return err
	}
	l, err := archive.List(pr.sessions, rel)
	if err != nil {
		return err // names the file
	}

	// The index: each line decodes at its source position and is written
	// at its destination position, which differs only after a skipped line.
	idxPath := filepath.Join(pr.sessions.Path(), rel, archive.IndexFile)
	dstIdxRel := filepath.Join(dstRel, archive.IndexFile)
	dstIdxPath := filepath.Join(m.dstRoot, dstIdxRel)
	var out []byte
	var idxDigests []digest
	var ic Count
	for rec := range l.IndexLines() {
		if rec.Torn {
			// Bytes after the last newline: a put that never completed,
			// so not a record (see archive.FileArchive.Put). The source
			// keeps them; the next put there sets them aside.
			ic.SourceBytes += int64(len(rec.Stored))
			m.skip(Skipped{File: idxPath, Record: rec.ID, Reason: "torn tail of " + strconv.Itoa(len(rec.Stored)) +
				" bytes (a put that never completed): not a record, left out"})
			break
		}
		ic.SourceBytes += int64(len(rec.Stored)) + 1
		plain, err := indexRecord(ctx, pr.srcEnc, sid, idxPath, rec)
		if err != nil {
			if err := m.skipOrFail(idxPath, rec.ID, err, ""); err != nil {
				return err
			}
			continue
		}
		stored, err := encodeDest(ctx, v, pr.dstEnc, storage.KindArchiveIndex, sid, strconv.Itoa(len(idxDigests)), dstIdxPath, plain)
		if err != nil {
			return err
		}
		out = archive.AppendIndexLine(out, stored)
		idxDigests = append(idxDigests, sha256.Sum256(plain))
		ic.Records++
		ic.Bytes += int64(len(plain))
		ic.DestinationBytes += int64(len(stored)) + 1
	}
	if l.HasIndex {
		ic.Files = 1
		back, err := m.writeFile(dstIdxRel, out, l.IndexTime)
		if err != nil {
			return err
		}
		if m.dst != nil {
			if err := m.verifyIndex(ctx, pr, sid, dstIdxPath, back, idxDigests); err != nil {
				return err
			}
		}
	}

	// The notes.
	var nc Count
	if l.HasNotes {
		if err := m.mkdir(filepath.Join(dstRel, l.NotesDirName())); err != nil {
			return err
		}
	}
	for rec, err := range l.Notes() {
		if err != nil {
			return err // names the file
		}
		path := filepath.Join(pr.sessions.Path(), rel, rec.Name)
		if err := ctx.Err(); err != nil {
			return err
		}
		ref := rec.ID
		plain, err := decodeSource(ctx, pr.srcEnc, storage.KindArchive, sid, ref, path, rec.Stored)
		if err == nil && !archive.NoteMatches(ref, plain) {
			err = corrupt(storage.KindArchive, path, ref, "content does not match its ref")
		}
		if err != nil {
			if err := m.skipOrFail(path, ref, err, ""); err != nil {
				return err
			}
			continue
		}
		dstNoteRel := filepath.Join(dstRel, rec.Name)
		dstNotePath := filepath.Join(m.dstRoot, dstNoteRel)
		enc, err := encodeDest(ctx, v, pr.dstEnc, storage.KindArchive, sid, ref, dstNotePath, plain)
		if err != nil {
			return err
		}
		back, err := m.writeFile(dstNoteRel, enc, rec.ModTime)
		if err != nil {
			return err
		}
		if m.dst != nil {
			if err := m.verifyRecord(ctx, v, pr.dstEnc, storage.KindArchive, sid, ref, dstNotePath, back, plain); err != nil {
				return err
			}
		}
		nc.Files++
		nc.Records++
		nc.Bytes += int64(len(plain))
		nc.SourceBytes += int64(len(rec.Stored))
		nc.DestinationBytes += int64(len(enc))
	}
	if err := s.lock.check(); err != nil {
		return err
	}
	// The directories' times last: writing in them changed them.
	if l.HasNotes {
		if err := m.setTime(filepath.Join(dstRel, l.NotesDirName()), l.NotesTime); err != nil {
			return err
		}
	}
	if err := m.setTime(dstRel, dirTime); err != nil {
		return err
	}
	m.count(storage.KindArchiveIndex, ic)
	m.count(storage.KindArchive, nc)
	t.add(ic.Records+nc.Records, 0)
	return nil
}

// indexRecord decodes and validates one complete source index line: it
// must decode to an index entry.
func indexRecord(ctx context.Context, enc storage.Encoding, sid, path string, rec archive.Record) ([]byte, error) {
	if len(rec.Stored) == 0 {
		return nil, corrupt(storage.KindArchiveIndex, path, rec.ID, "blank line")
	}
	plain, err := decodeSource(ctx, enc, storage.KindArchiveIndex, sid, rec.ID, path, rec.Stored)
	if err != nil {
		return nil, err
	}
	if !archive.ValidIndexLine(plain) {
		return nil, corrupt(storage.KindArchiveIndex, path, rec.ID, "not an index entry")
	}
	return plain, nil
}

// jsonString decodes raw into *s if raw is a JSON string.
func jsonString(raw json.RawMessage, s *string) bool {
	return len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, s) == nil
}

// verifyIndex checks the index read back as data: one line per digest of
// want, each decoding at its position to the plaintext of that digest.
func (m *migration) verifyIndex(ctx context.Context, pr *project, sid, path string, data []byte, want []digest) error {
	n := 0
	for rec := range archive.IndexLines(data) {
		if rec.Torn {
			m.problem(path, rec.ID, "unterminated last line")
			break
		}
		n++
		if n > len(want) {
			continue
		}
		plain, err := pr.dstEnc.Decode(ctx, storage.KindArchiveIndex, sid, rec.ID, rec.Stored)
		switch {
		case err != nil && ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			m.problem(path, rec.ID, err.Error())
		case sha256.Sum256(plain) != want[n-1]:
			m.problem(path, rec.ID, "the index line differs from the source")
		}
	}
	if n != len(want) {
		m.problem(path, "", fmt.Sprintf("%d index lines read back, %d written", n, len(want)))
	}
	return nil
}

// verifyRecord checks that back, one record read back from the destination,
// decodes to want, through v, which encoded it.
func (m *migration) verifyRecord(ctx context.Context, v *storage.Verifier, enc storage.Encoding, kind storage.Kind, scope, record, path string, back, want []byte) error {
	same, err := v.Verify(ctx, enc, kind, scope, record, back, want)
	return m.verdict(ctx, path, record, same, err, "the "+string(kind)+" record differs from the source")
}

// verdict records the outcome of decoding one destination record again:
// the decoding error, or differs if it decoded to other bytes than its
// source (same is false), as a problem. A done ctx is returned instead.
func (m *migration) verdict(ctx context.Context, path, record string, same bool, err error, differs string) error {
	switch {
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		m.problem(path, record, err.Error())
	case !same:
		m.problem(path, record, differs)
	}
	return nil
}

// copyTasks copies one task list, record by record, under its lock, then
// reads the copy back through the task store.
func (m *migration) copyTasks(ctx context.Context, u *unit, t *tally) error {
	pr, list := u.p, u.id
	var v storage.Verifier
	unlock, err := lockSource(ctx, pr.tasks, list, filelock.Options{Factor: 1.4})
	if err != nil {
		return err
	}
	defer func() { _ = unlock() }()
	dirTime, err := modTime(pr.tasks, list)
	if err != nil {
		return err
	}
	dstRel := filepath.Join(pr.dstRel, tasksName, list)
	if err := m.mkdir(dstRel); err != nil {
		return err
	}
	ents, err := pr.tasks.ReadDir(list)
	if err != nil {
		return err
	}
	c := Count{}
	for _, e := range ents {
		name := e.Name()
		if (name == task.SharedMarker || name == task.ForkMarker) && e.Type().IsRegular() {
			// A list's marks (shared; a fork's copy until its log is
			// written) are copied with it, empty.
			mtime, err := modTime(pr.tasks, filepath.Join(list, name))
			if err != nil {
				return err
			}
			if _, err := m.writeFile(filepath.Join(dstRel, name), nil, mtime); err != nil {
				return err
			}
			continue
		}
		stem, ok := task.RecordStem(name)
		if isTemp(name) || !ok {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		path := filepath.Join(pr.tasks.Path(), list, name)
		stored, err := pr.tasks.ReadFile(filepath.Join(list, name))
		if err != nil {
			return err
		}
		mtime, err := modTime(pr.tasks, filepath.Join(list, name))
		if err != nil {
			return err
		}
		plain, err := decodeSource(ctx, pr.srcEnc, storage.KindTask, list, stem, path, stored)
		if err == nil {
			err = checkTask(stem, plain, path)
		}
		if err != nil {
			if err := m.skipOrFail(path, stem, err, ""); err != nil {
				return err
			}
			continue
		}
		dstFileRel := filepath.Join(dstRel, name)
		dstPath := filepath.Join(m.dstRoot, dstFileRel)
		enc, err := encodeDest(ctx, &v, pr.dstEnc, storage.KindTask, list, stem, dstPath, plain)
		if err != nil {
			return err
		}
		back, err := m.writeFile(dstFileRel, enc, mtime)
		if err != nil {
			return err
		}
		if m.dst != nil {
			if err := m.verifyRecord(ctx, &v, pr.dstEnc, storage.KindTask, list, stem, dstPath, back, plain); err != nil {
				return err
			}
		}
		c.Files++
		c.Records++
		c.Bytes += int64(len(plain))
		c.SourceBytes += int64(len(stored))
		c.DestinationBytes += int64(len(enc))
	}
	if err := unlock(); err != nil {
		return err
	}
	if m.dst != nil {
		if err := m.verifyTaskStore(ctx, pr, list, dstRel, c.Records); err != nil {
			return err
		}
	}
	if err := m.setTime(dstRel, dirTime); err != nil {
		return err
	}
	m.count(storage.KindTask, c)
	t.add(c.Records, 0)
	return nil
}

// checkTask checks the shape of a task record that the task store insists
// on: an object whose id is the file's stem, with a string subject, a known
// status and string arrays blockedBy and blocks. The full check is the task
// store's own, run on the destination.
func checkTask(stem string, plain []byte, path string) error {
	var rec map[string]json.RawMessage
	if json.Unmarshal(plain, &rec) != nil || rec == nil {
		return corrupt(storage.KindTask, path, stem, "not a JSON object")
	}
	var id, subject, status string
	var blockedBy, blocks []string
	switch {
	case !jsonString(rec["id"], &id) || id != stem:
		return corrupt(storage.KindTask, path, stem, "id does not match the file name")
	case !jsonString(rec["subject"], &subject):
		return corrupt(storage.KindTask, path, stem, "subject is missing or not a string")
	case !jsonString(rec["status"], &status) || !task.Status(status).Valid():
		return corrupt(storage.KindTask, path, stem, "status is missing or unknown")
	case !jsonStrings(rec["blockedBy"], &blockedBy) || !jsonStrings(rec["blocks"], &blocks):
		return corrupt(storage.KindTask, path, stem, "blockedBy or blocks is missing or not an array of strings")
	}
	return nil
}

func jsonStrings(raw json.RawMessage, s *[]string) bool {
	return len(raw) > 0 && raw[0] == '[' && json.Unmarshal(raw, s) == nil
}

// verifyTaskStore reads the destination list rel through the task store,
// which applies every rule of the format, and checks that it lists every
// task written.
func (m *migration) verifyTaskStore(ctx context.Context, pr *project, list, rel string, written int64) error {
	path := filepath.Join(m.dstRoot, rel)
	st, err := task.NewFileStore(filepath.Join(m.dst.Real(), filepath.Dir(rel)), list, pr.dstEnc)
	if err != nil {
		m.problem(path, "", err.Error())
		return nil
	}
	ts, err := st.List(ctx)
	switch {
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		m.problem(path, "", "the task store cannot read the copy: "+err.Error())
	case int64(len(ts)) != written:
		m.problem(path, "", fmt.Sprintf("the task store lists %d tasks, %d written", len(ts), written))
	}
	return nil
}

// copySpill copies one spill file. Spill files are only ever replaced whole
// by a rename, so no lock is needed to read one.
func (m *migration) copySpill(ctx context.Context, u *unit, t *tally) error {
	pr, ref := u.p, u.id
	var v storage.Verifier
	name := ref + spill.FileSuffix
	src, dst, err := u.files.handles(m)
	if err != nil {
		return err
	}
	stored, path, mtime, err := readAllAt(src, name)
	if err != nil {
		return err
	}
	plain, err := decodeSource(ctx, pr.srcEnc, storage.KindSpill, spill.Scope, ref, path, stored)
	if err == nil {
		if sum := sha1.Sum(plain); hex.EncodeToString(sum[:])[:spill.RefLen] != ref {
			err = corrupt(storage.KindSpill, path, ref, "content does not match its ref")
		}
	}
	if err != nil {
		return m.skipOrFail(path, ref, err, "")
	}
	dstRel := filepath.Join(pr.dstRel, spillName, name)
	dstPath := filepath.Join(m.dstRoot, dstRel)
	enc, err := encodeDest(ctx, &v, pr.dstEnc, storage.KindSpill, spill.Scope, ref, dstPath, plain)
	if err != nil {
		return err
	}
	back, err := m.writeFileAt(dst, dstRel, name, enc, mtime)
	if err != nil {
		return err
	}
	if m.dst != nil {
		if err := m.verifyRecord(ctx, &v, pr.dstEnc, storage.KindSpill, spill.Scope, ref, dstPath, back, plain); err != nil {
			return err
		}
	}
	m.count(storage.KindSpill, Count{Files: 1, Records: 1, Bytes: int64(len(plain)), SourceBytes: int64(len(stored)), DestinationBytes: int64(len(enc))})
	t.add(1, 0)
	return nil
}

// modTime returns the modification time of the source file or directory
// rel of d.
func modTime(d *safefs.Dir, rel string) (time.Time, error) {
	st, err := d.Lstat(rel)
	if err != nil {
		return time.Time{}, readError(filepath.Join(d.Path(), rel), err)
	}
	return st.ModTime(), nil
}

// copyConfig copies one configuration file of the home byte for byte.
func (m *migration) copyConfig(u *unit, t *tally) error {
	data, err := u.home.ReadFile(u.id)
	if err != nil {
		return err
	}
	mtime, err := modTime(u.home, u.id)
	if err != nil {
		return err
	}
	back, err := m.writeFile(u.id, data, mtime)
	if err != nil {
		return err
	}
	if m.dst != nil && !bytes.Equal(back, data) {
		m.problem(filepath.Join(m.dstRoot, u.id), "", "the file differs from the source")
	}
	n := int64(len(data))
	m.count("", Count{Files: 1, Records: 1, Bytes: n, SourceBytes: n, DestinationBytes: n})
	t.add(1, 0)
	return nil
}
