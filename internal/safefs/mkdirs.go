package safefs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// MkdirAll creates the directory rel below d and its missing parents (mode
// DirMode) through the proven handle (see [Dir.OpenFile]), each (mkdirat)
// relative to the one above it: an entry on the way that is no directory
// (a symlink among them) fails with an error matching syscall.ELOOP, and
// no link is followed out of d. It returns the directories it created,
// relative to d, outermost first, and syncs nothing: a caller that needs
// them durable syncs their parents, or the file system, itself. A
// directory that is no longer the one anchored fails with a
// *storage.Error; the system's own failure is returned as it is.
func (d *Dir) MkdirAll(rel string) ([]string, error) {
	o, err := d.open(rel, false)
	if err != nil {
		return nil, err
	}
	defer o.close()
	if o.rel == "." {
		return nil, nil
	}
	return mkdirAllIn(o.r, o.rel)
}

// mkdirAllIn creates dir, relative to r, and its missing parents, and
// returns those it created, relative to r, outermost first (see
// Dir.MkdirAll).
func mkdirAllIn(r *os.Root, dir string) ([]string, error) {
	var created []string
	cur := ""
	for _, p := range strings.Split(filepath.ToSlash(dir), "/") {
		cur = filepath.Join(cur, p)
		st, err := r.Lstat(cur)
		if err == nil {
			if !st.IsDir() {
				return created, &fs.PathError{Op: "mkdir", Path: cur, Err: syscall.ELOOP}
			}
			continue
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return created, err
		}
		if err := r.Mkdir(cur, DirMode); err != nil {
			if !errors.Is(err, fs.ErrExist) {
				return created, err
			}
			// Made meanwhile by another: it must be a directory too.
			if st, err := r.Lstat(cur); err != nil || !st.IsDir() {
				return created, &fs.PathError{Op: "mkdir", Path: cur, Err: syscall.ELOOP}
			}
			continue
		}
		created = append(created, cur)
	}
	return created, nil
}

// SyncDir flushes the directory rel below d ("" or "." for d itself),
// as [SyncDir] flushes one by its path, so that the names made in it
// survive a crash, but through the proven handle: no component of rel may
// be a symlink, and none above d is looked up again. A file system that
// cannot sync a directory is not an error; errors are *storage.Error.
func (d *Dir) SyncDir(rel string) error {
	o, err := d.open(rel, false)
	if err != nil {
		return err
	}
	defer o.close()
	return syncIn(o.r, o.rel, o.path)
}

// RemoveEmptyDir removes the directory rel below d if it is empty, through
// the proven handle (rmdir relative to its parent, opened through the
// handle): never a file, never what a link leads to, never the directory
// d itself. A missing rel is an error matching fs.ErrNotExist.
func (d *Dir) RemoveEmptyDir(rel string) error {
	o, err := d.open(rel, true)
	if err != nil {
		return err
	}
	defer o.close()
	if o.rel == "." {
		return &fs.PathError{Op: "rmdir", Path: o.path, Err: syscall.EINVAL}
	}
	return rmdirIn(o.r, o.rel)
}

// RemoveEmptyDirs removes the directories of created (absolute paths, a
// directory after its parent, as MissingDirs lists those a creation is
// about to make) innermost first, each only while it is empty, and stops
// at the first that cannot go. Each goes through a handle on its parent,
// anchored as AnchorExisting anchors it (so a parent that is a symlink, or
// a directory below a data home's projects/<hash> reached through one, is
// refused, and nothing is removed there), never by its path: a directory
// swapped for a link to another meanwhile leaves the other as it is.
func RemoveEmptyDirs(created []string) {
	for i := len(created) - 1; i >= 0; i-- {
		parent, err := AnchorExisting(filepath.Dir(created[i]))
		if err != nil || parent.RemoveEmptyDir(filepath.Base(created[i])) != nil {
			return
		}
	}
}
