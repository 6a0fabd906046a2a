//go:build unix && !migrate_portable

package migrate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/filestamp"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

// dirHandle is an open directory of the source or the destination. The
// files of a directory holding many records (session logs, spill files) are
// opened relative to it with one openat each, instead of resolving and
// checking every component of their path again: the components were checked
// when the directory was opened, the handle keeps pointing at that
// directory whatever happens to its path, and the file's own name is a single
// component opened with O_NOFOLLOW.
type dirHandle struct {
	f    *os.File
	path string // the directory, for errors
}

// openDirHandle opens the directory rel of d (the anchored directory
// itself for "" or "."), named path in errors, through d's proven handle
// (safefs.Dir.OpenFile): no component of its path is looked up by path
// again, and no symlink on the way or in its place is followed. d's path
// is checked first (safefs.Dir.Check), so that a directory moved away and
// replaced by a link to it is refused as changed, as before, although the
// handle would act on the directory anchored.
func openDirHandle(d *safefs.Dir, rel, path string) (*dirHandle, error) {
	if rel == "" {
		rel = "."
	}
	if err := d.Check(); err != nil {
		return nil, err
	}
	f, err := d.OpenFile(rel, os.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		var se *storage.Error
		switch {
		case errors.As(err, &se):
			return nil, err
		case errors.Is(err, syscall.ELOOP):
			return nil, fmt.Errorf("%w: %s", ErrSymlink, path)
		}
		return nil, readError(path, err)
	}
	return &dirHandle{f: f, path: path}, nil
}

// openRead opens name in the directory for reading, never following a
// symlink, never waiting on a FIFO (O_NONBLOCK, which changes nothing for a
// regular file) and never becoming a terminal's process (O_NOCTTY).
func (h *dirHandle) openRead(name string) (*fdFile, error) {
	return openat(h, name, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY, 0)
}

// lstat returns the status of name in the directory, without following a
// symlink.
func (h *dirHandle) lstat(name string) (unix.Stat_t, error) {
	var st unix.Stat_t
	rc, err := h.f.SyscallConn()
	if err != nil {
		return st, err
	}
	cerr := rc.Control(func(dirfd uintptr) {
		err = ignoringEINTR(func() error { return unix.Fstatat(int(dirfd), name, &st, unix.AT_SYMLINK_NOFOLLOW) })
	})
	if cerr != nil {
		return st, cerr
	}
	return st, err
}

// isRegular reports whether name in the directory is a regular file,
// without following a symlink.
func (h *dirHandle) isRegular(name string) bool {
	st, err := h.lstat(name)
	return err == nil && st.Mode&unix.S_IFMT == unix.S_IFREG
}

// stamp returns the state of name in the directory (device, inode, size,
// modification and change times, as filestamp.Of of an lstat gives them),
// without following a symlink.
func (h *dirHandle) stamp(name string) (filestamp.Stamp, error) {
	st, err := h.lstat(name)
	if err != nil {
		return filestamp.Stamp{}, err
	}
	return stampOf(&st), nil
}

// size returns the size of the file name of the directory, without
// following a symlink.
func (h *dirHandle) size(name string) (int64, error) {
	st, err := h.lstat(name)
	if err != nil {
		return 0, sizeError(filepath.Join(h.path, name), err)
	}
	return st.Size, nil
}

// create creates the file name in the directory for reading and writing:
// exclusively, so that nothing is ever replaced, mode 0600, never following
// a symlink.
func (h *dirHandle) create(name string) (*fdFile, error) {
	return openat(h, name, unix.O_RDWR|unix.O_CREAT|unix.O_EXCL, safefs.FileMode)
}

// setTime gives name in the directory the modification (and access) time
// mtime, without following a symlink; path names it for errors. A nil h
// (a dry run) does nothing.
func (h *dirHandle) setTime(name, path string, mtime time.Time) error {
	if h == nil {
		return nil
	}
	rc, err := h.f.SyscallConn()
	if err != nil {
		return timeError(path, err)
	}
	var uerr error
	if err := rc.Control(func(fd uintptr) { uerr = utimes(int(fd), name, mtime) }); err != nil {
		return timeError(path, err)
	}
	return timeError(path, uerr)
}

// openat opens name relative to h with O_NOFOLLOW and O_CLOEXEC added to
// flags (see openFileAt).
func openat(h *dirHandle, name string, flags int, mode uint32) (*fdFile, error) {
	rc, err := h.f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var f *fdFile
	cerr := rc.Control(func(dirfd uintptr) {
		f, err = openFileAt(int(dirfd), name, flags, mode)
	})
	if cerr != nil {
		return nil, cerr
	}
	return f, err
}

// moveLock moves the held lock l, whose lock directory is in this
// directory (d, as anchored), to target, a file of it (see
// filelock.Lock.Move): relative to the open directory
// (filelock.Lock.MoveAt), whatever happened to its path since it was
// checked, with one name looked up per system call rather than every
// component of the path, and no look at d's path.
func (h *dirHandle) moveLock(_ *safefs.Dir, l *filelock.Lock, target string) error {
	rc, err := h.f.SyscallConn()
	if err != nil {
		return err
	}
	if cerr := rc.Control(func(dirfd uintptr) { err = l.MoveAt(int(dirfd), target) }); cerr != nil {
		return cerr
	}
	return err
}

func (h *dirHandle) close() {
	if h != nil {
		_ = h.f.Close()
	}
}
