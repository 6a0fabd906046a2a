//go:build linux

package migrate

import (
	"os"

	"github.com/lite-agent/lite-agent-go/storage"
	"golang.org/x/sys/unix"
)

// syncTree makes everything written under root durable. On Linux one
// syncfs(2) of root's file system does it, however many files there are.
func syncTree(root string) error {
	f, err := os.Open(root)
	if err != nil {
		return (&storage.Error{Op: "sync", File: root, Message: "cannot sync destination"}).WithCause(err)
	}
	defer f.Close()
	return syncFile(f)
}

// syncFile syncs the file system of the open directory f.
func syncFile(f *os.File) error {
	if err := unix.Syncfs(int(f.Fd())); err != nil {
		return (&storage.Error{Op: "sync", File: f.Name(), Message: "cannot sync destination"}).WithCause(err)
	}
	return nil
}

// syncsInBackground reports that syncTree is cheap to repeat, so that the
// destination can be synced while it is written: syncfs writes only what
// is dirty.
const syncsInBackground = true
