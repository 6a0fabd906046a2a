package retention

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/storage"
)

// checkEvery is how many entries of a directory are removed between two
// checks that the sweep still holds the lock of the entry being removed.
const checkEvery = 64

// errChanged reports a directory replaced while it was being removed.
var errChanged = errors.New("changed during its removal")

// entryLock is the lock of an entry held for its removal.
type entryLock struct {
	l   *filelock.Lock // nil when the name is too long to have a lock
	dir *os.File       // the entry's directory, which the lock's path names where it is taken by path; nil where the lock holds it
}

// check reports whether the lock is still held.
func (e *entryLock) check() error {
	if e.l == nil {
		return nil
	}
	return e.l.Check()
}

// release releases the lock, removing its directory only if it is still
// the sweep's own.
func (e *entryLock) release() {
	if e.l != nil {
		_ = e.l.Release()
	}
	if e.dir != nil {
		_ = e.dir.Close()
	}
}

// lock takes the lock of d/name for its removal, through internal/filelock
// as the stores take it: the directory <name>.lock, refreshed while held,
// so that a store waits until the entry is gone instead of writing into it
// while it is removed (removing a directory takes many system calls) and
// reporting success. A stale lock (left by a killed store or sweep) is
// taken over; an entry whose lock is live is skipped. Where the lock is
// taken (through a handle on d on Unix systems) is acquire's.
//
// path is the entry's path, which names it in errors; skips are reported
// under at (the entry's path, or its lock's when the lock is removed).
func (s *sweeper) lock(d *os.Root, name, path, at string) (*entryLock, bool) {
	if liveLock(d, name) {
		s.skip(at, SkipLocked, nil)
		return nil, false
	}
	// As the stores take theirs (refreshed while held, a stale one taken
	// over), but with no wait: an entry locked meanwhile is skipped.
	l, f, named, err := s.acquire(d, name)
	switch {
	case errors.Is(err, errChanged):
		s.skip(at, SkipChanged, nil)
		return nil, false
	case err == nil:
	case errors.Is(err, syscall.ENAMETOOLONG):
		return &entryLock{dir: f}, true // no store can lock it either
	case liveLock(d, name):
		closeDir(f)
		s.skip(at, SkipLocked, nil)
		return nil, false
	default:
		closeDir(f)
		// The error names the lock where it was taken (named): name it
		// by the path the user knows.
		s.skip(at, SkipError, renamePaths(err, named, filepath.Dir(path)))
		return nil, false
	}
	e := &entryLock{l: l, dir: f}
	if !lockedIn(l, d, name) {
		e.release()
		s.skip(at, SkipChanged, nil)
		return nil, false
	}
	return e, true
}

// closeDir closes f unless it is nil.
func closeDir(f *os.File) {
	if f != nil {
		_ = f.Close()
	}
}

// renamePaths returns err with every path in it under the directory from
// named under the directory to instead: in the *storage.Error and in
// the *fs.PathError or *os.LinkError that it wraps. Other errors are
// returned as they are.
func renamePaths(err error, from, to string) error {
	swap := func(p string) string {
		if rest, ok := strings.CutPrefix(p, from); ok && (rest == "" || rest[0] == filepath.Separator) {
			return to + rest
		}
		return p
	}
	var se *storage.Error
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &se):
		c := se.At(swap(se.File), "")
		if cause := se.Unwrap(); cause != nil {
			c = c.WithCause(renamePaths(cause, from, to))
		}
		return c
	case errors.As(err, &pe):
		c := *pe
		c.Path = swap(c.Path)
		return &c
	case errors.As(err, &le):
		c := *le
		c.Old, c.New = swap(c.Old), swap(c.New)
		return &c
	}
	return err
}

// liveLock reports whether d/name is locked by a live lock: <name>.lock
// exists and is not a lock directory left unrefreshed for the stale
// period, which the sweep takes over as a store would. When that cannot
// be told, or <name>.lock is not a directory, the entry counts as locked.
func liveLock(d *os.Root, name string) bool {
	st, err := d.Lstat(filelock.Name(name))
	switch {
	case err != nil:
		return !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENAMETOOLONG)
	case !st.IsDir():
		return true
	}
	return time.Since(st.ModTime()) <= filelock.DefaultStale
}

// removeTree removes the directory parent/name, which was st when
// inspected, and everything in it, by single names in directories opened
// as roots and checked to be what was inspected, so that no symlink is
// ever followed. It stops as soon as check fails: the entry's lock was
// taken over or removed by another process.
func removeTree(parent *os.Root, name string, st fs.FileInfo, check func() error) error {
	r, err := parent.OpenRoot(name)
	if err != nil {
		return err
	}
	err = removeIn(r, st, check)
	_ = r.Close()
	if err != nil {
		return err
	}
	if err := check(); err != nil {
		return err
	}
	if err := parent.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// removeIn removes everything in r, which must be the directory st.
func removeIn(r *os.Root, st fs.FileInfo, check func() error) error {
	if !sameDir(r, st) {
		return errChanged
	}
	names, err := list(r, ".")
	if err != nil {
		return err
	}
	for i, name := range names {
		if i%checkEvery == checkEvery-1 {
			if err := check(); err != nil {
				return err
			}
		}
		cst, err := r.Lstat(name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return err
		case cst.IsDir():
			err = removeTree(r, name, cst, check)
		default:
			err = r.Remove(name)
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}
