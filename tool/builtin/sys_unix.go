//go:build unix

package builtin

import (
	"io/fs"
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
func keepOwner(f *os.File, old fs.FileInfo) {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	if int(st.Uid) == os.Geteuid() && int(st.Gid) == os.Getegid() {
		return
	}
	_ = f.Chown(int(st.Uid), int(st.Gid))
}
