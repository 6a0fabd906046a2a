//go:build !linux

package filelock

import (
	"io/fs"
	"os"
	"time"
)

// openDir opens the directory at path for its holder to keep, and returns
// its description. Here the directory is stamped by its path (see
// stampDir), so a holder stalled between checking and stamping its lock
// may stamp a lock that took its place.
func openDir(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

// stampDir sets the modification time of the lock directory at path to
// now and returns the description of the open directory f.
func stampDir(f *os.File, path string) (fs.FileInfo, error) {
	now := time.Now()
	if err := os.Chtimes(path, now, now); err != nil {
		return nil, err
	}
	return f.Stat()
}
