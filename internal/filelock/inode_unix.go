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

// openDir opens the lock directory path, never following a symlink, and
// returns the descriptor, or -1 if it cannot: holding it open is only a
// help (see Release). A bare descriptor, not an *os.File: it is never read,
// and an *os.File costs five more system calls to make.
func openDir(path string) int {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return -1
		}
		return fd
	}
}

// closeFD closes a descriptor openDir returned.
func closeFD(fd int) error { return syscall.Close(fd) }

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
