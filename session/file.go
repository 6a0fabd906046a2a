package session

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/filestamp"
	"github.com/lite-agent/lite-agent-go/internal/jsonstr"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

// logSuffix ends the name of every session log.
const logSuffix = ".jsonl"

// FileOptions configures a FileCheckpointer. The zero value stores
// plaintext, does not fsync, and reports a malformed last line as an error.
// A torn tail (bytes after the last newline, see [TornTailError]) is never
// an error, whatever the options: it is set aside by the next append.
type FileOptions struct {
	// Encoding encodes each record. The zero value stores plaintext
	// under the default namespace and the "standalone" project.
	Encoding storage.Encoding

	// Durable makes Append return only after the batch has reached the
	// disk (fsync of the log, and of the directory when the log is new).
	// Without it, an acknowledged batch survives a crash of the process
	// but not necessarily one of the machine.
	Durable bool

	// RepairTail lets the checkpointer drop a malformed last line of a
	// plaintext log (one that ends with its newline but is not valid JSON
	// or is overlong, as a zero-filled block after a power loss leaves
	// it), after copying the file aside as <id>.jsonl.broken-<unix ms>.
	// Encoded logs are never repaired. The repair happens in whichever of
	// Read, Head, Append or Truncate first loads the log; Verify and Scan
	// never repair. A torn tail needs no RepairTail.
	RepairTail bool
}

// FileCheckpointer is a [Checkpointer] that keeps one log file per session,
// <dir>/<id>.jsonl, in the format described in the package documentation.
// It is safe for concurrent use by multiple goroutines, and by multiple
// processes (of this or another implementation) sharing the directory.
// Make one with [NewFileCheckpointer]; the zero FileCheckpointer has no
// directory and is not usable.
type FileCheckpointer struct {
	dir     *safefs.Dir
	enc     storage.Encoding
	durable bool
	repair  bool
	now     func() time.Time // the clock stamping batches
	maxLine int              // MaxLineBytes; lowered by tests
	// decodeFloor is the least a log's records may decode to in all
	// (DecodeFloorBytes; see decodeBudget); lowered by tests.
	decodeFloor int64
	// parallelMin is the smallest log read on several cores
	// (parallelMinBytes); lowered by tests.
	parallelMin int64
	// syncDir fsyncs a directory (safefs.SyncDir); replaced by tests.
	syncDir func(dir string) error
	// step, when set by a test, is told each step of setting a torn
	// tail aside done (see Append), so that a crash test can kill the
	// process there.
	step func(name string)

	lines lineReaders // recycled read buffers
	bufs  sync.Pool   // recycled *[]byte batch buffers

	mu    sync.Mutex            // guards the fields below
	heads map[string]headEntry  // cached heads, valid while the file's stamp holds
	gates map[string]*localGate // in-process queues per session
	holds map[string]*holding   // session locks kept by Hold
}

// holding is a session lock kept between operations by Hold.
type holding struct {
	lock *filelock.Lock
	refs int
}

var (
	_ Checkpointer = (*FileCheckpointer)(nil)
	_ Holder       = (*FileCheckpointer)(nil)
)

// stamp identifies one state of a log file; a cached head is valid only
// while the log's stamp is unchanged.
type stamp = filestamp.Stamp

// headEntry is a cached head, valid while the log's stamp is unchanged.
type headEntry struct {
	st   stamp
	head int64
	end  int64 // offset after the last complete record; < st.size when the tail is torn
}

// torn reports whether the log ends with a torn tail.
func (e headEntry) torn() bool { return e.end < e.st.Size }

// localGate serializes the goroutines of this process on one session, so
// that they queue here instead of polling the lock directory.
type localGate struct {
	ch   chan struct{}
	refs int
}

// NewFileCheckpointer returns a Checkpointer that keeps one file per
// session in dir. It checks opts.Encoding and freezes its codec's ID (see
// [storage.Encoding.Frozen]) before touching the disk, then anchors dir (creating it 0700 if needed) and refuses a
// symlinked dir. Errors are *storage.Error.
func NewFileCheckpointer(dir string, opts FileOptions) (*FileCheckpointer, error) {
	enc, err := opts.Encoding.Frozen()
	if err != nil {
		return nil, err
	}
	d, err := safefs.Anchor(dir)
	if err != nil {
		return nil, err
	}
	return &FileCheckpointer{
		dir:         d,
		enc:         enc,
		durable:     opts.Durable,
		repair:      opts.RepairTail,
		now:         time.Now,
		maxLine:     MaxLineBytes,
		decodeFloor: DecodeFloorBytes,
		parallelMin: parallelMinBytes,
		syncDir:     safefs.SyncDir,
		heads:       make(map[string]headEntry),
		gates:       make(map[string]*localGate),
		holds:       make(map[string]*holding),
	}, nil
}

