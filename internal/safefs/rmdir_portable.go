//go:build !unix || safefs_portable

package safefs

import (
	"io/fs"
	"os"
	"syscall"
)

// rmdirIn removes the empty directory rel below r, looked at first: a
// file, or a symlink or junction, is refused. Where there is no rmdir
// relative to a directory (Windows), a file put at rel between the look
// and the removal may go; the removal stays inside r.
func rmdirIn(r *os.Root, rel string) error {
	st, err := r.Lstat(rel)
	if err != nil {
		return err
	}
	if linkLike(st.Mode()) || !st.IsDir() {
		return &fs.PathError{Op: "rmdir", Path: rel, Err: syscall.ENOTDIR}
	}
	return r.Remove(rel)
}
