//go:build linux

package safefs_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
)

// returnsWithin runs f and fails the test if it has not returned after a
// few seconds: an open that waits for a FIFO's peer never returns.
func returnsWithin(t *testing.T, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(3 * time.Second):
		t.Fatalf("%s still waits after 3s", what)
		return nil
	}
}

// TestSpecialFilesAreRefusedAtOnce plants a FIFO (with no peer, and with a
// peer holding its other end) and a character device under a record's
// name: reading and appending fail at once with a *storage.Error instead
// of waiting for a peer forever, and the planted file is left as it was.
func TestSpecialFilesAreRefusedAtOnce(t *testing.T) {
	for _, plant := range []struct {
		name string
		make func(t *testing.T, p string)
	}{
		{"fifo", func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Skip("no FIFOs here:", err)
			}
		}},
		{"fifo with both ends open", func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Skip("no FIFOs here:", err)
			}
			// O_RDWR opens both ends without waiting (Linux).
			f, err := os.OpenFile(p, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
		}},
		{"device", func(t *testing.T, p string) {
			// /dev/null's numbers: character device 1, 3.
			if err := syscall.Mknod(p, syscall.S_IFCHR|0o600, 1<<8|3); err != nil {
				t.Skip("cannot make a device here:", err)
			}
		}},
	} {
		t.Run(plant.name, func(t *testing.T) {
			d, err := safefs.Anchor(filepath.Join(t.TempDir(), "store"))
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(d.Real(), "rec.json")
			plant.make(t, p)
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
