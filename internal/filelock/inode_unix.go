//go:build unix

package filelock

import (
	"io/fs"
	"os"
	"syscall"
)

func inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}

func sameFile(a, b fs.FileInfo) bool { return os.SameFile(a, b) }
