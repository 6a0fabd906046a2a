//go:build !unix

package filelock

import (
	"io/fs"
	"os"
)

func inode(fs.FileInfo) uint64 { return 0 }

func device(fs.FileInfo) uint64 { return 0 }

func sameFile(a, b fs.FileInfo) bool { return os.SameFile(a, b) }

// removeDir removes the empty directory path.
func removeDir(path string) error { return os.Remove(path) }
