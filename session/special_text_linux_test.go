//go:build linux

package session_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestAppendToASpecialLogKeepsItsText: an Append to a log that is a device
// (or a FIFO whose reader is there) fails with the text and kind of every
// other refusal of such a log ("checkpoint log is not a regular file",
// KindCheckpoint), as Read and Head do, not with safefs's own text, and
// writes nothing to the device.
func TestAppendToASpecialLogKeepsItsText(t *testing.T) {
	dir := t.TempDir()
	cp, err := session.NewFileCheckpointer(dir, session.FileOptions{Durable: true})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "s.jsonl")
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o600, 1<<8|3); err != nil {
		t.Skip("cannot make a device here:", err)
	}
	_, err = cp.Append(t.Context(), "s", []session.Event{session.UserEvent{}}, session.AnyHead)
	var se *storage.Error
	if !errors.As(err, &se) {
		t.Fatalf("Append: %v", err)
	}
	if se.Message != "checkpoint log is not a regular file" || se.Kind != storage.KindCheckpoint {
		t.Errorf("Append: message %q kind %q; want the log's own text and kind (%v)", se.Message, se.Kind, err)
	}
	if st, err := os.Lstat(p); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("the device changed: %v", err)
	}
}
