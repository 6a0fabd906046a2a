package task

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

// listIDMessage is the message of the error for an invalid task-list id.
const listIDMessage = "File task-list ids must contain only letters, digits, underscores or hyphens"

// corruptMessage is the message of the error for a record that fails
// validation.
const corruptMessage = "Corrupt task record"

// FileStore is a task list kept as one file per task in
// <tasksDir>/<listID>/, under the cross-process lock <tasksDir>/<listID>.lock.
// See the package documentation for the format. It is safe for concurrent
// use by multiple goroutines and by multiple processes, including programs
// that only follow the lock-directory convention. Make one with
// [NewFileStore]: every operation of the zero FileStore fails with a
// *storage.Error.
type FileStore struct {
	path   string // <tasksDir>/<listID>, absolute
	listID string
	enc    storage.Encoding
	lock   filelock.Options
	now    func() time.Time
	// decodeFloor is DecodeFloorBytes (see fileRecords.overBudget);
	// lowered by tests.
	decodeFloor int64

	// anchoring, when set (by tests), runs just before the list
	// directory is looked for and anchored.
	anchoring func()

	mu     sync.Mutex  // guards dir and shared
	dir    *safefs.Dir // the anchored list directory; nil until it exists
	shared bool        // MarkShared was called: writes leave the mark
}

var _ Store = (*FileStore)(nil)

// NewFileStore returns the task list listID under tasksDir. It validates
// listID (non-empty letters, digits, underscores and hyphens) and enc (see
// [storage.Encoding.Frozen]), then anchors <tasksDir>/<listID> if it
// exists: a symlinked list directory (or tasks directory) is refused, and a list directory
// replaced later is detected by every operation. A missing list directory
// is created (mode 0700) and anchored by the first Create or Update, not
// before: until then the list reads as empty, so that an agent that
// creates no task leaves no directory behind. Errors are *storage.Error.
//
// enc.Codec, when set, encodes every record; a list written with one codec
// (or with none) can only be read with the same one.
func NewFileStore(tasksDir, listID string, enc storage.Encoding) (*FileStore, error) {
	if err := storage.ValidateID(listID); err != nil {
		var se *storage.Error
		if errors.As(err, &se) && !errors.Is(err, storage.ErrIDTooLong) {
			c := *se
			c.Message = listIDMessage
			return nil, &c
		}
		return nil, err
	}
	if tasksDir == "" {
		return nil, &storage.Error{Op: "open", Message: "task store needs a tasks directory"}
	}
	enc, err := enc.Frozen()
	if err != nil {
		return nil, err
	}
	path, err := filepath.Abs(filepath.Join(tasksDir, listID))
	if err != nil {
		return nil, (&storage.Error{Op: "open", File: filepath.Join(tasksDir, listID), Message: "cannot make storage directory absolute"}).WithCause(err)
	}
	s := &FileStore{
		path:   path,
		listID: listID,
		enc:    enc,
		lock:   filelock.Options{Factor: 1.4},
		now:    time.Now,

		decodeFloor: DecodeFloorBytes,
	}
	if _, err := s.anchored(false); err != nil {
		return nil, err
	}
	return s, nil
}

// anchored returns the anchored list directory. A missing one is created
// with create, and otherwise reported as nil.
func (s *FileStore) anchored(create bool) (*safefs.Dir, error) {
	if s.path == "" {
		// The zero FileStore names no directory: without this it would
		// read as an empty list, and its first write would panic.
		return nil, &storage.Error{Op: "open", Kind: storage.KindTask, Message: "task list was not opened with NewFileStore"}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dir != nil {
		return s.dir, nil
	}
	// The tasks directory is the data home's own: a link there (left by
	// another local user or a crashed tool) would take every list
	// elsewhere, so it is refused as a linked list directory is.
	parent := filepath.Dir(s.path)
	if st, err := os.Lstat(parent); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return nil, &storage.Error{Op: "open", Kind: storage.KindTask, File: parent, Message: "Storage directory must not be a symlink"}
	}
	if s.anchoring != nil {
		s.anchoring()
	}
	// Without create the directory is anchored only if it exists, in one
	// step: a list removed (a session's delete, a sweep) after a look
	// that found it must not be made again by a reader, which would
	// leave an empty list that makes the session's id look taken.
	anchor := safefs.Anchor
	if !create {
		anchor = safefs.AnchorExisting
	}
	d, err := anchor(s.path)
	if !create && errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	s.dir = d
	return d, nil
}

