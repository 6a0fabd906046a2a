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
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// chunkSize is how many bytes of a session log are buffered before they
// are written to the destination.
const chunkSize = 1 << 20

// progressEvery is how many records of one log are copied between two
// progress reports.
const progressEvery = 4096

type digest = [sha256.Size]byte

// copyAll copies every unit of p, Workers at a time. The first error stops
// the others and is returned.
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
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		once     sync.Once
		firstErr error
		wg       sync.WaitGroup
	)
	units := make(chan *unit)
	for range min(m.workers, max(len(p.units), 1)) {
		wg.Go(func() {
			for u := range units {
				if err := m.copyUnit(ctx, u); err != nil {
					once.Do(func() {
						firstErr = err
						cancel()
					})
				}
			}
		})
	}
feed:
	for i := range p.units {
		select {
		case units <- &p.units[i]:
		case <-ctx.Done():
			break feed
		}
	}
	close(units)
	wg.Wait()
	return firstErr
}

// copyUnit copies one unit and reports its progress.
func (m *migration) copyUnit(ctx context.Context, u *unit) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	t := &tally{m: m, u: u}
	var err error
	switch u.kind {
	case unitSession:
		err = m.copySession(ctx, u, t)
	case unitArchive:
		err = m.copyArchive(ctx, u)
	case unitTasks:
		err = m.copyTasks(ctx, u)
	case unitSpill:
		err = m.copySpill(ctx, u)
	case unitConfig:
		err = m.copyConfig(u)
	}
	if err != nil {
		return err
	}
	t.done()
	return nil
}

// tally reports the progress of one unit, so that the counts reach the
// planned totals exactly when the unit is done.
type tally struct {
	m                *migration
	u                *unit
	records, bytes   int64
	pendingR, pendBy int64
}

func (t *tally) add(records, bytes int64) {
	t.pendingR += records
	t.pendBy += bytes
	if t.pendingR >= progressEvery {
		t.records += t.pendingR
		t.bytes += t.pendBy
		t.m.advance(0, t.pendingR, t.pendBy)
		t.pendingR, t.pendBy = 0, 0
	}
}

func (t *tally) done() {
	t.m.advance(1, t.u.records-t.records, t.u.bytes-t.bytes)
}

// releaser returns a function that releases l the first time it is called.
// A lock found compromised at release is not reported: it was checked while
// still held, before anything read under it was used.
func releaser(l *filelock.Lock) func() {
	var once sync.Once
	return func() { once.Do(func() { _ = l.Release() }) }
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
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		return nil, unreadable(err, file, record)
	}
	return plain, nil
}

// encodeDest encodes one record for the destination.
func encodeDest(ctx context.Context, enc storage.Encoding, kind storage.Kind, scope, record, file string, plain []byte) ([]byte, error) {
	stored, err := enc.Encode(ctx, kind, scope, record, plain)
	if err != nil {
		var se *storage.Error
		if errors.As(err, &se) {
			return nil, se.At(file, record)
		}
		return nil, err
	}
	return stored, nil
}

// skipOrFail leaves out an unreadable record with SkipUnreadable, and
// otherwise returns err. Errors that are not about a record always fail.
func (m *migration) skipOrFail(file, record string, err error, note string) error {
	if !errors.Is(err, ErrUnreadable) || !m.opts.SkipUnreadable {
		return err
	}
	m.skip(Skipped{File: file, Record: record, Reason: err.Error() + note})
	return nil
}

// copySession copies one session log record by record, under its lock.
func (m *migration) copySession(ctx context.Context, u *unit, t *tally) error {
	pr, sid := u.p, u.id
	name := sid + logExt
	lock, err := pr.sessions.Lock(ctx, name, filelock.Options{})
	if err != nil {
		return err
	}
	unlock := releaser(lock)
	defer unlock()
	f, path, err := openSource(pr.sessions, name)
	if err != nil {
		return err
	}
	defer f.Close()
	dstRel := filepath.Join(pr.dstRel, sessionsName, name)
	dstPath := filepath.Join(m.dstRoot, dstRel)
	w := &chunkWriter{m: m, rel: dstRel}
	c := Count{Files: 1}
	var digests []digest
	lr := newLineReader(f, session.MaxLineBytes)
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
	if err := lock.Check(); err != nil {
		return err
	}
	unlock()
	if err := m.verifySession(ctx, pr, sid, dstRel, digests); err != nil {
		return err
	}
	m.count(storage.KindCheckpoint, c)
	return nil
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

// verifySession reads back the destination log rel and checks that its
// records decode with the destination configuration to the plaintexts
// whose digests are want.
func (m *migration) verifySession(ctx context.Context, pr *project, sid, rel string, want []digest) error {
	if m.dst == nil {
		return nil
	}
	path := filepath.Join(m.dstRoot, rel)
	f, _, err := openSource(m.dst, rel)
	if err != nil {
		if len(want) == 0 && errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		m.problem(path, "", "cannot read back: "+err.Error())
		return nil
	}
	defer f.Close()
	lr := newLineReader(f, session.MaxLineBytes)
	var pos int64
	for {
		l, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			m.problem(path, "", "cannot read back: "+err.Error())
			return nil
		}
		pos++
		rec := strconv.FormatInt(pos, 10)
		if pos > int64(len(want)) {
			continue // counted below
		}
		if l.tooLong {
			m.problem(path, rec, "the record exceeds the length limit of a session log")
			continue
		}
		plain, err := pr.dstEnc.Decode(ctx, storage.KindCheckpoint, sid, rec, l.text)
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			m.problem(path, rec, err.Error())
			continue
		}
		if sha256.Sum256(plain) != want[pos-1] {
			m.problem(path, rec, "the record differs from the source")
		}
	}
	if pos != int64(len(want)) {
		m.problem(path, "", fmt.Sprintf("%d records read back, %d written", pos, len(want)))
	}
	return nil
}

