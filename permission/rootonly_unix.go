//go:build unix

package permission

import (
	"io/fs"
	"syscall"
)

// rootOnly reports whether fi describes a file owned by root that
// neither its group nor others may write: a system directory.
func rootOnly(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Uid == 0 && fi.Mode().Perm()&0o022 == 0
}