// ListID returns the id of the list.
func (s *FileStore) ListID() string { return s.listID }

// Dir returns the list directory, <tasksDir>/<listID>, which may not exist
// yet.
func (s *FileStore) Dir() string { return s.path }

// Create adds a pending task whose id is one more than the largest numeric
// id in the list, and writes it atomically. The id is chosen under the
// list's lock, so concurrent creators (in any process) get distinct ids.
// Every existing record is read and validated first: a corrupt record, or
// records stored with another codec, fail the call with a *storage.Error
// and nothing is written.
func (s *FileStore) Create(ctx context.Context, in CreateInput) (Task, error) {
	var t Task
	err := s.locked(ctx, true, func(r *fileRecords) error {
		var err error
		t, err = create(ctx, r, in, s.now().UnixMilli())
		return err
	})
	return t, err
}

// Update changes task id; see [Store.Update]. Every touched task (the
// target and the other ends of new edges) is validated, then encoded, and
// only then written, each with an atomic replace, every new file complete
// before the first replace. A codec failure or a full disk on any of them
// therefore leaves every file as it was.
func (s *FileStore) Update(ctx context.Context, id string, in UpdateInput) (Task, error) {
	var t Task
	err := s.locked(ctx, true, func(r *fileRecords) error {
		var err error
		t, err = update(ctx, r, id, in, s.now().UnixMilli())
		return err
	})
	return t, err
}

// Get returns task id, or false if the list has no record for it. The id
// is mapped to a file name by replacing every character outside
// [A-Za-z0-9_-] with "_", so Get("../secret") looks for "___secret.json"
// in the list directory (and, for lists written by earlier versions,
// ".._secret.json") and finds nothing. A record that exists but cannot
// be read is an error, never a "not found".
func (s *FileStore) Get(ctx context.Context, id string) (Task, bool, error) {
	var (
		t  Task
		ok bool
	)
	err := s.locked(ctx, false, func(r *fileRecords) error {
		var err error
		t, ok, err = r.load(ctx, id)
		return err
	})
	return t, ok, err
}

// List returns every task of the list sorted by numeric id. Every *.json
// file of the list directory must be a valid record; the first that is
// not fails the call with a *storage.Error naming it.
func (s *FileStore) List(ctx context.Context) ([]Task, error) {
	var ts []Task
	err := s.locked(ctx, false, func(r *fileRecords) error {
		var err error
		ts, err = r.loadAll(ctx)
		return err
	})
	return ts, err
}

// Render returns the list in its text form; see the package documentation.
func (s *FileStore) Render(ctx context.Context, opts RenderOptions) (string, error) {
	ts, err := s.List(ctx)
	if err != nil {
		return "", err
	}
	return render(ts, opts), nil
}

