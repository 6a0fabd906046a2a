//go:build !linux

package filelock

import (
	"io/fs"
	"os"
	"time"
)

// A heldDir is a lock directory its holder keeps open. Here it is stamped
// by its path (see stamp), so a holder stalled between checking and
// stamping its lock may stamp a lock that took its place.
type heldDir struct{ f *os.File }

// stampsHeld reports that a stamp lands on whatever is at the lock path:
// a caller looks there first (see holdIfPlaced).
const stampsHeld = false

// openDir opens the directory at path to keep.
func openDir(path string) (heldDir, error) {
	f, err := os.Open(path)
	return heldDir{f: f}, err
}

// describe returns the directory's description.
func (d heldDir) describe(string) (fs.FileInfo, error) { return d.f.Stat() }

// stamp sets the modification time of the lock directory at path to now
// and returns the held directory's description.
func (d heldDir) stamp(path string) (fs.FileInfo, error) {
	now := time.Now()
	if err := os.Chtimes(path, now, now); err != nil {
		return nil, err
	}
	return d.f.Stat()
}

// close closes the directory; it may be called on a closed one.
func (d *heldDir) close() {
	if d.f != nil {
		d.f.Close()
		d.f = nil
	}
}
