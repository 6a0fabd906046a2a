package migrate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

// LockName is the lock directory a migration holds at its destination
// root, beside the marker (MarkerName), while it writes there.
const LockName = lockName

// A LockHeldError reports a destination lock (LockName) that a live
// migration holds: it was refreshed within the stale period.
type LockHeldError struct {
	// Lock is the lock directory.
	Lock string
}

// Error names the lock a running migration holds.
func (e *LockHeldError) Error() string {
	return fmt.Sprintf("a migration holds %s and is still writing there", e.Lock)
}

// ClearStaleLock removes the destination lock (LockName) that a killed
// migration left in root, by the rule a rerun of migrate applies: a lock
// not refreshed for the stale period (filelock.DefaultStale) is taken
// over, as a rerun would take it, then released, which removes it. A lock
// a live migration holds is left in place and reported as a
// *LockHeldError. With dryRun a stale lock is only reported. It returns
// the stale lock's modification time, zero when root holds no lock. The
// marker, if any, stays: the copy it marks is still incomplete.
func ClearStaleLock(ctx context.Context, root string, dryRun bool) (time.Time, error) {
	path := filepath.Join(root, LockName)
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return time.Time{}, nil
	case err != nil:
		return time.Time{}, (&storage.Error{Op: "lock", File: path, Message: "cannot inspect lock"}).WithCause(err)
	case !st.IsDir():
		return time.Time{}, &storage.Error{Op: "lock", File: path, Message: "lock path is not a directory"}
	case time.Since(st.ModTime()) <= cmp.Or(lockOptions.Stale, filelock.DefaultStale):
		return time.Time{}, &LockHeldError{Lock: path}
	case dryRun:
		return st.ModTime(), nil
	}
	// Taken through the anchored root (Dir.Lock), so that a link swapped
	// in for root or a directory above it in the home cannot lead the
	// takeover and the release out of it.
	dir, err := safefs.AnchorExisting(root)
	if err != nil {
		return time.Time{}, err
	}
	opts := lockOptions
	opts.Timeout = time.Nanosecond // a lock taken meanwhile is reported, not waited for
	l, err := dir.Lock(ctx, MarkerName, opts)
	if err != nil {
		if now, serr := os.Lstat(path); serr == nil && time.Since(now.ModTime()) <= cmp.Or(lockOptions.Stale, filelock.DefaultStale) {
			return time.Time{}, &LockHeldError{Lock: path}
		}
		return time.Time{}, err
	}
	if err := l.Release(); err != nil {
		return time.Time{}, err
	}
	return st.ModTime(), nil
}
