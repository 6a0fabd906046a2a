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

// removeDir removes the empty directory path with one system call
// (os.Remove tries to unlink it as a file first).
func removeDir(path string) error {
	for {
		err := syscall.Rmdir(path)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return &fs.PathError{Op: "rmdir", Path: path, Err: err}
		}
		return nil
	}
}
