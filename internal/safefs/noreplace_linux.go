//go:build linux && !safefs_portable

package safefs

import (
	"errors"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// renameNoReplaceIn moves the file old to new, both below r (base is r's
// path, for errors), failing with an error matching fs.ErrExist if new
// exists: renameat2(2) with RENAME_NOREPLACE relative to new's directory
// opened through r, so no path above r is looked up again, or, on a file
// system (or kernel) without that flag, a link through r (see
// linkNoReplaceIn). A file system with neither gives errNoExclusiveMove.
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
