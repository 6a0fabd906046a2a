//go:build unix && !safefs_portable

package retention

import (
	"context"
	"os"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
)

// acquire takes the lock of d/name (see lock) relative to a handle on d,
// the directory the sweep opened from the projects directory down and
// checked to be the one it inspected: with filelock.AcquireAt, the lock
// directory is made, looked at, taken over, refreshed and removed by its
// name in that directory (mkdirat, renameat2, unlinkat), never through a
// path, so a rename or a symlink swapped in anywhere along d's path, at
// any moment, cannot take the lock to another directory, whether /proc
// is mounted or not. The lock keeps its own descriptor of d until it is
// released, and names itself by d's path. It returns the lock, no
// directory to keep open (the lock holds its own), and the directory its
// errors name the lock in: d's path.
func (s *sweeper) acquire(d *os.Root, name string) (*filelock.Lock, *os.File, string, error) {
	f, err := d.Open(".")
	if err != nil {
		return nil, nil, "", errChanged
	}
	defer f.Close()
	// No wait, hence no context: an entry locked meanwhile is skipped.
	l, err := filelock.AcquireAt(context.Background(), f, name, filelock.Options{Timeout: time.Nanosecond})
	return l, nil, d.Name(), err
}

// lockedIn reports whether the lock l is that of name in d: here it is by
// construction, as it was taken relative to d's handle.
func lockedIn(*filelock.Lock, *os.Root, string) bool { return true }
