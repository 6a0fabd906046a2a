package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/redact"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
)

// The defaults of [Options].
const (
	DefaultMaxBytes = 10 << 20 // 10 MiB
	DefaultMaxFiles = 5
)

// fileMode is the mode of the log files, which hold what agents did.
const fileMode = 0o600

// tsLayout is the layout of a record's ts: UTC, in milliseconds.
const tsLayout = "2006-01-02T15:04:05.000Z"

// ErrClosed is returned by [Log.Append] after [Log.Close].
var ErrClosed = errors.New("audit: log is closed")

// ErrInvalidOptions is wrapped by the error [NewLog] returns for options
// it cannot use.
var ErrInvalidOptions = errors.New("audit: invalid options")

// Options configures a [Log]. The zero value rotates at 10 MiB, keeps 5
// files, hashes with plain SHA-256, redacts with the permission package's
// default redactor and fsyncs every record.
type Options struct {
	// MaxBytes is the size in bytes past which the log rotates before its
	// next record: the file is renamed FILE.1 (FILE.1 to FILE.2, and so
	// on) and a new FILE is begun, the chain going on across the files. A
	// record larger than MaxBytes gets a file of its own. Zero means
	// [DefaultMaxBytes]; a negative value never rotates.
	MaxBytes int64

	// MaxFiles is how many files the log keeps, FILE and FILE.1 …
	// FILE.(MaxFiles-1); rotation removes the oldest. Zero means
	// [DefaultMaxFiles]; 1 keeps only FILE, whose records are then
	// removed at rotation (the chain goes on in the new file).
	MaxFiles int

	// Key, when not empty, makes every hash an HMAC-SHA256 under Key, so
	// that only a holder of the key can write records that verify. The
	// zero value hashes with plain SHA-256, which detects accidental
	// damage and edits of records followed by intact ones, but not a
	// rewrite of the whole chain.
	Key []byte

	// Redact hides secrets in each event's JSON before it is written. nil
	// means the permission package's default redactor
	// ([permission.Redact]); a function returning its input keeps events
	// as they are.
	Redact func(json.RawMessage) json.RawMessage

	// NoSync skips the fsync after each record. The zero value makes
	// Append return only once the record has reached the disk.
	NoSync bool
}

// A Log is an append-only, hash-chained audit log of agent events in a
// file, rotated by size; see the package documentation for the format.
//
// A Log is safe for concurrent use, and several Logs, in one process or
// in several, may append to the same file: each Append holds the flock(2)
// of the lock file FILE.lock while it reads where the chain stands, writes
// its record and, when due, rotates, so that their records form one chain.
// Make one with [NewLog]; the zero Log has no file and is not usable.
type Log struct {
	path     string
	key      []byte
	maxBytes int64
	maxFiles int
	redact   func(json.RawMessage) json.RawMessage
	sync     bool
	now      func() time.Time

	mu     sync.Mutex // guards the fields below
	lock   *os.File   // FILE.lock, whose flock serializes appends
	f      *os.File   // the open FILE, or nil
	fst    fs.FileInfo
	end    int64  // f's size after the last record this Log wrote or read
	known  bool   // seq and hash are the chain's at end
	seq    int64  // the last record's seq; 0 before the first
	hash   string // the last record's hash; "" before the first
	err    error  // the first error an Append returned
	broken error  // a failure that left FILE in an unknown state
	closed bool
}

// NewLog returns a Log appending to the file at path, which is created
// 0600 if missing (and its directory 0700), with its lock file FILE.lock
// beside it. The chain resumes from the file's last record, read at the
// first Append; a torn last line (an append a crash interrupted) is then
// copied aside to FILE.torn-<ms> and cut off. A symlink at path is
// refused.
func NewLog(path string, opts Options) (*Log, error) {
	if path == "" {
		return nil, fmt.Errorf("%w: empty path", ErrInvalidOptions)
	}
	if opts.MaxFiles < 0 {
		return nil, fmt.Errorf("%w: MaxFiles %d is negative", ErrInvalidOptions, opts.MaxFiles)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("audit log %s: %w", path, err)
	}
	l := &Log{
		path:     abs,
		key:      bytes.Clone(opts.Key),
		maxBytes: opts.MaxBytes,
		maxFiles: opts.MaxFiles,
		redact:   opts.Redact,
		sync:     !opts.NoSync,
		now:      time.Now,
	}
	if l.maxBytes == 0 {
		l.maxBytes = DefaultMaxBytes
	}
	if l.maxFiles == 0 {
		l.maxFiles = DefaultMaxFiles
	}
	if l.redact == nil {
		l.redact = redact.JSON
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("audit log %s: %w", abs, err)
	}
	if err := l.open(); err != nil {
		return nil, err
	}
	if l.lock, err = openLock(abs); err != nil {
		l.f.Close()
		return nil, err
	}
	return l, nil
}

