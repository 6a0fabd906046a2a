//go:build (linux || darwin || freebsd) && !safefs_portable

package safefs

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// holeBytes walks the holes of f with lseek's SEEK_HOLE and SEEK_DATA.
func holeBytes(f *os.File, size, limit int64) (int64, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var total int64
	var serr error
	err = rc.Control(func(fd uintptr) {
		total, serr = FdHoleBytes(int(fd), size, limit)
	})
	if err != nil {
		return 0, err
	}
	return total, serr
}

// FdHoleBytes is [HoleBytes] of the open file descriptor fd: one pair of
// lseek calls (SEEK_HOLE, SEEK_DATA) per hole, however large. The
// descriptor's offset is left where it was.
func FdHoleBytes(fd int, size, limit int64) (int64, error) {
	cur, err := unix.Seek(fd, 0, unix.SEEK_CUR)
	if err != nil {
		return 0, err
	}
	defer unix.Seek(fd, cur, unix.SEEK_SET)
	var total int64
	for off := int64(0); off < size && total <= limit; {
		hole, err := unix.Seek(fd, off, unix.SEEK_HOLE)
		switch {
		case errors.Is(err, unix.EINVAL), errors.Is(err, unix.EOPNOTSUPP):
			return 0, nil // the file system cannot tell: no holes
		case errors.Is(err, unix.ENXIO):
			return total, nil // the file shrank below off
		case err != nil:
			return 0, err
		}
		if hole >= size {
			break
		}
		data, err := unix.Seek(fd, hole, unix.SEEK_DATA)
		switch {
		case errors.Is(err, unix.ENXIO):
			data = size // a hole to the end
		case err != nil:
			return 0, err
		}
		data = min(data, size)
		if data <= hole {
			break // the file changed under the walk
		}
		total += data - hole
		off = data
	}
	return total, nil
}
