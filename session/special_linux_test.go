//go:build linux

package session_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/safefs/safefstest"
	"github.com/lite-agent/lite-agent-go/session"
)

// TestSpecialFileLogIsRefusedAtOnce plants a FIFO (alone, and with a
// process holding both its ends) and a character device under a session's
// log name: Read, Head, Truncate and Append fail at once with a
// *storage.Error naming the log, instead of waiting under the session's
// lock for the FIFO's other end forever (or, for the device, reading it
// as an empty session), and the planted file stays as it was.
func TestSpecialFileLogIsRefusedAtOnce(t *testing.T) {
	for _, plant := range safefstest.Specials() {
		t.Run(plant.Name, func(t *testing.T) {
			dir := t.TempDir()
			cp := newCP(t, dir, session.FileOptions{Durable: true})
			p := filepath.Join(dir, "s.jsonl")
			plant.Plant(t, p)
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
				case <-time.After(10 * time.Second): // an open that waits for a FIFO's peer never returns
					t.Fatalf("%s of a log that is a %s still waits after 10s", op.name, plant.Name)
				}
			}
			after, err := os.Lstat(p)
			if err != nil || !os.SameFile(before, after) || after.Mode() != before.Mode() {
				t.Fatalf("the planted file changed: %v %v", after, err)
			}
		})
	}
}
