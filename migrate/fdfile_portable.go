//go:build !unix || migrate_portable

package migrate

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filestamp"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
)

// portable reports that this build opens files by path (see fdFile).
const portable = true

// fdFile is an open regular file. Where the system has no descriptor
// calls relative to a directory (Windows), it is an *os.File opened by
// path through safefs.OpenFile, which refuses a symlink and any file that
// is not regular by looking at the name before and after the open. Unix
// systems use this only when built with the tag migrate_portable, so that
// the package's tests run against it on Linux too.
type fdFile struct {
	f *os.File
	// size is the file's size when status looked, for endAt (0 before).
	size int64
}

// Read implements io.Reader.
func (f *fdFile) Read(p []byte) (int, error) { return f.f.Read(p) }

// Write implements io.Writer: it writes all of p or fails.
func (f *fdFile) Write(p []byte) (int, error) { return f.f.Write(p) }

// ReadAt implements io.ReaderAt: it fills p from off, or returns io.EOF
// with what the file holds there.
func (f *fdFile) ReadAt(p []byte, off int64) (int, error) { return f.f.ReadAt(p, off) }

// readAll returns the whole file, read from its start.
func (f *fdFile) readAll() ([]byte, error) {
	return io.ReadAll(io.NewSectionReader(f.f, 0, 1<<62))
}

// status reports whether the file is a regular file, and its
// modification time, and keeps its size in f.size.
func (f *fdFile) status() (regular bool, mtime time.Time, err error) {
	st, err := f.f.Stat()
	if err != nil {
		return false, time.Time{}, err
	}
	f.size = st.Size()
	return st.Mode().IsRegular(), st.ModTime(), nil
}

// stamp returns what the system tells of the file's identity and state.
func (f *fdFile) stamp() (filestamp.Stamp, error) {
	st, err := f.f.Stat()
	if err != nil {
		return filestamp.Stamp{}, err
	}
	return filestamp.Of(st), nil
}

// Close closes the file.
func (f *fdFile) Close() error { return f.f.Close() }

// openPath opens the resolved path p with flag, refusing a symlink as its
// last component.
func openPath(p string, flag int, perm fs.FileMode) (*fdFile, error) {
	f, err := safefs.OpenFile(p, flag, perm)
	if err != nil {
		return nil, err
	}
	return &fdFile{f: f}, nil
}

// createPath creates the file at the resolved path p for reading and
// writing: exclusively, mode 0600, refusing a symlink.
func createPath(p string) (*fdFile, error) {
	return openPath(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, safefs.FileMode)
}

// setPathTime sets the access and modification times of the resolved path
// p to t, refusing a symlink by name first.
func setPathTime(p string, t time.Time) error {
	st, err := os.Lstat(p)
	if err != nil {
		return err
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return &fs.PathError{Op: "utimes", Path: p, Err: syscall.ELOOP}
	}
	if !time.Unix(0, t.UnixNano()).Equal(t) {
		// os.Chtimes goes through int64 nanoseconds, which would wrap.
		return fmt.Errorf("modification time %v is outside the years 1678-2262 this system can set", t)
	}
	return os.Chtimes(p, t, t)
}

// holes returns how many bytes of the file, as large as status found it,
// lie in holes, counting no further than just past limit.
func (f *fdFile) holes(limit int64) (int64, error) {
	return safefs.HoleBytes(f.f, f.size, limit)
}
