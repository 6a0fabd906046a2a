//go:build unix

package verify

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// The UTF-8 check reads a task record again after the store has read it;
// what stands under the record's name by then is not trusted: a symlink is
// not followed and a FIFO is not waited on.
func TestInvalidUTF8NeitherFollowsASymlinkNorWaitsOnAFIFO(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(dir, "outside")
	if err := os.WriteFile(outside, []byte{0xff, 0xfe}, 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte{'"', 0xff, '"'}, 0o600); err != nil {
		t.Fatal(err)
	}
	if !invalidUTF8(bad) {
		t.Fatal("a regular record with invalid UTF-8 is not reported")
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	if invalidUTF8(link) {
		t.Error("the check followed a symlink swapped in under the record's name")
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan bool, 1)
	go func() { done <- invalidUTF8(fifo) }()
	select {
	case got := <-done:
		if got {
			t.Error("a FIFO is reported as a record with invalid UTF-8")
		}
	case <-time.After(5 * time.Second):
		// Release the reader blocked in open, then fail.
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		<-done
		t.Fatal("the check waited on a FIFO planted under the record's name")
	}
}
