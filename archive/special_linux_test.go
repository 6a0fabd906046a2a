//go:build linux

package archive_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestSpecialIndexIsRefused plants a character device (/dev/null's
// numbers) and a FIFO under the index's name: Put fails with a
// *storage.Error at once, instead of reporting success for an index line
// the device swallowed (the entry could never be found again) or waiting
// for the FIFO's other end forever.
func TestSpecialIndexIsRefused(t *testing.T) {
	for _, plant := range []struct {
		name string
		make func(p string) error
	}{
		{"device", func(p string) error { return syscall.Mknod(p, syscall.S_IFCHR|0o600, 1<<8|3) }},
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o600) }},
	} {
		t.Run(plant.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "s.context")
			a := open(t, dir, archive.Options{SessionID: "s"})
			if err := plant.make(filepath.Join(dir, archive.IndexFile)); err != nil {
				t.Skip("cannot plant it here:", err)
			}
			done := make(chan error, 1)
			go func() { _, err := a.Put(t.Context(), "kept?", nil); done <- err }()
			select {
			case err := <-done:
				var se *storage.Error
				if !errors.As(err, &se) {
					t.Fatalf("Put with a %s for its index: %v, want a *storage.Error", plant.name, err)
				}
			case <-time.After(3 * time.Second):
				t.Fatalf("Put with a %s for its index still waits after 3s", plant.name)
			}
			if st, err := os.Lstat(filepath.Join(dir, archive.IndexFile)); err != nil || st.Mode().IsRegular() {
				t.Fatalf("the planted index changed: %v %v", st, err)
			}
		})
	}
}
