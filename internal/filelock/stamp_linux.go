package filelock

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// openDir opens the directory at path for its holder to keep: while it is
// open, the directory keeps its inode number even once removed, so no
// newer lock directory can get that number, and the holder stamps it
// through the descriptor, whatever its name then is. It returns the
// directory's description.
func openDir(path string) (*os.File, fs.FileInfo, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

// stampDir sets the modification time of the open directory f to now and
// returns its description. The stamp lands on f's directory, never on
// whatever is at its lock path by then (path only names it in errors).
func stampDir(f *os.File, path string) (fs.FileInfo, error) {
	// utimensat with no path name stamps the descriptor's own file (what
	// futimens does); with no times it stamps the current time.
	for {
		_, _, errno := unix.Syscall6(unix.SYS_UTIMENSAT, f.Fd(), 0, 0, 0, 0, 0)
		if errno == unix.EINTR {
			continue
		}
		if errno != 0 {
			return nil, &fs.PathError{Op: "utimensat", Path: path, Err: errno}
		}
		return f.Stat()
	}
}
