//go:build unix

package filelock

import (
	"io/fs"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// MoveAt is Move for a holder that keeps the directory of the lock (and of
// target, which must be the same) open as dirfd: the lock directory is
// looked at, renamed and looked at again by its name relative to dirfd,
// with no path resolved component by component, and the directory being
// moved away or replaced (by a symlink, say) meanwhile does not change
// where the lock goes. dirfd must stay open for the call.
//
// The lock then lies where dirfd is, which the holder reads target from;
// refreshing, Check and Release go on by path, as after Move: should the
// directory no longer be at its path, they find the lock gone (it is
// compromised, as if taken over), and the directory left where dirfd is
// keeps it until it is stale. Where no-replace renames are not available,
// MoveAt returns an error matching errors.ErrUnsupported, as Move does.
func (l *Lock) MoveAt(dirfd int, target string) error {
	return l.move(target, dirEntries{fd: dirfd})
}

// dirEntries looks at and renames the entries of the open directory fd by
// their names (see Lock.MoveAt).
type dirEntries struct{ fd int }

func (d dirEntries) describe(path string) (entry, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(d.fd, filepath.Base(path), &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return entry{}, &fs.PathError{Op: "fstatat", Path: path, Err: err}
		}
		return entry{dir: st.Mode&unix.S_IFMT == unix.S_IFDIR, ino: uint64(st.Ino), mtime: time.Unix(st.Mtim.Unix())}, nil
	}
}

func (d dirEntries) renameNoReplace(from, to string) error {
	return renameNoReplaceAt(d.fd, filepath.Base(from), filepath.Base(to))
}
