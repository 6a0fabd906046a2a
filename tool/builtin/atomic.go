package builtin

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
)

// File modes of what the mutating tools create. The umask applies, so a
// new file is usually 0644 and a new directory 0755, as an editor makes
// them: these are the project's files, not the agent's private state.
const (
	newFileMode = 0o666
	newDirMode  = 0o777
	tempMode    = 0o600
)

// writeAtomic replaces the file name in dir with data: it writes a
// temporary file .<name>.<12 hex>.tmp (name cut short if need be, see
// safefs.TempName) in the same open directory, syncs
// it, gives it the mode (and, where allowed, the owner) of the file it
// replaces, renames it over name and syncs the directory. old describes
// the file being replaced, or is nil for a new file. Readers see the old
// content or the new, never a part. On every error the temporary file is
// removed, through the same open directory.
func writeAtomic(dir *dirHandle, name string, data []byte, old *fileStat) (err error) {
	var suffix [6]byte
	rand.Read(suffix[:])
	// The name of a file the tool may write is up to NAME_MAX long; the
	// temporary one shortens it to fit.
	tmp := safefs.TempName(name, hex.EncodeToString(suffix[:]))
	mode := fs.FileMode(newFileMode)
	if old != nil {
		mode = tempMode // until it gets the old file's mode
	}
	f, err := dir.openFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			dir.remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if old != nil {
		if err := f.Chmod(old.mode.Perm()); err != nil {
			f.Close()
			return err
		}
		keepOwner(f, old)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := dir.rename(tmp, name); err != nil {
		return err
	}
	dir.sync()
	return nil
}

// pathLocks serializes the changes to one file made through one set of
// file tools, so that two edits of the same file in one model response do
// not lose each other. The zero value is ready to use.
type pathLocks struct {
	mu    sync.Mutex
	locks map[string]*pathLock // guarded by mu
}

type pathLock struct {
	held chan struct{} // holds one value while the lock is held
	refs int           // guarded by pathLocks.mu
}

// lock locks key and returns the function that unlocks it. It gives up
// when ctx is done.
func (p *pathLocks) lock(ctx context.Context, key string) (func(), error) {
	p.mu.Lock()
	if p.locks == nil {
		p.locks = make(map[string]*pathLock)
	}
	l := p.locks[key]
	if l == nil {
		l = &pathLock{held: make(chan struct{}, 1)}
		p.locks[key] = l
	}
	l.refs++
	p.mu.Unlock()
	release := func() {
		p.mu.Lock()
		l.refs--
		if l.refs == 0 {
			delete(p.locks, key)
		}
		p.mu.Unlock()
	}
	select {
	case l.held <- struct{}{}:
		return func() { <-l.held; release() }, nil
	case <-ctx.Done():
		release()
		return nil, ctx.Err()
	}
}

// notRegular is the error for a path that is a directory, a device or
// anything else but a regular file.
//
//lint:ignore ST1005 the model reads this text as the tool's result: a sentence, not a message for wrapping
func notRegular(p string) error { return fmt.Errorf("Not a regular file: %s", p) }
