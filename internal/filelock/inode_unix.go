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

// openDir opens the lock directory path, never following a symlink, or
// returns nil if it cannot: holding it open is only a help (see Release).
func openDir(path string) *os.File {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil
	}
	return f
}

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
