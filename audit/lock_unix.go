//go:build unix

package audit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lockSuffix names the lock file beside a log: FILE.lock.
const lockSuffix = ".lock"

// openLock opens (creating it 0600 if missing) the lock file of the log
// at path, never following a symlink.
func openLock(path string) (*os.File, error) {
	f, err := os.OpenFile(path+lockSuffix, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, fileMode)
	if err != nil {
		return nil, fmt.Errorf("audit log %s: lock file: %w", path, err)
	}
	return f, nil
}

// lockFile takes f's exclusive lock (flock(2)), waiting while another
// open file (another Log, in this process or another) holds it, until ctx
// is done. The kernel releases the lock of a process that dies.
func lockFile(ctx context.Context, f *os.File) error {
	wait := time.Millisecond
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case !errors.Is(err, syscall.EWOULDBLOCK):
			return fmt.Errorf("audit log: lock %s: %w", f.Name(), err)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, 50*time.Millisecond)
	}
}

// unlockFile releases f's lock.
func unlockFile(f *os.File) error {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_UN); err != nil {
		return fmt.Errorf("audit log: unlock %s: %w", f.Name(), err)
	}
	return nil
}
