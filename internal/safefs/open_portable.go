//go:build !unix || safefs_portable

package safefs

import (
	"io/fs"
	"os"
	"syscall"
	"time"
)

// OpenFile opens name as os.OpenFile does, but refuses a symlink as its
// last component (an error matching syscall.ELOOP) and any file that is
// neither regular nor a directory. Where the system has no O_NOFOLLOW
// (Windows), the check is by name: name is looked at before the open and
// again after it, and the open is refused unless both looks and the open
// file are one regular file or directory. A link swapped in and out again
// between the looks goes unseen; on Windows creating a symlink needs a
// privilege or developer mode, which an agent's commands rarely hold.
//
// Unix systems use this fallback only when built with the tag
// safefs_portable, so that its tests run on Linux too.
func OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	if err := plainEntry(name, true); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	opened, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	after, err := os.Lstat(name)
	if err != nil {
		f.Close()
		return nil, err
	}
	if linkLike(after.Mode()) || !os.SameFile(opened, after) {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.ELOOP}
	}
	return f, nil
}

// plainEntry refuses name when it is a symlink (ELOOP) or a file that is
// neither regular nor a directory (a FIFO would block the open). A missing
// name passes when missingOK.
func plainEntry(name string, missingOK bool) error {
	st, err := os.Lstat(name)
	switch {
	case err != nil && missingOK && os.IsNotExist(err):
		return nil
	case err != nil:
		return err
	case linkLike(st.Mode()):
		return &fs.PathError{Op: "open", Path: name, Err: syscall.ELOOP}
	case !st.Mode().IsRegular() && !st.IsDir():
		return &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	return nil
}

// touch sets the times of p, refusing a symlink by name first.
func touch(p string, t time.Time) error {
	if err := plainEntry(p, false); err != nil {
		return err
	}
	return os.Chtimes(p, t, t)
}
