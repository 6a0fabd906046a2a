//go:build unix && !migrate_portable

package migrate

import (
	"io"
	"time"

	"golang.org/x/sys/unix"

	"github.com/lite-agent/lite-agent-go/internal/filestamp"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
)

// portable reports that this build opens files by path; this one opens
// them relative to open directories.
const portable = false

// fdFile is an open regular file used through its descriptor alone. A
// migration opens two files for every log; an *os.File for each would cost
// a system call more (os.NewFile asks for the descriptor's flags) and a
// finalizer, for nothing a regular file needs. Every call retries when
// interrupted. The caller closes it.
type fdFile struct {
	fd int
	// size is the file's size when status looked, for endAt (0 before).
	size int64
}

// openFileAt opens name relative to the directory descriptor dirfd
// (unix.AT_FDCWD for a path) with O_NOFOLLOW and O_CLOEXEC added to flags.
func openFileAt(dirfd int, name string, flags int, mode uint32) (*fdFile, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flags|unix.O_NOFOLLOW|unix.O_CLOEXEC, mode)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return nil, err
		}
		return &fdFile{fd: fd}, nil
	}
}

// Read implements io.Reader.
func (f *fdFile) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := unix.Read(f.fd, p)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// Write implements io.Writer: it writes all of p or fails.
func (f *fdFile) Write(p []byte) (int, error) {
	return whole(p, io.ErrShortWrite, func(b []byte, _ int) (int, error) { return unix.Write(f.fd, b) })
}

// ReadAt implements io.ReaderAt: it fills p from off, or returns io.EOF
// with what the file holds there.
func (f *fdFile) ReadAt(p []byte, off int64) (int, error) {
	return whole(p, io.EOF, func(b []byte, done int) (int, error) { return unix.Pread(f.fd, b, off+int64(done)) })
}

// whole calls op on what is left of p (done bytes in) until all of p is
// done, retrying after EINTR; an op that does nothing ends it with short.
func whole(p []byte, short error, op func(b []byte, done int) (int, error)) (int, error) {
	done := 0
	for done < len(p) {
		n, err := op(p[done:], done)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return done, err
		case n == 0:
			return done, short
		}
		done += n
	}
	return done, nil
}

// readAll returns the whole file, read from its start.
func (f *fdFile) readAll() ([]byte, error) {
	b := make([]byte, 0, 512)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := f.ReadAt(b[len(b):cap(b)], int64(len(b)))
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// stat returns the file's status, retrying on EINTR.
func (f *fdFile) stat() (unix.Stat_t, error) {
	var st unix.Stat_t
	for {
		if err := unix.Fstat(f.fd, &st); err != unix.EINTR {
			return st, err
		}
	}
}

// status reports whether the descriptor is a regular file, and its
// modification time, from one fstat, and keeps its size in f.size.
func (f *fdFile) status() (regular bool, mtime time.Time, err error) {
	st, err := f.stat()
	if err != nil {
		return false, time.Time{}, err
	}
	f.size = st.Size
	return st.Mode&unix.S_IFMT == unix.S_IFREG, time.Unix(st.Mtim.Unix()), nil
}

// Close closes the descriptor.
func (f *fdFile) Close() error {
	return unix.Close(f.fd)
}

// stamp returns the file's state (device, inode, size, modification and
// change times, as filestamp.Of of a stat gives them).
func (f *fdFile) stamp() (filestamp.Stamp, error) {
	st, err := f.stat()
	if err != nil {
		return filestamp.Stamp{}, err
	}
	return stampOf(&st), nil
}

// stampOf is filestamp.Of of the status st.
func stampOf(st *unix.Stat_t) filestamp.Stamp {
	return filestamp.Stamp{Exists: true, Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: st.Size,
		Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano()}
}

// utimes sets the access and modification times of name, relative to the
// directory dirfd, to t, without following a symlink.
func utimes(dirfd int, name string, t time.Time) error {
	// Not through UnixNano, which wraps outside 1678-2262.
	ts, err := unix.TimeToTimespec(t)
	if err != nil {
		return err
	}
	return ignoringEINTR(func() error {
		return unix.UtimesNanoAt(dirfd, name, []unix.Timespec{ts, ts}, unix.AT_SYMLINK_NOFOLLOW)
	})
}

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != unix.EINTR {
			return err
		}
	}
}

// holes returns how many bytes of the file, as large as status found it,
// lie in holes, counting no further than just past limit.
func (f *fdFile) holes(limit int64) (int64, error) {
	return safefs.FdHoleBytes(f.fd, f.size, limit)
}
