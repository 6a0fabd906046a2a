//go:build !unix

package filelock

import (
	"io/fs"
	"os"
)

func inode(fs.FileInfo) uint64 { return 0 }

func sameFile(a, b fs.FileInfo) bool { return os.SameFile(a, b) }

// openDir returns -1: other systems do not remove a directory that is
// open, so the lock does not hold its directory open there.
func openDir(string) int { return -1 }

// closeFD is never called here: openDir opens nothing.
func closeFD(int) error { return nil }

// removeDir removes the empty directory path.
func removeDir(path string) error { return os.Remove(path) }