// chunkWriter buffers the lines of one destination file and writes them in
// chunks.
type chunkWriter struct {
	m   *migration
	rel string
	buf []byte
}

func (w *chunkWriter) add(line []byte) error {
	if w.m.dst == nil {
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
	err := w.m.put(w.rel, w.buf)
	w.buf = w.buf[:0]
	return err
}

// copyArchive copies one context archive, index line by index line and
// note by note, under its lock.
func (m *migration) copyArchive(ctx context.Context, u *unit) error {
	pr, sid := u.p, u.id
	rel := sid + contextExt
	lock, err := pr.sessions.Lock(ctx, rel, filelock.Options{})
	if err != nil {
		return err
	}
	unlock := releaser(lock)
	defer unlock()
	dstRel := filepath.Join(pr.dstRel, sessionsName, rel)
	if m.dst != nil {
		if err := m.mkdir(dstRel); err != nil {
			return err
		}
	}

	// The index: each line decodes at its source position and is written
	// at its destination position, which differs only after a skipped line.
	idxRel := filepath.Join(rel, indexName)
	idxPath := filepath.Join(pr.sessions.Path(), idxRel)
	data, err := pr.sessions.ReadFile(idxRel)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	dstIdxRel := filepath.Join(dstRel, indexName)
	dstIdxPath := filepath.Join(m.dstRoot, dstIdxRel)
	var out []byte
	var idxDigests []digest
	var ic Count
	if len(data) > 0 {
		ic.Files = 1
	}
	for n := 0; len(data) > 0; n++ {
		rec := strconv.Itoa(n)
		var text []byte
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			text, data = data, nil
		} else {
			text, data = data[:i], data[i+1:]
		}
		ic.SourceBytes += int64(len(text)) + 1
		plain, err := indexRecord(ctx, pr.srcEnc, sid, idxPath, rec, text, i >= 0)
		if err != nil {
			if err := m.skipOrFail(idxPath, rec, err, ""); err != nil {
				return err
			}
			continue
		}
		stored, err := encodeDest(ctx, pr.dstEnc, storage.KindArchiveIndex, sid, strconv.Itoa(len(idxDigests)), dstIdxPath, plain)
		if err != nil {
			return err
		}
		out = append(out, stored...)
		out = append(out, '\n')
		idxDigests = append(idxDigests, sha256.Sum256(plain))
		ic.Records++
		ic.Bytes += int64(len(plain))
		ic.DestinationBytes += int64(len(stored)) + 1
	}
	if len(out) > 0 && m.dst != nil {
		if err := m.put(dstIdxRel, out); err != nil {
			return err
		}
	}

	// The notes.
	notes := map[string]digest{}
	var nc Count
	notesRel := filepath.Join(rel, notesName)
	ents, err := pr.sessions.ReadDir(notesRel)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, e := range ents {
		name := e.Name()
		ref := strings.TrimSuffix(name, noteExt)
		if isTemp(name) || !strings.HasSuffix(name, noteExt) || !refPattern.MatchString(ref) {
			continue // checked by the plan; a newcomer is not ours to judge
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		path := filepath.Join(pr.sessions.Path(), notesRel, name)
		stored, err := pr.sessions.ReadFile(filepath.Join(notesRel, name))
		if err != nil {
			return err
		}
		plain, err := decodeSource(ctx, pr.srcEnc, storage.KindArchive, sid, ref, path, stored)
		if err == nil && hex.EncodeToString(sha256Sum(plain)) != ref {
			err = corrupt(storage.KindArchive, path, ref, "content does not match its ref")
		}
		if err != nil {
			if err := m.skipOrFail(path, ref, err, ""); err != nil {
				return err
			}
			continue
		}
		dstNoteRel := filepath.Join(dstRel, notesName, name)
		enc, err := encodeDest(ctx, pr.dstEnc, storage.KindArchive, sid, ref, filepath.Join(m.dstRoot, dstNoteRel), plain)
		if err != nil {
			return err
		}
		if err := m.put(dstNoteRel, enc); err != nil {
			return err
		}
		notes[name] = sha256.Sum256(plain)
		nc.Files++
		nc.Records++
		nc.Bytes += int64(len(plain))
		nc.SourceBytes += int64(len(stored))
		nc.DestinationBytes += int64(len(enc))
	}
	if err := lock.Check(); err != nil {
		return err
	}
	unlock()

	if err := m.verifyArchive(ctx, pr, sid, dstRel, idxDigests, notes); err != nil {
		return err
	}
	m.count(storage.KindArchiveIndex, ic)
	m.count(storage.KindArchive, nc)
	return nil
}

func sha256Sum(b []byte) []byte {
	s := sha256.Sum256(b)
	return s[:]
}

// indexRecord decodes and validates one source index line: it must end
// with a newline and decode to a JSON object with a ref of 64 lowercase
// hex digits and a string preview.
func indexRecord(ctx context.Context, enc storage.Encoding, sid, path, rec string, text []byte, terminated bool) ([]byte, error) {
	if !terminated {
		return nil, corrupt(storage.KindArchiveIndex, path, rec, "unterminated last line")
	}
	if len(text) == 0 {
		return nil, corrupt(storage.KindArchiveIndex, path, rec, "blank line")
	}
	plain, err := decodeSource(ctx, enc, storage.KindArchiveIndex, sid, rec, path, text)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	var ref, preview string
	if !utf8.Valid(plain) || json.Unmarshal(plain, &fields) != nil || fields == nil ||
		!jsonString(fields["ref"], &ref) || !refPattern.MatchString(ref) || !jsonString(fields["preview"], &preview) {
		return nil, corrupt(storage.KindArchiveIndex, path, rec, "not an index entry")
	}
	return plain, nil
}

// jsonString decodes raw into *s if raw is a JSON string.
func jsonString(raw json.RawMessage, s *string) bool {
	return len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, s) == nil
}