// Dir returns the directory holding the logs.
func (c *FileCheckpointer) Dir() string { return c.dir.Path() }

// Path returns the path of the log of session id, or an error if id is not
// a valid file session id. The file may not exist.
func (c *FileCheckpointer) Path(id string) (string, error) {
	if err := validateID(id); err != nil {
		return "", err
	}
	return filepath.Join(c.dir.Path(), id+logSuffix), nil
}

// validateID applies the file session id rule: one or more ASCII letters,
// digits, underscores or hyphens.
func validateID(id string) error {
	if err := storage.ValidateID(id); err != nil {
		var se *storage.Error
		if errors.As(err, &se) && !errors.Is(err, storage.ErrIDTooLong) {
			se = se.At("", "")
			se.Kind = storage.KindCheckpoint
			se.Message = "File session ids must contain only letters, digits, underscores or hyphens"
			return se
		}
		return err
	}
	return nil
}

// session is the state of one locked operation on a session.
type session struct {
	c    *FileCheckpointer
	id   string
	rel  string // <id>.jsonl
	file string // its path, for errors
	gate *localGate
	lock *filelock.Lock
	kept bool // lock belongs to a Hold: unlock leaves it in place
}

// lock validates id and takes the session's locks: first this process's
// queue, then the lock directory shared with other processes. Both waits
// end when ctx is done.
func (c *FileCheckpointer) lock(ctx context.Context, id string) (*session, error) {
	if err := validateID(id); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c.mu.Lock()
	g := c.gates[id]
	if g == nil {
		g = &localGate{ch: make(chan struct{}, 1)}
		c.gates[id] = g
	}
	g.refs++
	c.mu.Unlock()
	select {
	case g.ch <- struct{}{}:
	case <-ctx.Done():
		c.leaveGate(id, g, false)
		return nil, ctx.Err()
	}
	s := &session{c: c, id: id, rel: id + logSuffix, file: filepath.Join(c.dir.Path(), id+logSuffix), gate: g}
	c.mu.Lock()
	h := c.holds[id]
	c.mu.Unlock()
	if h != nil {
		s.lock, s.kept = h.lock, true
		return s, nil
	}
	l, err := c.dir.Lock(ctx, s.rel, filelock.Options{Park: true})
	if err != nil {
		c.leaveGate(id, g, true)
		return nil, err
	}
	s.lock = l
	return s, nil
}

func (c *FileCheckpointer) leaveGate(id string, g *localGate, held bool) {
	if held {
		<-g.ch
	}
	c.mu.Lock()
	g.refs--
	if g.refs == 0 {
		delete(c.gates, id)
	}
	c.mu.Unlock()
}

// unlock releases the session's locks. A lock found compromised at release
// is not reported: every write and every result was checked against the
// lock (see held) while it was still ours.
func (s *session) unlock() {
	if !s.kept {
		_ = s.lock.Release()
	}
	s.c.leaveGate(s.id, s.gate, true)
}

// Hold takes the lock of session id and keeps it until release is called.
// Meanwhile every operation of this checkpointer on the session, from any
// goroutine, uses the held lock instead of creating and removing the lock
// directory itself, which costs more than the fdatasync of a small batch on
// many file systems. Other processes wait for the release as they wait for
// any holder, and the lock's mtime is refreshed all along.
//
// Hold suits bursts of operations: an import, a migration, a batch job
// appending as fast as it can. Do not hold a session while waiting on
// something slow, such as a model: other processes (lite-agent sessions
// show, another agent) would wait too, and give up after 30 s. If the
// process dies holding the lock, the lock goes stale after 10 s, like any
// lock of a killed process.
//
// Holds nest: the lock is released with the last release. Like the other
// methods, release must not be called inside a Scan loop over the same
// session (it waits for the loop to end). release is idempotent; it returns a *storage.Error if the lock was found
// compromised (taken over by another process) while held. Hold's errors are
// those of taking the lock: an invalid id, a lock held too long by another
// process, or ctx.Err().
func (c *FileCheckpointer) Hold(ctx context.Context, id string) (release func() error, err error) {
	s, err := c.lock(ctx, id)
	if err != nil {
		return nil, err
	}
	if s.kept {
		// Nested: the lock must still be ours to hand out another hold.
		if err := s.held(); err != nil {
			s.unlock()
			return nil, err
		}
	}
	c.mu.Lock()
	h := c.holds[id]
	if h == nil {
		h = &holding{lock: s.lock}
		c.holds[id] = h
	}
	h.refs++
	c.mu.Unlock()
	s.kept = true
	s.unlock()
	var once sync.Once
	var rerr error
	return func() error {
		once.Do(func() { rerr = c.unhold(id, h) })
		return rerr
	}, nil
}

