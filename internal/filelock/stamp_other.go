//go:build !unix

package filelock

import (
	"io/fs"
	"os"
	"time"
)

// A heldDir stands for a lock directory its holder would keep open. Here
// nothing is kept open (Windows could then neither stamp nor remove the
// directory), and the directory is stamped and described by its path, so
// a holder stalled between checking and stamping its lock may stamp a lock
// that took its place.
type heldDir struct{}

// stampsHeld reports that a stamp lands on whatever is at the lock path:
// a caller looks there first (see holdIfPlaced).
const stampsHeld = false

// openDir checks that a directory is at path.
func openDir(path string) (heldDir, error) {
	st, err := os.Lstat(path)
	if err == nil && !st.IsDir() {
		err = &fs.PathError{Op: "open", Path: path, Err: fs.ErrInvalid}
	}
	return heldDir{}, err
}

// describe returns the description of the directory at path.
func (heldDir) describe(path string) (fs.FileInfo, error) { return os.Lstat(path) }

// stamp sets the modification time of the directory at path to now and
// returns its description.
func (heldDir) stamp(path string) (fs.FileInfo, error) {
	now := time.Now()
	if err := os.Chtimes(path, now, now); err != nil {
		return nil, err
	}
	return os.Lstat(path)
}

// close does nothing: nothing is kept open.
func (*heldDir) close() {}
