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
