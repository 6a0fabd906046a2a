//go:build !unix || safefs_portable

package safefs

import (
	"errors"
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
// What the open itself does cannot wait for the second look, so nothing
// it does may follow a link planted after the first: a file is created
// only with O_EXCL, which fails on any entry at the name, a symlink
// included (O_CREATE without O_EXCL opens an existing file without
// O_CREATE, and creates a missing one with O_EXCL), and O_TRUNC truncates
// the file only once both looks have passed.
//
// Unix systems use this fallback only when built with the tag
// safefs_portable, so that its tests run on Linux too.
func OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return openFile(name, flag, perm, nil)
}

// openFile is OpenFile; between, when set, runs between the first look at
// name and each open (a test plants a link there).
func openFile(name string, flag int, perm fs.FileMode, between func()) (*os.File, error) {
	if flag&os.O_CREATE == 0 || flag&os.O_EXCL != 0 {
		return openChecked(name, flag, perm, between)
	}
	// Open or create: each attempt fails at once if another process
	// creates or removes the file between the two opens, so a few rounds
	// settle any race that is not an attack.
	for range 8 {
		f, err := openChecked(name, flag&^os.O_CREATE, perm, between)
		if !errors.Is(err, fs.ErrNotExist) {
			return f, err
		}
		f, err = openChecked(name, flag|os.O_EXCL, perm, between)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("created and removed by another process while being opened")}
}

// openChecked opens name with flag, looking at it before and after the
// open (see OpenFile); O_TRUNC is applied after the second look.
func openChecked(name string, flag int, perm fs.FileMode, between func()) (*os.File, error) {
	if err := plainEntry(name, true); err != nil {
		return nil, err
	}
	if between != nil {
		between()
	}
	trunc := flag&os.O_TRUNC != 0
	f, err := os.OpenFile(name, flag&^os.O_TRUNC, perm)
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
	if trunc && opened.Mode().IsRegular() {
		if err := f.Truncate(0); err != nil {
			f.Close()
			return nil, err
		}
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

// touchIn sets the times of rel, below r, refusing a symlink or special
// file found there first. os.Root's Chtimes follows a symlink swapped in
// between, but only to a name inside r.
func touchIn(r *os.Root, rel string, t time.Time) error {
	st, err := r.Lstat(rel)
	switch {
	case err != nil:
		return err
	case linkLike(st.Mode()):
		return &fs.PathError{Op: "open", Path: rel, Err: syscall.ELOOP}
	case !st.Mode().IsRegular() && !st.IsDir():
		return &fs.PathError{Op: "open", Path: rel, Err: ErrNotRegular}
	}
	return r.Chtimes(rel, t, t)
}
