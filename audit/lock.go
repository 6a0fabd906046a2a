package audit

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
)

// lockSuffix names the lock file beside a log: FILE.lock.
const lockSuffix = ".lock"

// openLock opens (creating it 0600 if missing) the lock file of the log
// at path, never following a symlink.
func openLock(path string) (*os.File, error) {
	f, err := safefs.OpenFile(path+lockSuffix, os.O_RDWR|os.O_CREATE, fileMode)
	if err != nil {
		return nil, fmt.Errorf("audit log %s: lock file: %w", path, err)
	}
	return f, nil
}

// lockFile takes f's exclusive lock, waiting while another open file
// (another Log, in this process or another) holds it, until ctx is done.
// The system releases the lock of a process that dies.
func lockFile(ctx context.Context, f *os.File) error {
	wait := time.Millisecond
	for {
		ok, err := tryLock(f)
		if err != nil {
			return fmt.Errorf("audit log: lock %s: %w", f.Name(), err)
		}
		if ok {
			return nil
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
