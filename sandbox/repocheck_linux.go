package sandbox

import (
	"io/fs"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// ctime returns the status change time of fi, which a command cannot set
// back; the zero time when the system does not say.
func ctime(fi fs.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
	}
	return time.Time{}
}

// renameNoReplace renames old to new in the directory d, failing with an
// error matching fs.ErrExist when new exists.
func renameNoReplace(d *os.File, old, new string) error {
	fd := int(d.Fd())
	err := unix.Renameat2(fd, old, fd, new, unix.RENAME_NOREPLACE)
	if err != nil {
		return &os.LinkError{Op: "rename", Old: old, New: new, Err: err}
	}
	return nil
}

// openDirAt opens the directory name (one name, no slash) of the open
// directory parent, not following a link and not blocking on a fifo.
func openDirAt(parent *os.File, name string) (*os.File, error) {
	fd, err := unix.Openat(int(parent.Fd()), name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "openat", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), name), nil
}
