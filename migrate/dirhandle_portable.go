//go:build !unix || migrate_portable

package migrate

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/filestamp"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
)

// dirHandle is a directory of the source or the destination whose files a
// unit opens by name. Where the system has no calls relative to an open
// directory (Windows), it is the checked path itself: each file is opened
// by its full path and checked by name (see fdFile), and the directory is
// looked at again by name around every use (see same), so that one moved
// away and replaced by a symlink or junction to elsewhere since it was
// checked is refused, not written through. A swap and a swap back between
// two looks goes unseen, as safefs.OpenFile's does.
type dirHandle struct {
	dir  string      // the resolved directory
	path string      // the directory, for errors
	st   fs.FileInfo // the directory as checked
}

// openDirHandle checks the directory rel of d (the anchored directory
// itself for "" or "."), named path in errors, resolved and checked by
// safefs, refusing a symlink in its place.
func openDirHandle(d *safefs.Dir, rel, path string) (*dirHandle, error) {
	resolved, err := d.Resolve(rel)
	if err != nil {
		return nil, err
	}
	st, err := os.Lstat(resolved)
	switch {
	case err != nil:
		return nil, readError(path, err)
	case st.Mode()&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("%w: %s", ErrSymlink, path)
	case !st.IsDir():
		return nil, fmt.Errorf("%w: %s is not a directory", ErrUnrecognized, path)
	}
	return &dirHandle{dir: resolved, path: path, st: st}, nil
}

// same checks that the directory's path still names the directory that
// openDirHandle checked, not a symlink (or a junction, which Windows
// reports as irregular) or another directory put in its place.
func (h *dirHandle) same() error {
	st, err := os.Lstat(h.dir)
	switch {
	case err != nil:
		return readError(h.path, err)
	case st.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 || !os.SameFile(st, h.st):
		return fmt.Errorf("%w: %s was replaced since it was opened", ErrSymlink, h.path)
	}
	return nil
}

// openRead opens name in the directory for reading, refusing a symlink
// and a file that is not regular by name (see fdFile), and a directory
// replaced since it was checked (see same).
func (h *dirHandle) openRead(name string) (*fdFile, error) {
	if err := h.same(); err != nil {
		return nil, err
	}
	f, err := openPath(filepath.Join(h.dir, name), os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	if err := h.same(); err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

// stamp returns the state of name in the directory, without following a
// symlink.
func (h *dirHandle) stamp(name string) (filestamp.Stamp, error) {
	if err := h.same(); err != nil {
		return filestamp.Stamp{}, err
	}
	st, err := os.Lstat(filepath.Join(h.dir, name))
	if err != nil {
		return filestamp.Stamp{}, err
	}
	return filestamp.Of(st), nil
}

// size returns the size of the file name of the directory, without
// following a symlink.
func (h *dirHandle) size(name string) (int64, error) {
	if err := h.same(); err != nil {
		return 0, err
	}
	st, err := os.Lstat(filepath.Join(h.dir, name))
	if err != nil {
		return 0, sizeError(filepath.Join(h.path, name), err)
	}
	return st.Size(), nil
}

// create creates the file name in the directory for reading and writing:
// exclusively, so that nothing is ever replaced, mode 0600, refusing a
// symlink.
func (h *dirHandle) create(name string) (*fdFile, error) {
	if err := h.same(); err != nil {
		return nil, err
	}
	f, err := createPath(filepath.Join(h.dir, name))
	if err != nil {
		return nil, err
	}
	if err := h.same(); err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

// setTime gives name in the directory the modification (and access) time
// mtime, refusing a symlink; path names it for errors. A nil h (a dry run)
// does nothing.
func (h *dirHandle) setTime(name, path string, mtime time.Time) error {
	if h == nil {
		return nil
	}
	if err := h.same(); err != nil {
		return err
	}
	return timeError(path, setPathTime(filepath.Join(h.dir, name), mtime))
}

// moveLock moves the held lock l, whose lock directory is in this
// directory, to target, a file of it (see filelock.Lock.Move), by path,
// once d, the directory as anchored, is checked as Resolve would check it:
// target need not be resolved component by component, as it names a file
// of the directory the lock is in, opened without following symlinks.
func (h *dirHandle) moveLock(d *safefs.Dir, l *filelock.Lock, target string) error {
	if err := d.Check(); err != nil {
		return err
	}
	return l.Move(target)
}

func (h *dirHandle) close() {}