// unhold drops one reference to the hold h on session id, releasing the
// lock with the last one. It waits for the operation in progress, if any.
func (c *FileCheckpointer) unhold(id string, h *holding) error {
	s, err := c.lock(context.Background(), id) // finds h: takes the gate only
	if err != nil {
		return err
	}
	defer s.unlock()
	c.mu.Lock()
	h.refs--
	last := h.refs == 0
	if last {
		delete(c.holds, id)
	}
	c.mu.Unlock()
	if !last {
		return h.lock.Check()
	}
	return h.lock.Release()
}

// held checks that the lock directory is still ours, before a write and
// before results are handed out: a codec that stalls past the stale period
// could otherwise let another process in.
func (s *session) held() error { return s.lock.Check() }

// open opens the log for reading. A missing log returns (nil, nil).
func (s *session) open() (*os.File, error) {
	f, err := s.c.dir.OpenFile(s.rel, os.O_RDONLY, 0)
	var se *storage.Error
	if errors.As(err, &se) {
		return nil, err // the directory changed, or a component is a symlink
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, s.deleting()
	}
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, &storage.Error{Op: "read", Kind: storage.KindCheckpoint, File: s.file, Message: "Symlink paths are not allowed for read: " + s.rel}
		}
		return nil, readError(s.file, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, readError(s.file, err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &storage.Error{Op: "read", Kind: storage.KindCheckpoint, File: s.file, Message: "checkpoint log is not a regular file"}
	}
	if err := checkSparse(s.file, f, st.Size()); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// checkSparse refuses, as a *storage.Error, an open log of size bytes whose
// holes add up to more than safefs.MaxHoleBytes (see there): no append
// makes one, and reading its zeros, which hold no newline, cost a listing,
// a show or a resume minutes per terabyte and a record's limit in memory.
func checkSparse(file string, f *os.File, size int64) error {
	err := safefs.CheckHoles("read", file, f, size)
	var se *storage.Error
	if errors.As(err, &se) {
		se.Kind = storage.KindCheckpoint
		se.Message = strings.Replace(se.Message, "Storage file", "checkpoint log", 1)
	}
	return err
}

// stat returns the log's current stamp.
func (s *session) stat() (stamp, error) {
	st, err := s.c.dir.Lstat(s.rel)
	if errors.Is(err, fs.ErrNotExist) {
		return stamp{}, s.deleting()
	}
	if err != nil {
		return stamp{}, err
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return stamp{}, &storage.Error{Op: "read", Kind: storage.KindCheckpoint, File: s.file, Message: "Symlink paths are not allowed for read: " + s.rel}
	}
	return filestamp.Of(st), nil
}

// loaded is the outcome of loading a log under its lock.
type loaded struct {
	exists  bool
	head    int64
	end     int64 // offset after the last complete record
	size    int64 // the log's size; more than end when the tail is torn
	events  []StoredEvent
	keepEnd int64 // offset after record opts.keep
}

// loadOpts selects what load keeps.
type loadOpts struct {
	collect bool  // keep the events with seq > since
	since   int64 // see collect
	keep    int64 // remember where record keep ends (Truncate)
}

// load reads and validates the whole log, up to its torn tail if it has
// one (which is not an error: see [TornTailError]). A bad record is an
// error, except a malformed last line of a plaintext log when RepairTail
// is set, which is repaired. It refreshes the head cache.
func (s *session) load(ctx context.Context, o loadOpts) (loaded, error) {
	var out loaded
	f, err := s.open()
	if err != nil || f == nil {
		if err == nil {
			s.c.setHead(s.id, stamp{}, 0, 0)
		}
		return out, err
	}
	defer f.Close()
	out.exists = true
	fi, err := f.Stat()
	if err != nil {
		return out, readError(s.file, err)
	}
	st := filestamp.Of(fi)
	since := o.since
	if !o.collect {
		since = int64(^uint64(0) >> 1)
	}
	var bad *problem
	lr := s.c.lines.get(f, s.c.maxLine)
	defer s.c.lines.put(lr)
	res, err := scan(ctx, s.c.enc, lr, scanOpts{id: s.id, file: s.file, since: since, workers: s.c.scanWorkers(fi.Size()), budget: s.c.decodeBudget(fi.Size())},
		func(r scanRecord) bool {
			if r.event != nil {
				out.events = append(out.events, *r.event)
			}
			if r.pos == o.keep {
				out.keepEnd = r.end
			}
			return true
		},
		func(p problem) bool { bad = &p; return false })
	if err != nil {
		return out, err
	}
	if bad == nil {
		out.head, out.end, out.size = res.records, res.end, fi.Size()
		s.c.setHead(s.id, st, out.head, out.end)
		return out, nil
	}
	if !s.c.repair || !repairable(s.c.enc, *bad) {
		return out, bad.Err
	}
	if err := s.repairTail(bad); err != nil {
		return out, err
	}
	out.head, out.end, out.size = bad.Record-1, bad.Offset, bad.Offset
	if o.keep > out.head {
		out.keepEnd = 0
	}
	return out, nil
}

// repairable reports whether RepairTail may drop the bad record p: a
// malformed (unparseable or overlong) last line of a plaintext log.
func repairable(enc storage.Encoding, p problem) bool {
	return !enc.Encoded() && p.Tail && (p.Kind == storage.ProblemSyntax || p.Kind == storage.ProblemTooLong)
}

// setHead caches the head of a session for the stamp st.
func (c *FileCheckpointer) setHead(id string, st stamp, head, end int64) {
	c.mu.Lock()
	c.heads[id] = headEntry{st: st, head: head, end: end}
	c.mu.Unlock()
}

func (c *FileCheckpointer) dropHead(id string) {
	c.mu.Lock()
	delete(c.heads, id)
	c.mu.Unlock()
}

// cachedHead returns the head cached for the log whose stamp is st, if
// the cache holds one for that stamp.
func (s *session) cachedHead(st stamp) (headEntry, bool) {
	s.c.mu.Lock()
	e, ok := s.c.heads[s.id]
	s.c.mu.Unlock()
	return e, ok && e.st == st
}

// head returns the head, from the cache while the log's stamp is unchanged
// and by loading the log otherwise.
func (s *session) head(ctx context.Context) (int64, error) {
	st, err := s.stat()
	if err != nil {
		return 0, err
	}
	if e, ok := s.cachedHead(st); ok {
		return e.head, nil
	}
	l, err := s.load(ctx, loadOpts{})
	return l.head, err
}

// Append implements [Checkpointer.Append]. Every record is encoded before
// anything is written, so a failing codec leaves the log untouched; the
// batch is then written with one write call (and fsynced when Durable).
//
// A torn tail left by an earlier, interrupted append (see [TornTailError])
// is first copied into <id>.jsonl.torn-<unix ms> beside the log, never
// replacing a file, and cut from the log. A write that fails part-way (a
// full disk, an I/O error) is cut back too: the log is truncated to its
// length before the call, and the error returned.
//
// Errors are *storage.Error, *ConflictError or ctx.Err().
func (c *FileCheckpointer) Append(ctx context.Context, id string, events []Event, expectedHead int64) (int64, error) {
	s, err := c.lock(ctx, id)
	if err != nil {
		return 0, err
	}
	defer s.unlock()
	// One descriptor serves the head check (fstat), the write and the new
	// head's stamp: an append costs a handful of system calls.
	f, h, err := s.openForAppend(ctx)
	if err != nil {
		return 0, err
	}
	missing := f == nil
	closed := false
	defer func() {
		if f != nil && !closed {
			f.Close()
		}
	}()
	if expectedHead >= 0 && expectedHead != h.head {
		return 0, &ConflictError{SessionID: id, Expected: expectedHead, Head: h.head}
	}
	if len(events) == 0 {
		return h.head, nil
	}
	bp, _ := c.bufs.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	defer func() {
		if cap(*bp) <= 4<<20 {
			c.bufs.Put(bp)
		}
	}()
	buf := (*bp)[:0]
	buf, err = encodeBatch(ctx, c.enc, buf, id, s.file, h.head, jsonstr.FormatTime(c.now()), events, c.maxLine)
	if err != nil {
		return 0, err
	}
	*bp = buf
	if err := s.held(); err != nil {
		return 0, err
	}
	if missing {
		if f, err = c.dir.OpenAppend(s.rel, true); err != nil {
			return 0, s.openError(err)
		}
		// Make the new log's name durable before anything is written to
		// it: a later append finds the file and does not sync again, even
		// if this write fails. If the sync fails, the empty file goes, so
		// that the next append creates it and syncs again.
		if c.durable {
			if err := c.syncDir(filepath.Dir(f.Name())); err != nil {
				if fi, serr := f.Stat(); serr == nil && fi.Size() == 0 {
					_ = c.dir.Remove(s.rel)
				}
				return 0, err
			}
		}
		if h.st, err = fstamp(s.file, f); err != nil {
			return 0, err
		}
		h.end = 0
	} else if h.torn() {
		c.dropHead(id)
		if err := s.setAsideTorn(h.end, h.st.Size); err != nil {
			return 0, err
		}
		c.stepDone("torn-copied")
		if err := f.Truncate(h.end); err != nil {
			return 0, (&storage.Error{Op: "write", Kind: storage.KindCheckpoint, File: s.file, Message: "cannot cut the torn tail of checkpoint log"}).WithCause(err)
		}
		c.stepDone("torn-cut")
		h.st.Size = h.end
	}
	if err := safefs.Write(f, buf, c.durable); err != nil {
		c.dropHead(id)
		return 0, s.cutBack(f, h.end, missing, err)
	}
	head := h.head + int64(len(events))
	// Cache the new head for the new stamp, unless something else changed
	// the file between the two stamps.
	before := h.st
	fi, statErr := f.Stat()
	// Some file systems (NFS, FUSE) report a failed write only at close.
	closed = true
	if err := f.Close(); err != nil {
		c.dropHead(id)
		return 0, s.cutBack(nil, h.end, missing, (&storage.Error{Op: "write", Kind: storage.KindCheckpoint, File: s.file, Message: "cannot write checkpoint log"}).WithCause(err))
	}
	// The log is written: its lock directory (or the hold's) stays for
	// the next lock of the directory (filelock.IdleName), as creating one
	// costs more than a small append on some file systems.
	s.lock.ParkOnRelease()
	if statErr == nil {
		after := filestamp.Of(fi)
		if after.Ino == before.Ino && after.Size == before.Size+int64(len(buf)) {
			c.setHead(id, after, head, after.Size)
			return head, nil
		}
	}
	c.dropHead(id)
	return head, nil
}

// stepDone tells the test hook (see FileCheckpointer.step) that step is
// done.
func (c *FileCheckpointer) stepDone(name string) {
	if c.step != nil {
		c.step(name)
	}
}

// openForAppend opens the log for appending and returns it with its head,
// taken from the cache while the file's stamp is unchanged and by loading
// the log otherwise. A missing log returns a nil file and head 0.
func (s *session) openForAppend(ctx context.Context) (*os.File, headEntry, error) {
	f, err := s.c.dir.OpenAppend(s.rel, false)
	if errors.Is(err, fs.ErrNotExist) {
		// No log: a new session, unless one of this id is being deleted.
		return nil, headEntry{}, s.deleting()
	}
	if err != nil {
		return nil, headEntry{}, s.openError(err)
	}
	st, err := fstamp(s.file, f)
	if err != nil {
		f.Close()
		return nil, headEntry{}, err
	}
	if e, ok := s.cachedHead(st); ok {
		return f, e, nil
	}
	l, err := s.load(ctx, loadOpts{})
	if err != nil {
		f.Close()
		return nil, headEntry{}, err
	}
	if cur, err := s.stat(); err != nil || cur.Ino != st.Ino {
		// A repair rewrote the log as a new file: append to that one.
		f.Close()
		if f, err = s.c.dir.OpenAppend(s.rel, false); err != nil {
			return nil, headEntry{}, s.openError(err)
		}
		if st, err = fstamp(s.file, f); err != nil {
			f.Close()
			return nil, headEntry{}, err
		}
	}
	return f, headEntry{st: st, head: l.head, end: l.end}, nil
}

// openError is err, from opening the log to append, with the log's own
// text for a log that is not a regular file, as Read and Head answer.
func (s *session) openError(err error) error {
	if safefs.IsNotRegular(err) {
		return &storage.Error{Op: "read", Kind: storage.KindCheckpoint, File: s.file, Message: "checkpoint log is not a regular file"}
	}
	if safefs.IsHardLinked(err) {
		return &storage.Error{Op: "write", Kind: storage.KindCheckpoint, File: s.file, Message: "checkpoint log has more than one hard link; refusing to write through it"}
	}
	return err
}

// fstamp returns the stamp of the open log f, which must be a regular file.
func fstamp(file string, f *os.File) (stamp, error) {
	fi, err := f.Stat()
	if err != nil {
		return stamp{}, readError(file, err)
	}
	if !fi.Mode().IsRegular() {
		return stamp{}, &storage.Error{Op: "read", Kind: storage.KindCheckpoint, File: file, Message: "checkpoint log is not a regular file"}
	}
	return filestamp.Of(fi), nil
}

// encodeBatch stamps events as seq head+1… and appends every record to buf,
// each followed by '\n'.
func encodeBatch(ctx context.Context, enc storage.Encoding, buf []byte, id, file string, head int64, ts string, events []Event, maxLine int) ([]byte, error) {
	var scratch []byte
	for i, ev := range events {
		seq := head + int64(i) + 1
		rec := strconv.FormatInt(seq, 10)
		if ev == nil {
			return nil, &storage.Error{Op: "encode", Kind: storage.KindCheckpoint, File: file, Record: rec, Message: "cannot encode checkpoint record: nil event"}
		}
		parent := seq - 1
		var err error
		if !enc.Encoded() {
			start := len(buf)
			if buf, err = appendRecord(buf, seq, id, parent, ts, ev); err != nil {
				return nil, encodeError(file, rec, err)
			}
			if len(buf)-start > maxLine {
				return nil, tooLongError(file, rec)
			}
			buf = append(buf, '\n')
			continue
		}
		if scratch, err = appendRecord(scratch[:0], seq, id, parent, ts, ev); err != nil {
			return nil, encodeError(file, rec, err)
		}
		start := len(buf)
		out, err := enc.AppendEncode(ctx, buf, storage.KindCheckpoint, id, rec, scratch)
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return nil, cerr
			}
			var se *storage.Error
			if errors.As(err, &se) {
				return nil, se.At(file, rec)
			}
			return nil, &storage.Error{Op: "encode", Kind: storage.KindCheckpoint, File: file, Record: rec, Message: "Storage encode failed (checkpoint)"}
		}
		if len(out)-start > maxLine {
			return nil, tooLongError(file, rec)
		}
		buf = append(out, '\n')
	}
	return buf, nil
}