// Path returns the absolute path of the log's file.
func (l *Log) Path() string { return l.path }

// Append writes ev as the next record of the chain, under the session id
// ev.SessionID, after redacting its JSON. With fsync (the default) the
// record is on the disk when Append returns nil. ctx bounds the wait for
// the log's lock while another Log, maybe in another process, appends.
//
// An Append that fails leaves the file as it was, when it can; if it
// cannot (a write failed and the partial record could not be cut off),
// every later Append fails with the same error. [Log.Err] and
// [Log.Close] report the first error any Append returned, for hosts that
// append from [liteagent.Agent.SubscribeAll], which cannot return one.
func (l *Log) Append(ctx context.Context, ev engine.Event) error {
	event, err := l.eventJSON(ev)
	if err == nil {
		err = l.appendRecord(ctx, ev.SessionID, event)
	}
	if err != nil {
		l.mu.Lock()
		if l.err == nil && !errors.Is(err, ErrClosed) {
			l.err = err
		}
		l.mu.Unlock()
	}
	return err
}

// eventJSON returns the redacted, compact JSON of ev.
func (l *Log) eventJSON(ev engine.Event) ([]byte, error) {
	raw, err := encodeEvent(ev)
	if err != nil {
		// A part that does not marshal (a tool call whose input is not
		// JSON): keep the record, saying so.
		raw, _ = json.Marshal(map[string]any{"type": string(ev.Type), "sessionId": ev.SessionID, "unencodable": err.Error()})
	}
	red := l.redact(raw)
	var buf bytes.Buffer
	if err := json.Compact(&buf, red); err != nil {
		return nil, fmt.Errorf("audit log %s: the redactor returned invalid JSON: %w", l.path, err)
	}
	return buf.Bytes(), nil
}

func (l *Log) appendRecord(ctx context.Context, sessionID string, event []byte) (err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.closed:
		return ErrClosed
	case l.broken != nil:
		return l.broken
	}
	if err := lockFile(ctx, l.lock); err != nil {
		return err
	}
	defer func() {
		if uerr := unlockFile(l.lock); uerr != nil && err == nil {
			err = uerr
		}
	}()
	if err := l.catchUp(); err != nil {
		return err
	}
	line, h := encodeRecord(l.key, l.now().UTC().Format(tsLayout), sessionID, l.seq+1, l.hash, event)
	if l.maxBytes > 0 && l.end > 0 && l.end+int64(len(line)) > l.maxBytes {
		if err := l.rotate(); err != nil {
			return err
		}
	}
	if err := l.write(line); err != nil {
		return err
	}
	l.end += int64(len(line))
	l.seq++
	l.hash = h
	return nil
}

// write appends line to f with one write call, fsyncing it unless NoSync.
// On failure it cuts off what was written, or marks the log broken.
func (l *Log) write(line []byte) error {
	_, err := l.f.Write(line)
	if err == nil && l.sync {
		err = safefs.SyncData(l.f)
	}
	if err == nil {
		return nil
	}
	err = fmt.Errorf("audit log %s: write: %w", l.path, err)
	if terr := l.f.Truncate(l.end); terr != nil {
		l.broken = fmt.Errorf("%w (and the partial record could not be removed: %v)", err, terr)
		return l.broken
	}
	return err
}

