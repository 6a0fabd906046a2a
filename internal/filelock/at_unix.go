//go:build unix

package filelock

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/lite-agent/lite-agent-go/storage"
)

// AcquireAt is Acquire for a caller that has the directory of the target
// open as dir, name being the target's name in it: the lock directory
// (Name(name) in dir) is made, looked at, taken over, unparked, renamed,
// parked and removed by its name relative to dir (mkdirat, fstatat,
// openat with O_NOFOLLOW|O_DIRECTORY, renameat2, unlinkat), never through
// a path, so that a component of dir's path renamed or exchanged with a
// symlink, at any moment, cannot make the lock act in another directory.
//
// The lock keeps a descriptor of its own on dir (a duplicate, closed at
// Release), and refreshing, Check, Move and Release act through it too,
// wherever the directory then is: dir itself may be closed as soon as
// AcquireAt returns. The lock's Path is dir's name joined with the lock
// directory's name. Errors are Acquire's.
func AcquireAt(ctx context.Context, dir *os.File, name string, opts Options) (*Lock, error) {
	path := filepath.Join(dir.Name(), Name(name))
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') {
		return nil, &storage.Error{Op: "lock", File: path, Message: "lock target is not a name in its directory"}
	}
	rc, err := dir.SyscallConn()
	if err != nil {
		return nil, lockError(path, "cannot create lock", err)
	}
	fd := -1
	cerr := rc.Control(func(d uintptr) {
		fd, err = unix.FcntlInt(d, unix.F_DUPFD_CLOEXEC, 0)
	})
	if cerr != nil {
		err = cerr
	}
	if err != nil {
		return nil, lockError(path, "cannot create lock", &fs.PathError{Op: "dup", Path: dir.Name(), Err: err})
	}
	at := &dirEntries{fd: fd, owned: true}
	l, err := acquire(ctx, at, path, opts)
	if err != nil {
		at.close()
		return nil, err
	}
	return l, nil
}

// dirEntries looks at, makes, renames and removes the entries of the open
// directory fd by their names (the last component of each path given):
// the directory of a lock taken with AcquireAt (owned: closed at Release),
// or the caller's, for one call (Lock.MoveAt).
type dirEntries struct {
	fd    int
	owned bool
}

func (d *dirEntries) describe(path string) (entry, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(d.fd, filepath.Base(path), &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return entry{}, &fs.PathError{Op: "fstatat", Path: path, Err: err}
		}
		return entry{
			dir:   st.Mode&unix.S_IFMT == unix.S_IFDIR,
			dev:   uint64(st.Dev),
			ino:   uint64(st.Ino),
			mtime: time.Unix(st.Mtim.Unix()),
		}, nil
	}
}

func (d *dirEntries) renameNoReplace(from, to string) error {
	return renameNoReplaceAt(d.fd, filepath.Base(from), filepath.Base(to))
}

func (d *dirEntries) exchange(a, b string) error {
	return exchangeAt(d.fd, filepath.Base(a), filepath.Base(b))
}

func (d *dirEntries) rename(from, to string) error {
	err := ignoringEINTR(func() error { return unix.Renameat(d.fd, filepath.Base(from), d.fd, filepath.Base(to)) })
	if err != nil {
		return &os.LinkError{Op: "renameat", Old: from, New: to, Err: err}
	}
	return nil
}

func (d *dirEntries) mkdir(path string) error {
	err := ignoringEINTR(func() error { return unix.Mkdirat(d.fd, filepath.Base(path), lockDirMode) })
	if err != nil {
		return &fs.PathError{Op: "mkdirat", Path: path, Err: err}
	}
	return nil
}

func (d *dirEntries) removeDir(path string) error {
	err := ignoringEINTR(func() error { return unix.Unlinkat(d.fd, filepath.Base(path), unix.AT_REMOVEDIR) })
	if err != nil {
		return &fs.PathError{Op: "unlinkat", Path: path, Err: err}
	}
	return nil
}

func (d *dirEntries) openDir(path string) (heldDir, error) {
	return openDirAt(d.fd, filepath.Base(path), path)
}

func (d *dirEntries) close() {
	if d.owned && d.fd >= 0 {
		_ = unix.Close(d.fd)
		d.fd = -1
	}
}

// ignoringEINTR calls f until it fails with another error than EINTR.
func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != unix.EINTR {
			return err
		}
	}
}