// verifyArchive reads back the destination archive rel.
func (m *migration) verifyArchive(ctx context.Context, pr *project, sid, rel string, index []digest, notes map[string]digest) error {
	if m.dst == nil {
		return nil
	}
	idxRel := filepath.Join(rel, indexName)
	idxPath := filepath.Join(m.dstRoot, idxRel)
	data, err := m.dst.ReadFile(idxRel)
	if err != nil && !(errors.Is(err, fs.ErrNotExist) && len(index) == 0) {
		m.problem(idxPath, "", "cannot read back: "+err.Error())
	}
	n := 0
	for ; len(data) > 0; n++ {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			m.problem(idxPath, strconv.Itoa(n), "unterminated last line")
			break
		}
		text := data[:i]
		data = data[i+1:]
		if n >= len(index) {
			continue
		}
		rec := strconv.Itoa(n)
		plain, err := pr.dstEnc.Decode(ctx, storage.KindArchiveIndex, sid, rec, text)
		switch {
		case err != nil && ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			m.problem(idxPath, rec, err.Error())
		case sha256.Sum256(plain) != index[n]:
			m.problem(idxPath, rec, "the index line differs from the source")
		}
	}
	if n != len(index) {
		m.problem(idxPath, "", fmt.Sprintf("%d index lines read back, %d written", n, len(index)))
	}
	for name, want := range notes {
		ref := strings.TrimSuffix(name, noteExt)
		noteRel := filepath.Join(rel, notesName, name)
		path := filepath.Join(m.dstRoot, noteRel)
		stored, err := m.dst.ReadFile(noteRel)
		if err != nil {
			m.problem(path, ref, "cannot read back: "+err.Error())
			continue
		}
		plain, err := pr.dstEnc.Decode(ctx, storage.KindArchive, sid, ref, stored)
		switch {
		case err != nil && ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			m.problem(path, ref, err.Error())
		case sha256.Sum256(plain) != want:
			m.problem(path, ref, "the note differs from the source")
		}
	}
	return nil
}

