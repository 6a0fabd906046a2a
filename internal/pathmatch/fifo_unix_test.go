//go:build unix

package pathmatch

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestGlobNeverWaitsOnAFIFO (files65): a name a pattern descends into
// that is a FIFO, literally ("p/*") or by a wildcard ("*/*"), is not a
// directory to list. Opening a FIFO to read it blocks until a writer
// comes, which none will: Glob must return at once, the FIFO matching
// nothing below it.
func TestGlobNeverWaitsOnAFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "d", "x"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "p"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	hung := 0
	for _, pattern := range []string{"p/*", "*/*", "p/{a,b}*", "[dp]/*", "p/*/x"} {
		done := make(chan []string, 1)
		go func() { done <- Glob(filepath.Join(dir, pattern)) }()
		select {
		case got := <-done:
			if want := filepath.Join(dir, "d", "x"); pattern != "p/*" && pattern != "p/{a,b}*" && pattern != "p/*/x" && (len(got) != 1 || got[0] != want) {
				t.Errorf("Glob(%s) = %q, want [%s]", pattern, got, want)
			}
		case <-time.After(5 * time.Second):
			hung++
			t.Errorf("Glob(%s) hung on the FIFO", pattern)
			// Let the blocked open return so the test can end.
			if f, err := os.OpenFile(filepath.Join(dir, "p"), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
			<-done
		}
	}
	if hung > 0 {
		t.Errorf("%d patterns hung", hung)
	}
}