func encodeError(file, rec string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "session: ")
	return &storage.Error{Op: "encode", Kind: storage.KindCheckpoint, File: file, Record: rec, Message: "cannot encode checkpoint record: " + msg}
}

func tooLongError(file, rec string) error {
	return &storage.Error{Op: "encode", Kind: storage.KindCheckpoint, File: file, Record: rec, Message: "checkpoint record exceeds the line length limit"}
}

// Read implements [Checkpointer.Read]. It validates every record of the
// log, decoding the events it returns; the first bad record fails the whole
// read with a *storage.Error naming file and record, unless it is a
// malformed last line that RepairTail repairs. A torn tail (see
// [TornTailError]) is not a record and not an error: Read returns every
// complete record before it and leaves it for the next Append to set
// aside. To get the records before a bad one, or to learn of a torn tail,
// use [FileCheckpointer.Scan].
func (c *FileCheckpointer) Read(ctx context.Context, id string, sinceSeq int64) ([]StoredEvent, error) {
	s, err := c.lock(ctx, id)
	if err != nil {
		return nil, err
	}
	defer s.unlock()
	l, err := s.load(ctx, loadOpts{collect: true, since: max(sinceSeq, 0)})
	if err != nil {
		return nil, err
	}
	if err := s.held(); err != nil {
		return nil, err
	}
	return l.events, nil
}

