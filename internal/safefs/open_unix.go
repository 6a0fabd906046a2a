//go:build unix && !safefs_portable

package safefs

import (
	"io/fs"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// noWait holds the flags OpenFile adds to every open: O_NOFOLLOW refuses a
// symlink; O_NONBLOCK makes the open of a FIFO planted under a record's
// name return at once (a plain open waits for its other end forever, under
// the record's lock), while a regular file ignores it; O_NOCTTY keeps a
// terminal from becoming the process's.
const noWait = syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_NOCTTY

// OpenFile opens name as os.OpenFile does, but refuses a symlink as its
// last component (an error matching syscall.ELOOP) and never waits on a
// FIFO. Callers that need a regular file check the result's mode, as the
// store's readers do with special.
func OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag|noWait, perm)
}

// touchIn sets the times of rel, below r, without following a symlink:
// utimensat(2) relative to its directory opened through r.
func touchIn(r *os.Root, rel string, t time.Time) error {
	dir, base, err := parentFile(r, rel)
	if err != nil {
		return err
	}
	defer dir.Close()
	ts := unix.NsecToTimespec(t.UnixNano())
	return unix.UtimesNanoAt(int(dir.Fd()), base, []unix.Timespec{ts, ts}, unix.AT_SYMLINK_NOFOLLOW)
}
