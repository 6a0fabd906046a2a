//go:build linux

package session_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/session"
)

// TestSpecialFileLogIsRefusedAtOnce plants a FIFO (alone, and with a
// process holding both its ends) and a character device under a session's
// log name: Read, Head, Truncate and Append fail at once with a
// *storage.Error naming the log, instead of waiting under the session's
// lock for the FIFO's other end forever (or, for the device, reading it
// as an empty session), and the planted file stays as it was.
func TestSpecialFileLogIsRefusedAtOnce(t *testing.T) {
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
			f, err := os.OpenFile(p, os.O_RDWR, 0) // both ends, without waiting (Linux)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
		}},
		{"device", func(t *testing.T, p string) {
			if err := syscall.Mknod(p, syscall.S_IFCHR|0o600, 1<<8|3); err != nil { // /dev/null's numbers
				t.Skip("cannot make a device here:", err)
			}
		}},
	} {
		t.Run(plant.name, func(t *testing.T) {
			dir := t.TempDir()
			cp := newCP(t, dir, session.FileOptions{Durable: true})
			p := filepath.Join(dir, "s.jsonl")
			plant.make(t, p)
			before, err := os.Lstat(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, op := range []struct {
				name string
				run  func() error
			}{
				{"Read", func() error { _, err := cp.Read(t.Context(), "s", 0); return err }},
				{"Head", func() error { _, err := cp.Head(t.Context(), "s"); return err }},
				{"Truncate", func() error { return cp.Truncate(t.Context(), "s", 0, session.AnyHead) }},
				{"Append", func() error {
					_, err := cp.Append(t.Context(), "s", []session.Event{userText("lost?")}, session.AnyHead)
					return err
				}},
			} {
				done := make(chan error, 1)
				go func() { done <- op.run() }()
				select {
				case err := <-done:
					if se := storageError(t, err, ""); filepath.Base(se.File) != "s.jsonl" {
						t.Errorf("%s: %v does not name the log", op.name, err)
					}
				case <-time.After(3 * time.Second):
					t.Fatalf("%s of a log that is a %s still waits after 3s", op.name, plant.name)
				}
			}
			after, err := os.Lstat(p)
			if err != nil || !os.SameFile(before, after) || after.Mode() != before.Mode() {
				t.Fatalf("the planted file changed: %v %v", after, err)
			}
		})
	}
}
