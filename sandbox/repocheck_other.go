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

// memoFS reports false: elsewhere the check remembers nothing.
func memoFS(dirHandle) (uint64, bool) { return 0, false }

// A dirHandle is a directory the walk holds open.
type dirHandle struct{ f *os.File }

// handleOf returns a handle on the directory f, which the caller still
// closes.
func handleOf(f *os.File) (dirHandle, error) {
	r, err := os.OpenRoot(f.Name())
	if err != nil {
		return dirHandle{}, err
	}
	defer r.Close()
	g, err := r.OpenFile(".", checkDirFlags, 0)
	return dirHandle{g}, err
}

// openDirAt opens the directory name of d, not following a link.
func (d dirHandle) openDirAt(name string) (dirHandle, error) {
	r, err := os.OpenRoot(d.f.Name())
	if err != nil {
		return dirHandle{}, err
	}
	defer r.Close()
	f, err := r.OpenFile(name, checkDirFlags, 0)
	return dirHandle{f}, err
}

// close closes d.
func (d dirHandle) close() { d.f.Close() }

// readDir reads the entries of d until budget reports too many.
func (d dirHandle) readDir(budget func(n int) bool) []fs.DirEntry { return readEntries(d.f, budget) }

// stamp reports false: elsewhere the check remembers nothing.
func (d dirHandle) stamp() (dirStamp, bool) { return dirStamp{}, false }

// stampAt fails: elsewhere the check remembers nothing.
func (d dirHandle) stampAt(string) (dirStamp, error) { return dirStamp{}, fs.ErrInvalid }
