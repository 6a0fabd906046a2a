//go:build unix && !safefs_portable

package safefs

import (
	"context"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Lock takes the cross-process lock of rel (the directory <rel>.lock next to
// it); rel "" or "." locks the anchored directory itself (<dir>.lock beside
// it). See filelock.Acquire.
//
// The lock is taken relative to a handle on the directory it is in, proven
// as every other operation's handle is (see root.go): for rel in the
// anchored directory, the directory itself; for rel below it, its
// directory opened through that handle; for the anchored directory itself,
// its parent, opened by path and proven by finding the anchored directory
// (device and inode) under its name there. The lock keeps that directory
// open until it is released (filelock.AcquireAt), and refreshes, checks,
// moves and releases itself relative to it: a lock acts in its directory
// for as long as it is held, so a link swapped in along the path after the
// lock was taken cannot lead its refresh or release elsewhere, as proving
// the path again before each act would let it between the proof and the
// act. It costs the lock one more descriptor while held.
func (d *Dir) Lock(ctx context.Context, rel string, opts filelock.Options) (*filelock.Lock, error) {
	dir, name, err := d.lockDir(rel)
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	return filelock.AcquireAt(ctx, dir, name, opts)
}

// lockDir opens the directory that holds the lock of rel, proven (see
// Lock), and returns it with rel's name in it.
func (d *Dir) lockDir(rel string) (*os.File, string, error) {
	parts, err := d.relParts(rel)
	if err != nil {
		return nil, "", err
	}
	if len(parts) > 1 {
		o, err := d.open(rel, true)
		if err != nil {
			return nil, "", err
		}
		defer o.close()
		f, name, err := parentFile(o.r, o.rel)
		if err != nil {
			// As filelock reports a lock directory it cannot make.
			return nil, "", (&storage.Error{Op: "lock", File: filelock.Path(o.path), Message: "cannot create lock"}).WithCause(err)
		}
		return f, name, nil
	}
	if d.path != d.real {
		if err := d.Check(); err != nil { // as root does
			return nil, "", err
		}
	}
	if len(parts) == 1 {
		f, err := openDirFile(d.real)
		if err != nil || !d.is(f) {
			if f != nil {
				f.Close()
			}
			return nil, "", d.changedError()
		}
		return f, parts[0], nil
	}
	parent, name := filepath.Dir(d.real), filepath.Base(d.real)
	f, err := openDirFile(parent)
	if err != nil {
		return nil, "", d.changedError()
	}
	if !d.holds(f, name) {
		f.Close()
		return nil, "", d.changedError()
	}
	return f, name, nil
}

// openDirFile opens the directory path for a lock to be taken in (see
// filelock.AcquireAt): with open(2) and os.NewFile, which neither tries
// to register a directory with the poller nor sets it non-blocking, as
// os.OpenFile does, three system calls fewer on the store's hot path.
func openDirFile(path string) (*os.File, error) {
	for {
		fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}

// is reports whether the open directory f is the anchored directory
// (device and inode).
func (d *Dir) is(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && os.SameFile(st, d.st)
}

// holds reports whether the entry name of the open directory f is the
// anchored directory (device and inode), not following a symlink.
func (d *Dir) holds(f *os.File, name string) bool {
	want, ok := d.st.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var st unix.Stat_t
	cerr := rc.Control(func(fd uintptr) {
		err = unix.Fstatat(int(fd), name, &st, unix.AT_SYMLINK_NOFOLLOW)
	})
	return cerr == nil && err == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR &&
		uint64(st.Dev) == uint64(want.Dev) && uint64(st.Ino) == uint64(want.Ino)
}
