package filelock

import (
	"io/fs"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A heldDir is a lock directory its holder keeps open: while it is open,
// the directory keeps its inode number even once removed, so no newer
// lock directory can get that number, and the holder stamps it through
// the descriptor, whatever its name then is. The zero heldDir is closed.
type heldDir struct {
	fd   int
	open bool
}

// stampsHeld reports that a stamp lands on the held directory wherever it
// is, never on whatever is at its lock path (see heldDir.stamp).
const stampsHeld = true

// openDir opens the directory at path (not a symbolic link) to keep.
func openDir(path string) (heldDir, error) {
	for {
		fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return heldDir{}, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return heldDir{fd: fd, open: true}, nil
	}
}

// openDirAt opens the directory name (not a symbolic link) of the open
// directory dirfd to keep; path names it in errors.
func openDirAt(dirfd int, name, path string) (heldDir, error) {
	for {
		fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return heldDir{}, &fs.PathError{Op: "openat", Path: path, Err: err}
		}
		return heldDir{fd: fd, open: true}, nil
	}
}

// describe returns the directory's description; path names it in it and
// in errors.
func (d heldDir) describe(path string) (fs.FileInfo, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Fstat(d.fd, &st)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "fstat", Path: path, Err: err}
		}
		return dirInfo{name: path, st: st}, nil
	}
}

// stamp sets the directory's modification time to now and returns its
// description. The stamp lands on this directory, never on whatever is at
// its lock path by then.
func (d heldDir) stamp(path string) (fs.FileInfo, error) {
	// utimensat with no path name stamps the descriptor's own file (what
	// futimens does); with no times it stamps the current time.
	for {
		_, _, errno := unix.Syscall6(unix.SYS_UTIMENSAT, uintptr(d.fd), 0, 0, 0, 0, 0)
		if errno == unix.EINTR {
			continue
		}
		if errno != 0 {
			return nil, &fs.PathError{Op: "utimensat", Path: path, Err: errno}
		}
		return d.describe(path)
	}
}

// close closes the directory; it may be called on a closed one.
func (d *heldDir) close() {
	if d.open {
		_ = unix.Close(d.fd)
		d.open = false
	}
}

// dirInfo describes a held directory as the os package's lstat does:
// sameFile and inode read its Sys.
type dirInfo struct {
	name string
	st   syscall.Stat_t
}

func (i dirInfo) Name() string       { return i.name }
func (i dirInfo) Size() int64        { return i.st.Size }
func (i dirInfo) Mode() fs.FileMode  { return fs.ModeDir | fs.FileMode(i.st.Mode&0o777) }
func (i dirInfo) ModTime() time.Time { return time.Unix(i.st.Mtim.Unix()) }
func (i dirInfo) IsDir() bool        { return true }
func (i dirInfo) Sys() any           { return &i.st }
