//go:build !linux

package migrate

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

// syncTree makes everything written under root durable: an fsync of every
// file and directory under it, directories after their entries.
func syncTree(root string) error {
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, path)
			return nil
		}
		return syncPath(path)
	})
	for i := len(dirs) - 1; err == nil && i >= 0; i-- {
		err = safefs.SyncDir(dirs[i]) // nothing to do on Windows
	}
	if err != nil {
		return (&storage.Error{Op: "sync", File: root, Message: "cannot sync destination"}).WithCause(err)
	}
	return nil
}

func syncPath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}

// syncsInBackground reports that syncTree is cheap to repeat; it is not
// here, as it syncs every file each time.
const syncsInBackground = false

// syncFile makes everything written under the open directory f durable.
func syncFile(f *os.File) error { return syncTree(f.Name()) }
