//go:build unix

package filelock

import (
	"io/fs"
	"syscall"
)

func inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}

func device(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev)
	}
	return 0
}

// sameFile reports whether a and b describe the same file: the same
// device and inode, from the os package's lstat or a held directory's
// description.
func sameFile(a, b fs.FileInfo) bool {
	sa, ok1 := a.Sys().(*syscall.Stat_t)
	sb, ok2 := b.Sys().(*syscall.Stat_t)
	return ok1 && ok2 && sa.Dev == sb.Dev && sa.Ino == sb.Ino
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