// Head implements [Checkpointer.Head]. The head is cached per session and
// reused while the log's inode, size, modification and change times are
// unchanged, so writes by other processes are always seen.
func (c *FileCheckpointer) Head(ctx context.Context, id string) (int64, error) {
	s, err := c.lock(ctx, id)
	if err != nil {
		return 0, err
	}
	defer s.unlock()
	return s.head(ctx)
}

// List implements [Checkpointer.List]: every regular *.jsonl file in the
// directory, most recently modified first (ties by id). It takes no lock.
// A symlinked log is an error.
func (c *FileCheckpointer) List(ctx context.Context) ([]Info, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ents, err := c.dir.ReadDir("")
	if err != nil {
		return nil, err
	}
	var out []Info
	for _, e := range ents {
		name := e.Name()
		id, ok := strings.CutSuffix(name, logSuffix)
		if !ok || id == "" {
			continue
		}
		if _, err := c.dir.Resolve(name); err != nil {
			return nil, err
		}
		st, err := c.dir.Lstat(name)
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted since ReadDir
		}
		if err != nil {
			return nil, err
		}
		if !st.Mode().IsRegular() {
			continue
		}
		out = append(out, Info{ID: id, ModTime: st.ModTime()})
	}
	slices.SortFunc(out, func(a, b Info) int {
		if c := b.ModTime.Compare(a.ModTime); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}

// Delete implements [Checkpointer.Delete]: it removes the log under the
// session's lock, and then the log that [FileCheckpointer.BeginDelete] set
// aside, which ends the session's delete. The copies set aside beside the
// log go with [FileCheckpointer.DeleteCopies]; the session's context
// archive and task list belong to their stores (archive.Delete,
// task.DeleteList). Something other than a regular file where the
// set-aside log goes is not removed: Delete then fails, removing nothing,
// with a *[DeletingError] whose Type says what it is.
func (c *FileCheckpointer) Delete(ctx context.Context, id string) error {
	s, err := c.lock(ctx, id)
	if err != nil {
		return err
	}
	defer s.unlock()
	if err := s.held(); err != nil {
		return err
	}
	if err := s.strangeDeleting(); err != nil {
		return err
	}
	err = c.dir.Remove(s.rel)
	c.dropHead(id)
	if err != nil {
		return err
	}
	if err := s.held(); err != nil {
		return err
	}
	return c.dir.Remove(DeletingName(s.id))
}

// Truncate implements [Checkpointer.Truncate]. It validates the log, keeps
// the lines of the first toSeq records byte for byte (they are not
// re-encoded) and replaces the file atomically. A torn tail dropped by the
// rewrite is first set aside as Append sets it aside.
func (c *FileCheckpointer) Truncate(ctx context.Context, id string, toSeq, expectedHead int64) error {
	s, err := c.lock(ctx, id)
	if err != nil {
		return err
	}
	defer s.unlock()
	l, err := s.load(ctx, loadOpts{keep: toSeq})
	if err != nil {
		return err
	}
	if expectedHead >= 0 && expectedHead != l.head {
		return &ConflictError{SessionID: id, Expected: expectedHead, Head: l.head}
	}
	if toSeq < 0 || toSeq > l.head {
		return &RangeError{SessionID: id, ToSeq: toSeq, Head: l.head}
	}
	if !l.exists || toSeq == l.head {
		return nil
	}
	prefix, err := s.readPrefix(l.keepEnd)
	if err != nil {
		return err
	}
	if err := s.held(); err != nil {
		return err
	}
	if l.end < l.size {
		// The rewrite drops the torn tail too: keep it, as Append would.
		if err := s.setAsideTorn(l.end, l.size); err != nil {
			return err
		}
	}
	err = c.dir.WriteFile(s.rel, prefix)
	c.dropHead(id)
	return err
}

// readPrefix returns the first n bytes of the log.
func (s *session) readPrefix(n int64) ([]byte, error) {
	f, err := s.open()
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, readError(s.file, fs.ErrNotExist)
	}
	defer f.Close()
	buf := make([]byte, n)
	if _, err := io.ReadFull(f, buf); err != nil {
		return nil, readError(s.file, err)
	}
	return buf, nil
}

