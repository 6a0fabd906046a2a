//go:build unix && !safefs_portable

package safefs

import (
	"os"

	"golang.org/x/sys/unix"
)

// rmdirIn removes the empty directory rel below r: unlinkat(2) with
// AT_REMOVEDIR relative to its parent opened through r, which never
// removes a file and never follows a symlink at rel.
func rmdirIn(r *os.Root, rel string) error {
	dir, base, err := parentFile(r, rel)
	if err != nil {
		return err
	}
	defer dir.Close()
	for {
		err := unix.Unlinkat(int(dir.Fd()), base, unix.AT_REMOVEDIR)
		if err != unix.EINTR {
			if err != nil {
				return &os.PathError{Op: "rmdir", Path: rel, Err: err}
			}
			return nil
		}
	}
}
