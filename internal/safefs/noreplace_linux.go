//go:build linux && !safefs_portable

package safefs

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// renameNoReplace moves the file old to new, failing with an error
// matching fs.ErrExist if new exists: renameat2(2) with RENAME_NOREPLACE,
// or, on a file system (or kernel) without that flag, a link (see
// linkNoReplace). A file system with neither gives errNoExclusiveMove.
func renameNoReplace(old, new string) error {
	err := unix.Renameat2(unix.AT_FDCWD, old, unix.AT_FDCWD, new, unix.RENAME_NOREPLACE)
	if err == nil {
		return nil
	}
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EOPNOTSUPP) {
		return linkNoReplace(old, new)
	}
	return &os.LinkError{Op: "rename", Old: old, New: new, Err: err}
}
