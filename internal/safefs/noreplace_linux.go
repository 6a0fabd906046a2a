//go:build linux && !safefs_portable

package safefs

import (
	"errors"
	"os"
	"path/filepath"

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

// renameNoReplaceIn is renameNoReplace for old and new below r (base is
// r's path, for errors): renameat2(2) relative to new's directory opened
// through r, so no path above r is looked up again; or a link through r.
func renameNoReplaceIn(r *os.Root, base, old, new string) error {
	dir, name, err := parentFile(r, new)
	if err != nil {
		return err
	}
	defer dir.Close()
	oldDir, oldName := filepath.Split(old)
	newDir, _ := filepath.Split(new)
	if oldDir != newDir {
		return &os.LinkError{Op: "rename", Old: old, New: new, Err: unix.EXDEV}
	}
	fd := int(dir.Fd())
	err = unix.Renameat2(fd, oldName, fd, name, unix.RENAME_NOREPLACE)
	if err == nil {
		return nil
	}
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EOPNOTSUPP) {
		return linkNoReplaceIn(r, old, new)
	}
	return &os.LinkError{Op: "rename", Old: filepath.Join(base, old), New: filepath.Join(base, new), Err: err}
}