// open opens FILE for appending, creating it if missing, and forgets
// where the chain stands.
func (l *Log) open() error {
	if l.f != nil {
		l.f.Close()
		l.f = nil
	}
	l.known = false
	f, err := safefs.OpenFile(l.path, os.O_RDWR|os.O_APPEND|os.O_CREATE, fileMode)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return fmt.Errorf("audit log %s: refusing a symlink", l.path)
		}
		return fmt.Errorf("audit log %s: %w", l.path, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("audit log %s: %w", l.path, err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return fmt.Errorf("audit log %s: not a regular file", l.path)
	}
	l.f, l.fst = f, st
	if l.sync {
		// The file may be new, or FILE may have just been renamed.
		if err := safefs.SyncDir(filepath.Dir(l.path)); err != nil {
			l.f.Close()
			l.f = nil
			return fmt.Errorf("audit log %s: %w", l.path, err)
		}
	}
	return nil
}

// catchUp makes f the file at FILE and seq and hash those of its last
// record: another process (or Log) may have appended or rotated since this
// Log last wrote, or the Log is new. l.mu and the file lock are held.
func (l *Log) catchUp() error {
	st, err := os.Lstat(l.path)
	switch {
	case l.f == nil || errors.Is(err, fs.ErrNotExist) || (err == nil && !os.SameFile(st, l.fst)):
		if err := l.open(); err != nil {
			return err
		}
	case err != nil:
		return fmt.Errorf("audit log %s: %w", l.path, err)
	}
	cur, err := l.f.Stat()
	if err != nil {
		return fmt.Errorf("audit log %s: %w", l.path, err)
	}
	if l.known && cur.Size() == l.end {
		return nil
	}
	return l.resume(cur.Size())
}

// resume reads where the chain stands from FILE, of size size: its last
// record, or, when FILE is empty, FILE.1's. A torn last line is set aside
// first. The last record must be one this Log's key verifies.
func (l *Log) resume(size int64) error {
	l.known = false
	if size > 0 {
		last, err := readByte(l.f, size-1)
		if err != nil {
			return err
		}
		if last != '\n' {
			if size, err = l.setAsideTorn(size); err != nil {
				return err
			}
		}
	}
	l.seq, l.hash = 0, ""
	switch {
	case size > 0:
		if err := l.resumeFrom(l.f, l.path, size); err != nil {
			return err
		}
	default:
		// A new FILE, or one a rotation left empty: the chain goes on
		// from FILE.1, when there is one.
		prev := l.path + ".1"
		f, err := safefs.OpenFile(prev, os.O_RDONLY, 0)
		if err == nil {
			defer f.Close()
			var st fs.FileInfo
			if st, err = f.Stat(); err == nil && st.Size() > 0 {
				err = l.resumeFrom(f, prev, st.Size())
			}
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	l.end, l.known = size, true
	return nil
}

// resumeFrom sets seq and hash from the last line of f (named name, of
// size size, ending with a newline).
func (l *Log) resumeFrom(f *os.File, name string, size int64) error {
	line, start, err := lastLine(f, size)
	if err != nil {
		return fmt.Errorf("audit log %s: %w", name, err)
	}
	rec, err := decodeRecord(line)
	if err != nil {
		return &ChainError{File: name, Line: lineNumber(f, start), Reason: ReasonMalformed, Detail: "cannot resume the chain from the last record: " + err.Error()}
	}
	if sum(l.key, rec.prevHash, rec.body) != rec.hash {
		return &ChainError{File: name, Line: lineNumber(f, start), Seq: rec.seq, Reason: ReasonHash,
			Detail: "cannot resume the chain: the last record's hash does not match (it was changed, or written with another key)"}
	}
	l.seq, l.hash = rec.seq, rec.hash
	return nil
}

// setAsideTorn copies the bytes after FILE's last newline to
// FILE.torn-<unix ms> and cuts them off. It returns the new size.
func (l *Log) setAsideTorn(size int64) (int64, error) {
	cut, err := lastNewlineEnd(l.f, size)
	if err != nil {
		return 0, fmt.Errorf("audit log %s: %w", l.path, err)
	}
	torn := make([]byte, size-cut)
	if _, err := l.f.ReadAt(torn, cut); err != nil {
		return 0, fmt.Errorf("audit log %s: %w", l.path, err)
	}
	aside := l.path + ".torn-" + strconv.FormatInt(l.now().UnixMilli(), 10)
	f, err := safefs.OpenFile(aside, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
	if err != nil {
		return 0, fmt.Errorf("audit log %s: set the torn last line aside: %w", l.path, err)
	}
	_, err = f.Write(torn)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("audit log %s: set the torn last line aside: %w", l.path, err)
	}
	if err := l.f.Truncate(cut); err != nil {
		return 0, fmt.Errorf("audit log %s: cut the torn last line: %w", l.path, err)
	}
	if err := l.f.Sync(); err != nil {
		return 0, fmt.Errorf("audit log %s: %w", l.path, err)
	}
	return cut, nil
}

// rotate renames FILE to FILE.1, FILE.1 to FILE.2 and so on, removing
// those numbered MaxFiles-1 and up, and begins a new FILE.
func (l *Log) rotate() error {
	dir, base := filepath.Dir(l.path), filepath.Base(l.path)
	old, err := rotated(dir, base)
	if err != nil {
		return fmt.Errorf("audit log %s: rotate: %w", l.path, err)
	}
	for i := len(old) - 1; i >= 0; i-- { // highest number first
		n := old[i]
		from := filepath.Join(dir, base+"."+strconv.Itoa(n))
		if n+1 >= l.maxFiles {
			err = os.Remove(from)
		} else {
			err = os.Rename(from, filepath.Join(dir, base+"."+strconv.Itoa(n+1)))
		}
		if err != nil {
			return fmt.Errorf("audit log %s: rotate: %w", l.path, err)
		}
	}
	if l.maxFiles > 1 {
		err = os.Rename(l.path, l.path+".1")
	} else {
		err = os.Remove(l.path)
	}
	if err != nil {
		return fmt.Errorf("audit log %s: rotate: %w", l.path, err)
	}
	if err := l.open(); err != nil { // which syncs the directory, renames and all
		return err
	}
	l.end, l.known = 0, true // seq and hash go on
	return nil
}

// Err returns the first error an Append returned, or nil.
func (l *Log) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// Close closes the file. It returns the first error an Append returned,
// if any, else the error of closing. Later Appends return [ErrClosed].
// Closing a nil Log (what a failed Open returns) does nothing.
func (l *Log) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return l.err
	}
	l.closed = true
	var cerr error
	if l.f != nil {
		cerr = l.f.Close()
		l.f = nil
	}
	l.lock.Close()
	if l.err != nil {
		return l.err
	}
	if cerr != nil {
		return fmt.Errorf("audit log %s: %w", l.path, cerr)
	}
	return nil
}

