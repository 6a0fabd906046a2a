package migrate

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

// open opens the regular file name of the directory for reading, refusing
// a symlink and anything else that is not a regular file: the plan saw a
// regular file there, but a FIFO or device put in its place since must not
// make the worker wait for a writer or become its terminal. It returns the
// file's modification time as the same fstat found it: a caller that holds
// the file's lock, or reads a file that is only ever replaced whole, takes
// that for the time of what it reads, without a second fstat after.
func (h *dirHandle) open(name string) (*fdFile, string, time.Time, error) {
	path := filepath.Join(h.path, name)
	f, err := h.openRead(name)
	if err != nil {
		return nil, path, time.Time{}, sourceOpenError(path, err)
	}
	regular, mtime, err := f.status()
	if err := checkRegular(path, regular, err); err != nil {
		_ = f.Close()
		return nil, path, time.Time{}, err
	}
	// A file mostly of holes (a planted sparse one) is refused before it
	// is read: its zeros cost the copy their size in reading and a record's
	// limit in memory. safefs.ReadFile refuses it too.
	if f.size > safefs.MaxHoleBytes {
		n, err := f.holes(safefs.MaxHoleBytes)
		switch {
		case err != nil:
			err = readError(path, err)
		case n > safefs.MaxHoleBytes:
			err = safefs.SparseError("read", path)
		}
		if err != nil {
			_ = f.Close()
			return nil, path, time.Time{}, err
		}
	}
	return f, path, mtime, nil
}

// sourceOpenError is the error of a failed open of the source file path:
// a symlink and a file that is not regular are refused as such, anything
// else cannot be read.
func sourceOpenError(path string, err error) error {
	switch {
	case errors.Is(err, ErrSymlink) || errors.Is(err, ErrUnrecognized):
		return err // named already
	case errors.Is(err, syscall.ELOOP):
		return fmt.Errorf("%w: %s", ErrSymlink, path)
	case errors.Is(err, safefs.ErrNotRegular):
		return fmt.Errorf("%w: %s is not a regular file", ErrUnrecognized, path)
	}
	return readError(path, err)
}

// checkRegular is the error of the source file path, just opened, whose
// status said regular (or failed with err): nil for a regular file.
func checkRegular(path string, regular bool, err error) error {
	switch {
	case err != nil:
		return readError(path, err)
	case !regular:
		return fmt.Errorf("%w: %s is not a regular file", ErrUnrecognized, path)
	}
	return nil
}

// sizeError is the error of a failed stat of the source file path.
func sizeError(path string, err error) error {
	return (&storage.Error{Op: "stat", File: path, Message: "cannot inspect source file"}).WithCause(err)
}

// dirPair is a source directory holding one file per unit (a sessions or
// spill directory) and its destination. Both are opened for the first unit
// that needs them and closed after the last, so that a home of many
// projects holds at most a pair per unit prefetched ahead of the workers
// (see copyAll) and one per worker open.
type dirPair struct {
	src    *safefs.Dir // the anchored source directory
	dstRel string      // the destination directory, relative to the destination root

	mu      sync.Mutex
	units   int // units of the plan not yet finished
	opened  bool
	srcH    *dirHandle
	dstH    *dirHandle // nil in a dry run
	openErr error
	closed  bool
}

// handles returns the open source and destination directories (the latter
// nil in a dry run), opening them on first use.
func (p *dirPair) handles(m *migration) (src, dst *dirHandle, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, nil, errors.New("migrate: directory used after the last unit")
	}
	if !p.opened {
		p.opened = true
		p.srcH, p.dstH, p.openErr = p.open(m)
	}
	return p.srcH, p.dstH, p.openErr
}

func (p *dirPair) open(m *migration) (src, dst *dirHandle, err error) {
	if src, err = openDirHandle(p.src, "", p.src.Path()); err != nil {
		return nil, nil, err
	}
	if m.dst == nil {
		return src, nil, nil
	}
	if dst, err = openDirHandle(m.dst, p.dstRel, filepath.Join(m.dstRoot, p.dstRel)); err != nil {
		src.close()
		return nil, nil, err
	}
	return src, dst, nil
}

// done records that one unit finished, closing the directories after the
// last.
func (p *dirPair) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.units--; p.units == 0 {
		p.closeLocked()
	}
}

// close closes the directories whatever units are left.
func (p *dirPair) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closeLocked()
}

func (p *dirPair) closeLocked() {
	if !p.closed {
		p.closed = true
		p.srcH.close()
		p.dstH.close()
	}
}