// Scan yields the records of session id with Seq > sinceSeq, in order,
// streaming the log with memory bounded by its longest line. It validates
// every record like Read, but at the first bad record it yields the error
// (a *storage.Error naming file and record) once and stops, so the records
// before it are still seen; it never repairs anything. A log that ends with
// a torn tail yields every complete record and then a *[TornTailError],
// which callers that only want the records may ignore
// (errors.Is(err, ErrTornTail)). An unknown session yields nothing.
//
// The session stays locked until the loop ends, so the loop body must not
// call other methods for the same session. Breaking out of the loop
// releases the lock. The sequence may be ranged over more than once; each
// range reads the log afresh.
func (c *FileCheckpointer) Scan(ctx context.Context, id string, sinceSeq int64) iter.Seq2[StoredEvent, error] {
	return func(yield func(StoredEvent, error) bool) {
		s, err := c.lock(ctx, id)
		if err != nil {
			yield(StoredEvent{}, err)
			return
		}
		defer s.unlock()
		f, err := s.open()
		if err != nil {
			yield(StoredEvent{}, err)
			return
		}
		if f == nil {
			return
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			yield(StoredEvent{}, readError(s.file, err))
			return
		}
		stopped := false
		var checked time.Time
		lr := c.lines.get(f, c.maxLine)
		defer c.lines.put(lr)
		res, err := scan(ctx, c.enc, lr, scanOpts{id: id, file: s.file, since: max(sinceSeq, 0), budget: c.decodeBudget(fi.Size())},
			func(r scanRecord) bool {
				if r.event == nil {
					return true
				}
				// Check the lock before handing out records, once a
				// second: it goes stale only after ten.
				if now := time.Now(); now.Sub(checked) > time.Second {
					checked = now
					if err := s.held(); err != nil {
						stopped = true
						yield(StoredEvent{}, err)
						return false
					}
				}
				if !yield(*r.event, nil) {
					stopped = true
					return false
				}
				return true
			},
			func(p problem) bool {
				stopped = true
				yield(StoredEvent{}, p.Err)
				return false
			})
		if err != nil && !stopped {
			yield(StoredEvent{}, err)
			return
		}
		if err == nil && !res.stopped && res.torn(fi.Size()) {
			yield(StoredEvent{}, s.tornError(res, fi.Size()))
		}
	}
}

