//go:build unix

package permission

import (
	"io/fs"
	"syscall"
)

// linkCount returns the number of hard links of the file fi describes, or
// 1 when the system does not say.
func linkCount(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// rootOnly reports whether fi describes a file owned by root that
// neither its group nor others may write: a system directory.
func rootOnly(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Uid == 0 && fi.Mode().Perm()&0o022 == 0
}
