//go:build !windows

package safefs

import (
	"errors"
	"os"
	"syscall"
)

// syncDir flushes the directory dir, so that the names created, renamed or
// removed in it survive a crash. A file system that cannot sync a
// directory (EINVAL) is not an error.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return fileError("sync", dir, err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return fileError("sync", dir, err)
	}
	return nil
}

// syncRoot flushes the directory r is a handle on, named path in errors,
// as syncDir flushes one by its path.
func syncRoot(r *os.Root, path string) error { return syncIn(r, ".", path) }

// syncIn flushes the directory rel below r, named path in errors.
func syncIn(r *os.Root, rel, path string) error {
	f, err := r.Open(rel)
	if err != nil {
		return fileError("sync", path, err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return fileError("sync", path, err)
	}
	return nil
}