// tornError describes the torn tail found by the scan res of a log of size
// bytes.
func (s *session) tornError(res scanResult, size int64) *TornTailError {
	return &TornTailError{SessionID: s.id, File: s.file, Offset: res.end, Bytes: size - res.end, Head: res.records}
}

// Verify checks every record of the log of session id, decoding each event,
// and returns every problem found, in order, a torn tail last; it changes
// nothing, whatever RepairTail says. A missing log has no problems. The
// error reports a failure to check (invalid id, lock, I/O, ctx), not a bad
// record.
//
// Each [storage.Problem] names the log's path and the record's seq (its
// 1-based position among the non-blank lines, which is also the seq it
// should have), with the byte offset of its line, whether it is the last
// line (Tail), and whether [FileOptions.RepairTail] would drop it
// (Repairable: a torn last line of a plaintext log with no other problem).
// Its Err is a *storage.Error naming the file and record, never holding
// payload bytes. The kinds are:
//
//   - [storage.ProblemDecode]: the configured encoding refused the record.
//   - [storage.ProblemSyntax]: the record is not valid JSON, as a torn
//     write leaves it.
//   - [storage.ProblemTooLong]: the line exceeds the line length limit.
//   - [storage.ProblemFrame]: valid JSON that is not the record expected at
//     its position: wrong seq, sessionId or parentSeq, bad ts, or an event
//     without a string type.
//   - [storage.ProblemEvent]: the event's members do not have the types its
//     type defines.
//   - [storage.ProblemTorn]: the log ends with bytes after its last newline
//     (see [TornTailError], which is then the problem's Err). Readers
//     ignore them and the next Append sets them aside; it is not damage.
func (c *FileCheckpointer) Verify(ctx context.Context, id string) ([]storage.Problem, error) {
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
	fi, err := f.Stat()
	if err != nil {
		return nil, readError(s.file, err)
	}
	var problems []problem
	lr := c.lines.get(f, c.maxLine)
	defer c.lines.put(lr)
	res, err := scan(ctx, c.enc, lr, scanOpts{id: id, file: s.file, all: true, workers: c.scanWorkers(fi.Size()), budget: c.decodeBudget(fi.Size())},
		func(scanRecord) bool { return true },
		func(p problem) bool { problems = append(problems, p); return true })
	if err != nil {
		return nil, err
	}
	if len(problems) == 1 && repairable(c.enc, problems[0]) {
		problems[0].Repairable = true
	}
	if res.torn(fi.Size()) {
		problems = append(problems, problem{Record: res.records + 1, Offset: res.end, Kind: storage.ProblemTorn, Tail: true,
			Err: s.tornError(res, fi.Size())})
	}
	out := make([]storage.Problem, len(problems))
	for i, p := range problems {
		out[i] = p.public(s.file)
	}
	return out, nil
}
