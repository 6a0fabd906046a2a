//go:build unix

package audit

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// tryLock takes f's exclusive flock(2) if no other open file holds it,
// reporting false if one does.
func tryLock(f *os.File) (bool, error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		}
		return false, err
	}
}

// unlockFile releases f's lock.
func unlockFile(f *os.File) error {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_UN); err != nil {
		return fmt.Errorf("audit log: unlock %s: %w", f.Name(), err)
	}
	return nil
}