// locked runs fn with the list's lock held, in this process and across
// processes. The lock covers reading, decoding, encoding and writing. A
// missing list directory is created with create; without, fn is not
// called, since the list is empty.
func (s *FileStore) locked(ctx context.Context, create bool, fn func(*fileRecords) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	dir, err := s.anchored(create)
	if err != nil || dir == nil {
		return err
	}
	// The queue and the lock directory share one deadline, so a holder
	// that never finishes makes waiters fail after the lock's timeout
	// rather than wait forever.
	opts := s.lock
	if opts.Timeout <= 0 {
		opts.Timeout = filelock.DefaultTimeout
	}
	deadline := time.Now().Add(opts.Timeout)
	dequeue, err := queue(ctx, dir.Real(), deadline)
	if err != nil {
		return err
	}
	defer dequeue()
	opts.Timeout = max(time.Until(deadline), time.Nanosecond)
	l, err := dir.Lock(ctx, "", opts)
	if err != nil {
		if !create && errors.Is(err, syscall.EROFS) {
			// A reader on a read-only mount, where the lock directory
			// cannot be made: nothing writes the list through this
			// mount, so it reads without the lock rather than fail.
			// (A writer through another, writable mount of the same
			// files replaces each record by rename, so no record reads
			// torn; a read may at worst see a write of several
			// records half done.) A write fails with the lock's error
			// (see commit).
			return fn(&fileRecords{s: s, dir: dir, lockErr: err, loaded: map[string]loaded{}})
		}
		return err
	}
	defer func() {
		if rerr := l.Release(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	return fn(&fileRecords{s: s, dir: dir, lock: l, loaded: map[string]loaded{}})
}

// fileRecords is a FileStore seen from inside its lock.
type fileRecords struct {
	s    *FileStore
	dir  *safefs.Dir
	lock *filelock.Lock
	// lockErr is why lock is nil: the list is read without it on a
	// read-only file system (see locked), and nothing is written.
	lockErr error
	// loaded holds, by task id, the records read so far, so that a
	// rewrite keeps what this package does not know (see mergeRecord)
	// and replaces a record stored under a legacy name.
	loaded map[string]loaded
	// stored and decoded add up the records read so far, as stored and
	// as decoded, for the budget of an encoded list (see overBudget).
	stored, decoded int64
}

// DecodeFloorBytes and DecodeRatio bound what the records of an encoded
// list, read in one operation, may decode to in all: DecodeRatio times
// what they take as stored, and never less than DecodeFloorBytes
// (512 MiB), as session logs are bounded (session.DecodeRatio). A
// compressing codec needs no key, so a data home copied in can hold a list
// whose records each decode to the record limit from a few kilobytes:
// round 133 planted 30 zstd records of 200 MiB in 364 KB, and tasks list
// (and a resumed session, which reads its list) ran out of memory.
const (
	DecodeFloorBytes = 512 << 20
	DecodeRatio      = 64
)

// overBudget counts a record read as data and decoded as plain, and
// refuses it, as a *storage.Error naming it, once the records read add up
// to more than the budget of an encoded list.
func (r *fileRecords) overBudget(name, stem string, data, plain []byte) error {
	if !r.s.enc.Encoded() {
		return nil
	}
	r.stored += int64(len(data))
	r.decoded += int64(len(plain))
	if r.decoded <= max(r.s.decodeFloor, r.stored*DecodeRatio) {
		return nil
	}
	return &storage.Error{Op: "decode", Kind: storage.KindTask, File: r.path(name), Record: stem,
		Message: fmt.Sprintf("task list decodes to more than %d times what it stores (a planted or damaged file); refusing to read it", DecodeRatio)}
}

// loaded is one record as read.
type loaded struct {
	name  string // its file name
	plain []byte // its plaintext
	task  Task   // what decodeRecord made of it
}

// path returns the path of a record file for error messages.
func (r *fileRecords) path(name string) string { return filepath.Join(r.dir.Path(), name) }

// load reads the record of id. The file name is derived from id; a record
// whose stored id is not id itself (because several ids map to one file
// name) is reported as missing.
//
// A record is looked for under its file name, then under the name earlier
// versions of this package gave it (which kept "."), so lists they wrote
// stay readable.
func (r *fileRecords) load(ctx context.Context, id string) (Task, bool, error) {
	for _, stem := range []string{fileStem(id), legacyStem(id)} {
		t, ok, err := r.read(ctx, stem)
		if err != nil {
			return Task{}, false, err
		}
		if ok && t.ID == id {
			return t, true, nil
		}
		if legacyStem(id) == fileStem(id) {
			break
		}
	}
	return Task{}, false, nil
}

// read reads, decodes and validates the record file <stem>.json. A missing
// file is reported as false.
func (r *fileRecords) read(ctx context.Context, stem string) (Task, bool, error) {
	name := stem + recordExt
	data, err := r.dir.ReadFile(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Task{}, false, nil
		}
		return Task{}, false, atRecord(err, r.path(name), stem)
	}
	plain, err := r.s.enc.Decode(ctx, storage.KindTask, r.s.listID, stem, data)
	if err != nil {
		return Task{}, false, atRecord(err, r.path(name), stem)
	}
	if err := r.overBudget(name, stem, data, plain); err != nil {
		return Task{}, false, err
	}
	t, err := decodeRecord(stem, plain)
	if err != nil {
		return Task{}, false, (&storage.Error{
			Op: "read", Kind: storage.KindTask, File: r.path(name), Record: stem, Message: corruptMessage,
		}).WithCause(err) // a corruption's text is fixed and holds no payload
	}
	// Of two files holding one id (a record moved from its legacy name by
	// a writer that died before removing the old file), the one under the
	// current name counts.
	if prev, ok := r.loaded[t.ID]; !ok || prev.name != fileStem(t.ID)+recordExt {
		r.loaded[t.ID] = loaded{name: name, plain: append([]byte(nil), plain...), task: cloneTask(t)}
	} else if name != prev.name {
		return prev.task, true, nil
	}
	return t, true, nil
}

func (r *fileRecords) loadAll(ctx context.Context) ([]Task, error) {
	ents, err := r.dir.ReadDir("")
	if err != nil {
		return nil, err
	}
	var ts []Task
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, recordExt) {
			continue // temp files (.<name>.<hex>.tmp) and anything else
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		stem := strings.TrimSuffix(name, recordExt)
		t, ok, err := r.read(ctx, stem)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue // removed since the listing, by something not honouring the lock
		}
		ts = append(ts, t)
	}
	sortTasks(ts)
	// One task per id: a record left under its legacy name beside its
	// current one is not listed twice.
	ts = slices.CompactFunc(ts, func(a, b Task) bool { return a.ID == b.ID })
	for i, t := range ts {
		ts[i] = cloneTask(r.loaded[t.ID].task)
	}
	return ts, nil
}

