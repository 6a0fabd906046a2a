//go:build linux

package archive_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/internal/safefs/safefstest"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestSpecialIndexIsRefused plants a character device (/dev/null's
// numbers) and a FIFO under the index's name: Put fails with a
// *storage.Error at once, instead of reporting success for an index line
// the device swallowed (the entry could never be found again) or waiting
// for the FIFO's other end forever.
func TestSpecialIndexIsRefused(t *testing.T) {
	for _, plant := range safefstest.Specials() {
		t.Run(plant.Name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "s.context")
			a := open(t, dir, archive.Options{SessionID: "s"})
			plant.Plant(t, filepath.Join(dir, archive.IndexFile))
			done := make(chan error, 1)
			go func() { _, err := a.Put(t.Context(), "kept?", nil); done <- err }()
			select {
			case err := <-done:
				var se *storage.Error
				if !errors.As(err, &se) {
					t.Fatalf("Put with a %s for its index: %v, want a *storage.Error", plant.Name, err)
				}
			case <-time.After(10 * time.Second): // an open that waits for a FIFO's peer never returns
				t.Fatalf("Put with a %s for its index still waits after 10s", plant.Name)
			}
			if st, err := os.Lstat(filepath.Join(dir, archive.IndexFile)); err != nil || st.Mode().IsRegular() {
				t.Fatalf("the planted index changed: %v %v", st, err)
			}
		})
	}
}