// copyTasks copies one task list, record by record, under its lock.
func (m *migration) copyTasks(ctx context.Context, u *unit) error {
	pr, list := u.p, u.id
	lock, err := pr.tasks.Lock(ctx, list, filelock.Options{Factor: 1.4})
	if err != nil {
		return err
	}
	unlock := releaser(lock)
	defer unlock()
	dstRel := filepath.Join(pr.dstRel, tasksName, list)
	if m.dst != nil {
		if err := m.mkdir(dstRel); err != nil {
			return err
		}
	}
	ents, err := pr.tasks.ReadDir(list)
	if err != nil {
		return err
	}
	c := Count{}
	want := map[string]digest{}
	for _, e := range ents {
		name := e.Name()
		if isTemp(name) || !strings.HasSuffix(name, taskExt) || len(name) == len(taskExt) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		stem := strings.TrimSuffix(name, taskExt)
		path := filepath.Join(pr.tasks.Path(), list, name)
		stored, err := pr.tasks.ReadFile(filepath.Join(list, name))
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
		enc, err := encodeDest(ctx, pr.dstEnc, storage.KindTask, list, stem, filepath.Join(m.dstRoot, dstFileRel), plain)
		if err != nil {
			return err
		}
		if err := m.put(dstFileRel, enc); err != nil {
			return err
		}
		want[name] = sha256.Sum256(plain)
		c.Files++
		c.Records++
		c.Bytes += int64(len(plain))
		c.SourceBytes += int64(len(stored))
		c.DestinationBytes += int64(len(enc))
	}
	if err := lock.Check(); err != nil {
		return err
	}
	unlock()
	if err := m.verifyTasks(ctx, pr, list, dstRel, want); err != nil {
		return err
	}
	m.count(storage.KindTask, c)
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

// verifyTasks reads back the destination list rel, record by record and
// then through the task store, which applies every rule of the format.
func (m *migration) verifyTasks(ctx context.Context, pr *project, list, rel string, want map[string]digest) error {
	if m.dst == nil {
		return nil
	}
	for name, d := range want {
		stem := strings.TrimSuffix(name, taskExt)
		fileRel := filepath.Join(rel, name)
		path := filepath.Join(m.dstRoot, fileRel)
		stored, err := m.dst.ReadFile(fileRel)
		if err != nil {
			m.problem(path, stem, "cannot read back: "+err.Error())
			continue
		}
		plain, err := pr.dstEnc.Decode(ctx, storage.KindTask, list, stem, stored)
		switch {
		case err != nil && ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			m.problem(path, stem, err.Error())
		case sha256.Sum256(plain) != d:
			m.problem(path, stem, "the task differs from the source")
		}
	}
	dir := filepath.Join(m.dst.Real(), filepath.Dir(rel))
	st, err := task.NewFileStore(dir, list, pr.dstEnc)
	if err != nil {
		m.problem(filepath.Join(m.dstRoot, rel), "", err.Error())
		return nil
	}
	ts, err := st.List(ctx)
	switch {
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		m.problem(filepath.Join(m.dstRoot, rel), "", "the task store cannot read the copy: "+err.Error())
	case len(ts) != len(want):
		m.problem(filepath.Join(m.dstRoot, rel), "", fmt.Sprintf("the task store lists %d tasks, %d written", len(ts), len(want)))
	}
	return nil
}

// copySpill copies one spill file. Spill files are only ever replaced whole
// by a rename, so no lock is needed to read one.
func (m *migration) copySpill(ctx context.Context, u *unit) error {
	pr, ref := u.p, u.id
	name := ref + spillExt
	path := filepath.Join(pr.spill.Path(), name)
	stored, err := pr.spill.ReadFile(name)
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
	enc, err := encodeDest(ctx, pr.dstEnc, storage.KindSpill, spill.Scope, ref, dstPath, plain)
	if err != nil {
		return err
	}
	if err := m.put(dstRel, enc); err != nil {
		return err
	}
	if m.dst != nil {
		back, err := m.dst.ReadFile(dstRel)
		if err != nil {
			m.problem(dstPath, ref, "cannot read back: "+err.Error())
		} else if got, err := pr.dstEnc.Decode(ctx, storage.KindSpill, spill.Scope, ref, back); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			m.problem(dstPath, ref, err.Error())
		} else if !bytes.Equal(got, plain) {
			m.problem(dstPath, ref, "the spilled output differs from the source")
		}
	}
	m.count(storage.KindSpill, Count{Files: 1, Records: 1, Bytes: int64(len(plain)), SourceBytes: int64(len(stored)), DestinationBytes: int64(len(enc))})
	return nil
}

// copyConfig copies one configuration file of the home byte for byte.
func (m *migration) copyConfig(u *unit) error {
	data, err := u.home.ReadFile(u.id)
	if err != nil {
		return err
	}
	if err := m.put(u.id, data); err != nil {
		return err
	}
	if m.dst != nil {
		path := filepath.Join(m.dstRoot, u.id)
		back, err := m.dst.ReadFile(u.id)
		if err != nil {
			m.problem(path, "", "cannot read back: "+err.Error())
		} else if !bytes.Equal(back, data) {
			m.problem(path, "", "the file differs from the source")
		}
	}
	n := int64(len(data))
	m.count("", Count{Files: 1, Records: 1, Bytes: n, SourceBytes: n, DestinationBytes: n})
	return nil
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

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10), max: max}
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
