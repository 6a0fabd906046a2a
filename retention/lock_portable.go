//go:build !unix || safefs_portable

package retention

import (
	"cmp"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
)

// acquire takes the lock of d/name (see lock) by path, as filelock.Acquire
// takes it where no lock is taken relative to a directory's handle
// (Windows, and the safefs_portable build): through the path
// /proc/self/fd/<fd of d>, which no rename or symlink along d's path can
// redirect out of d, or, where that path does not name d (no /proc), d's
// own path if it has no symlink in it, and the lock is then checked to be
// d's once taken (lockedIn). It returns the lock, the open directory to
// keep open while the lock's path is used, and the directory the lock's
// path and errors name it in.
func (s *sweeper) acquire(d *os.Root, name string) (*filelock.Lock, *os.File, string, error) {
	dirPath, f, err := anchorVia(d, cmp.Or(s.opts.fds, "/proc/self/fd/"))
	if err != nil {
		return nil, nil, "", errChanged
	}
	// No wait, hence no context: an entry locked meanwhile is skipped.
	l, err := filelock.Acquire(context.Background(), filepath.Join(dirPath, name), filelock.Options{Timeout: time.Nanosecond})
	if err != nil {
		return nil, f, dirPath, err
	}
	return l, f, dirPath, nil
}

// lockedIn reports whether the lock l is that of name in d. On the /proc
// path this holds by construction; on d's own path it tells whether a
// symlink put along it meanwhile sent the lock elsewhere.
func lockedIn(l *filelock.Lock, d *os.Root, name string) bool {
	mine, err1 := os.Lstat(l.Path())
	there, err2 := d.Lstat(filelock.Name(name))
	return err1 == nil && err2 == nil && os.SameFile(mine, there)
}

// anchorVia returns a path that names the open directory d, looking for
// it in fds, the directory of the process's descriptors (/proc/self/fd/;
// tests pass another), and the open directory, to close once the path is
// no longer used.
func anchorVia(d *os.Root, fds string) (string, *os.File, error) {
	f, err := d.Open(".")
	if err != nil {
		return "", nil, err
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return "", nil, err
	}
	p := fds + strconv.FormatUint(uint64(f.Fd()), 10)
	if pst, err := os.Stat(p); err == nil && os.SameFile(pst, st) {
		return p, f, nil
	}
	p = filepath.Clean(d.Name())
	if real, err := filepath.EvalSymlinks(p); err == nil && real == p {
		if pst, err := os.Lstat(p); err == nil && os.SameFile(pst, st) {
			return p, f, nil
		}
	}
	_ = f.Close()
	return "", nil, errChanged
}
