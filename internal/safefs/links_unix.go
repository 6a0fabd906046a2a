//go:build unix

package safefs

import (
	"io/fs"
	"syscall"
)

// LinkCount returns the number of hard links of the file described by fi,
// or 1 when the platform does not say. The stores refuse to append to or
// touch a file with more than one (IsHardLinked), and the retention sweep
// leaves one alone.
func LinkCount(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
