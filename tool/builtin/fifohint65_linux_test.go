//go:build linux

package builtin_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
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
			// A call that opens the FIFO and waits there for a writer
			// is seen waiting (see unblockFIFOWaits) however fast or
			// slow the machine: count it, and let it through by opening
			// the FIFO for writing.
			done := make(chan struct{})
			waited := make(chan bool, 1)
			go func() { waited <- unblockFIFOWaits(done, d, fifo) }()
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
	t.Logf("%d calls, %d waited on the FIFO", calls, slow)
	if slow > 0 {
		t.Errorf("%d of %d calls waited on the FIFO", slow, calls)
	}
}

// fifoPatience is how long a call of TestTheNotFoundHintNeverWaitsOnAFIFO
// may take before it counts as waiting on the FIFO, where /proc does not
// tell where this process's threads sleep.
const fifoPatience = 10 * time.Second

// unblockFIFOWaits watches this process's threads until done. Once one
// sleeps where the kernel holds an open of a FIFO until the other end
// comes (wait_for_partner) and one of paths (the FIFO wherever the
// swapper put it) then opens for writing, which only succeeds while
// something has it open for reading and lets that open return, the call
// waited on the FIFO: from then on it opens paths for writing until done,
// and reports true. Where the threads' wchan does not tell (all "0"), a
// call that runs past fifoPatience counts as waiting.
func unblockFIFOWaits(done <-chan struct{}, paths ...string) bool {
	start := time.Now()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	waited := false
	for {
		select {
		case <-done:
			return waited
		case <-tick.C:
		}
		if !waited {
			waits, known := threadWaitsOnFIFO()
			if !waits && (known || time.Since(start) < fifoPatience) {
				continue
			}
		}
		for _, p := range paths {
			if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
				waited = true
			}
		}
	}
}

// threadWaitsOnFIFO reports whether a thread of this process sleeps in
// wait_for_partner, where an open of a FIFO waits for its other end;
// known is false where no thread's wchan names where it sleeps.
func threadWaitsOnFIFO() (waits, known bool) {
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return false, false
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc/self/task", e.Name(), "wchan"))
		if err != nil {
			continue
		}
		switch w := strings.TrimSpace(string(b)); w {
		case "wait_for_partner":
			return true, true
		case "", "0":
		default:
			known = true
		}
	}
	return false, known
}
