//go:build linux

package safefs

import (
	"os"
	"syscall"
)

// SyncData flushes the data of f, and the metadata needed to read it back
// (its size), to the disk: fdatasync(2), which spares the inode's
// timestamps the write fsync(2) would add.
func SyncData(f *os.File) error {
	for {
		err := syscall.Fdatasync(int(f.Fd()))
		if err != syscall.EINTR {
			if err != nil {
				return &os.PathError{Op: "fdatasync", Path: f.Name(), Err: err}
			}
			return nil
		}
	}
}
