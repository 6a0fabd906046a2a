//go:build linux

package safefs_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/internal/safefs/safefstest"
)

// returnsWithin runs f and fails the test if it has not returned after
// 10 s (room for a loaded machine running -race): an open that waits for
// a FIFO's peer never returns.
func returnsWithin(t *testing.T, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatalf("%s still waits after 10s", what)
		return nil
	}
}

// TestSpecialFilesAreRefusedAtOnce plants a FIFO (with no peer, and with a
// peer holding its other end) and a character device under a record's
// name: reading and appending fail at once with a *storage.Error instead
// of waiting for a peer forever, and the planted file is left as it was.
func TestSpecialFilesAreRefusedAtOnce(t *testing.T) {
	for _, plant := range safefstest.Specials() {
		t.Run(plant.Name, func(t *testing.T) {
			d, err := safefs.Anchor(filepath.Join(t.TempDir(), "store"))
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(d.Real(), "rec.json")
			plant.Plant(t, p)
			before, err := os.Lstat(p)
			if err != nil {
				t.Fatal(err)
			}
			err = returnsWithin(t, "ReadFile", func() error { _, err := d.ReadFile("rec.json"); return err })
			wantStorageError(t, err, "rec.json")
			err = returnsWithin(t, "Append", func() error { return d.Append("rec.json", []byte("x\n"), true) })
			wantStorageError(t, err, "rec.json")
			err = returnsWithin(t, "OpenAppend", func() error {
				f, err := d.OpenAppend("rec.json", true)
				if err == nil {
					f.Close()
				}
				return err
			})
			wantStorageError(t, err, "rec.json")
			after, err := os.Lstat(p)
			if err != nil || !os.SameFile(before, after) || after.Mode() != before.Mode() {
				t.Fatalf("the planted file changed: %v %v", after, err)
			}
		})
	}
}
