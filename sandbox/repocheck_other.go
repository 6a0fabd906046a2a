//go:build !linux

package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// ctime returns the modification time of fi: elsewhere the check never
// runs (bubblewrap is Linux's), this only keeps the package building.
func ctime(fi fs.FileInfo) time.Time { return fi.ModTime() }

// renameNoReplace renames old to new in the directory d, failing with an
// error matching fs.ErrExist when new exists (checked first: not atomic).
func renameNoReplace(d *os.File, old, new string) error {
	if _, err := os.Lstat(filepath.Join(d.Name(), new)); err == nil {
		return fs.ErrExist
	}
	return os.Rename(filepath.Join(d.Name(), old), filepath.Join(d.Name(), new))
}

// openDirAt opens the directory name of the open directory parent, not
// following a link.
func openDirAt(parent *os.File, name string) (*os.File, error) {
	r, err := os.OpenRoot(parent.Name())
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.OpenFile(name, checkDirFlags, 0)
}
