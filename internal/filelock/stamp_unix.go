//go:build unix && !linux

package filelock

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// A heldDir is a lock directory its holder keeps open: while it is open,
// the directory keeps its inode even once removed, so no newer lock
// directory can get that inode number, and the holder stamps it through
// the descriptor (futimes), whatever its name then is. The zero heldDir
// is closed.
type heldDir struct{ f *os.File }

// stampsHeld reports that a stamp lands on the held directory wherever it
// is, never on whatever is at its lock path (see heldDir.stamp).
const stampsHeld = true

// openDir opens the directory at path to keep.
func openDir(path string) (heldDir, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW, 0)
	if err != nil {
		return heldDir{}, err
	}
	return heldDir{f: f}, nil
}

// openDirAt opens the directory name (not a symbolic link) of the open
// directory dirfd to keep; path names it.
func openDirAt(dirfd int, name, path string) (heldDir, error) {
	for {
		fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return heldDir{}, &fs.PathError{Op: "openat", Path: path, Err: err}
		}
		return heldDir{f: os.NewFile(uintptr(fd), path)}, nil
	}
}

// describe returns the directory's description.
func (d heldDir) describe(string) (fs.FileInfo, error) { return d.f.Stat() }

// stamp sets the directory's modification time to now and returns its
// description.
func (d heldDir) stamp(path string) (fs.FileInfo, error) {
	if err := unix.Futimes(int(d.f.Fd()), nil); err != nil {
		return nil, &fs.PathError{Op: "futimes", Path: path, Err: err}
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
