//go:build unix

package builtin

import (
	"errors"
	"os"
	"syscall"
)

// Open flags: a FIFO or device opened for reading must not block the call,
// and a read root that is a single file is opened without following a
// link put in its place.
const (
	oNonblock = syscall.O_NONBLOCK
	oNoFollow = syscall.O_NOFOLLOW
)

// keepOwner gives f, a replacement being written for the file described by
// old, the owner and group of the old file when they differ from f's, as
// an editor does. It is best effort: only a privileged process may give a
// file away.
func keepOwner(f *os.File, old *fileStat) {
	if old.uid < 0 || (old.uid == os.Geteuid() && old.gid == os.Getegid()) {
		return
	}
	_ = f.Chown(old.uid, old.gid)
}

// isLinkErr reports whether err is an open with O_NOFOLLOW refusing a
// symbolic link: ELOOP, or EMLINK on FreeBSD.
func isLinkErr(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK)
}