// readByte returns the byte of f at off.
func readByte(f *os.File, off int64) (byte, error) {
	var b [1]byte
	if _, err := f.ReadAt(b[:], off); err != nil {
		return 0, fmt.Errorf("audit log %s: %w", f.Name(), err)
	}
	return b[0], nil
}

// tailChunk is how much lastLine and lastNewlineEnd read at a time,
// backwards from the end.
const tailChunk = 64 << 10

// lastNewlineEnd returns the offset after the last newline in the first
// size bytes of f, or 0 when there is none.
func lastNewlineEnd(f *os.File, size int64) (int64, error) {
	buf := make([]byte, tailChunk)
	for end := size; end > 0; {
		start := max(0, end-tailChunk)
		b := buf[:end-start]
		if _, err := f.ReadAt(b, start); err != nil && err != io.EOF {
			return 0, err
		}
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return 0, nil
}

// lastLine returns the last line of the first size bytes of f, which end
// with a newline, without it, and the offset where it starts.
func lastLine(f *os.File, size int64) ([]byte, int64, error) {
	start, err := lastNewlineEnd(f, size-1)
	if err != nil {
		return nil, 0, err
	}
	line := make([]byte, size-1-start)
	if _, err := f.ReadAt(line, start); err != nil && err != io.EOF {
		return nil, 0, err
	}
	return line, start, nil
}

// lineNumber returns the 1-based number of the line of f starting at off,
// or 0 when it cannot be read.
func lineNumber(f *os.File, off int64) int {
	n := 1
	buf := make([]byte, tailChunk)
	for pos := int64(0); pos < off; {
		b := buf[:min(int64(len(buf)), off-pos)]
		k, err := f.ReadAt(b, pos)
		n += bytes.Count(b[:k], []byte{'\n'})
		pos += int64(k)
		if err != nil && k == 0 {
			return 0
		}
	}
	return n
}
