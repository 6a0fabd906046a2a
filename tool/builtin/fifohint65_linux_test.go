//go:build linux

package builtin_test

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
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
	// Unblock an open that waits on the FIFO, so that a call that hung
	// returns and is counted instead of hanging the test.
	var stop atomic.Bool
	unblocked := make(chan struct{})
	go func() {
		defer close(unblocked)
		for !stop.Load() {
			for _, p := range []string{d, fifo} {
				if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
			}
			time.Sleep(time.Second)
		}
	}()
	defer func() { stop.Store(true); <-unblocked }()
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
			start := time.Now()
			res := callBounded(t, ctx, byName(t, tools, s.tool), s.input)
			cancel()
			calls++
			if took := time.Since(start); took > 500*time.Millisecond {
				slow++
				if slow <= 3 {
					t.Errorf("%s %v took %v: %q", s.tool, s.input, took, res.Content)
				}
			}
		}
	}
	t.Logf("%d calls, %d took over 0.5s", calls, slow)
	if slow > 0 {
		t.Errorf("%d of %d calls waited on the FIFO", slow, calls)
	}
}