// commit encodes every task, then writes each with an atomic replace. The
// writes start only if every encode succeeded, the context is not done and
// the lock is still ours; once started they all run, so that a cancelled
// context never splits an update.
func (r *fileRecords) commit(ctx context.Context, tasks []Task) error {
	batch := make([]safefs.Replacement, 0, len(tasks))
	var legacy []string // records that move from a legacy name
	names := make(map[string]string, len(tasks))
	for _, t := range tasks {
		name := fileStem(t.ID) + recordExt
		// Ids that differ can map to one file name (an import's "a.b"
		// and "a_b"): the second record would replace the first.
		if other, ok := names[name]; ok && other != t.ID {
			return &InputError{ID: t.ID, Field: "id", Err: fmt.Errorf("it is stored in the same file (%s) as task '%s'", name, other)}
		}
		names[name] = t.ID
		plain, err := Marshal(t)
		if err != nil {
			return &InputError{ID: t.ID, Field: "metadata", Err: err}
		}
		if old, ok := r.loaded[t.ID]; ok {
			// Keep the members this package does not know, in their
			// order, and the stored form of what did not change.
			if plain, err = mergeRecord(old.plain, old.task, plain); err != nil {
				return &InputError{ID: t.ID, Field: "metadata", Err: err}
			}
		}
		if l := legacyStem(t.ID) + recordExt; l != name {
			if _, err := r.dir.Lstat(l); err == nil {
				legacy = append(legacy, l)
			}
		}
		// The record is sealed under its file's stem, which read decodes
		// it with: the task id itself for every id Create assigns (and
		// the reference writes), and for any other id the name it can
		// be found under without knowing it (a_b.json for "a.b").
		stem := strings.TrimSuffix(name, recordExt)
		data, err := r.s.enc.Encode(ctx, storage.KindTask, r.s.listID, stem, plain)
		if err != nil {
			return atRecord(err, r.path(name), stem)
		}
		batch = append(batch, safefs.Replacement{Rel: name, Data: data})
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if r.lock == nil {
		return r.lockErr
	}
	if err := r.lock.Check(); err != nil {
		return err
	}
	// Every record is written before any replaces its file: a failed
	// write (a full disk) leaves all as they were, never half an edge.
	if i, err := r.dir.WriteFiles(batch); err != nil {
		return atRecord(err, r.path(batch[i].Rel), strings.TrimSuffix(batch[i].Rel, recordExt))
	}
	for _, name := range legacy {
		if err := r.dir.Remove(name); err != nil {
			return atRecord(err, r.path(name), strings.TrimSuffix(name, recordExt))
		}
	}
	r.s.mu.Lock()
	shared := r.s.shared
	r.s.mu.Unlock()
	if shared {
		return markShared(r.dir)
	}
	return nil
}

// atRecord names file and record on a *storage.Error that does not name
// them yet; other errors (a done context) pass unchanged.
func atRecord(err error, file, record string) error {
	var se *storage.Error
	if !errors.As(err, &se) {
		return err
	}
	c := *se // keeps the error's safe cause
	if c.Kind == "" {
		c.Kind = storage.KindTask
	}
	if c.File == "" {
		c.File = file
	}
	if c.Record == "" {
		c.Record = record
	}
	return &c
}
