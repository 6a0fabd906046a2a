//go:build linux

package builtin_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestTheNotFoundHintNeverWaitsOnAFIFO (files65): a child process swaps
// the directory "d" with a FIFO in a tight loop while read_file and
// edit_file look for missing files, whose not-found hint lists the
// nearest existing directory and searches the workspace for the name. A
// directory listed as one and opened once it became a FIFO must not block
// the call: every call returns within seconds.
func TestTheNotFoundHintNeverWaitsOnAFIFO(t *testing.T) {
	ws := t.TempDir()
	d, fifo := filepath.Join(ws, "d"), filepath.Join(ws, "p")
	if err := os.MkdirAll(filepath.Join(d, "e"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(d, "e", "x.go"), "x")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	tools := fileAndSearchTools(t, ws)
	startSwapper(t, d, fifo)
	steps := []struct {
		tool  string
		input map[string]any
	}{
		{"read_file", map[string]any{"path": "d/missing.go"}},
		{"read_file", map[string]any{"path": "nowhere/x.go"}},
		{"edit_file", map[string]any{"path": "d/e/missing", "old_text": "a", "new_text": "b"}},
	}
	var calls, slow int
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); {
		for _, s := range steps {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			// A call that still runs after fifoPatience waits on the
			// FIFO (nothing else in it takes seconds, even on a loaded
			// machine running -race): count it, and let it through by
			// opening the FIFO for writing.
			done := make(chan struct{})
			waited := make(chan bool, 1)
			go func() { waited <- unblockFIFOAfter(fifoPatience, done, d, fifo) }()
			start := time.Now()
			res := callBounded(t, ctx, byName(t, tools, s.tool), s.input)
			close(done)
			cancel()
			calls++
			if <-waited {
				slow++
				if slow <= 3 {
					t.Errorf("%s %v took %v: %q", s.tool, s.input, time.Since(start), res.Content)
				}
			}
		}
	}
	t.Logf("%d calls, %d still ran after %v", calls, slow, fifoPatience)
	if slow > 0 {
		t.Errorf("%d of %d calls waited on the FIFO", slow, calls)
	}
}

// fifoPatience is how long a call of TestTheNotFoundHintNeverWaitsOnAFIFO
// may take before it counts as waiting on the FIFO.
const fifoPatience = 10 * time.Second

// unblockFIFOAfter waits for done or patience; once patience has passed it
// opens each of paths (the FIFO wherever the swapper put it) for writing,
// which lets an open waiting on it for reading return, until done, and
// reports true.
func unblockFIFOAfter(patience time.Duration, done <-chan struct{}, paths ...string) bool {
	select {
	case <-done:
		return false
	case <-time.After(patience):
	}
	for {
		for _, p := range paths {
			if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
		}
		select {
		case <-done:
			return true
		case <-time.After(50 * time.Millisecond):
		}
	}
}
