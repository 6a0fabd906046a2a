//go:build linux

package migrate

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
)

// Prefetching opens each log without blocking and without following a
// symlink: a FIFO or a symlink to one planted under a log's name after
// the plan must not stop the feeding of units (opening a FIFO for reading
// waits for a writer). Nothing is read; the worker refuses these when it
// opens them.
func TestPrefetchNeverBlocksOnAnOddEntry(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.jsonl"), []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "b.jsonl"), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(fifo, filepath.Join(dir, "c.jsonl")); err != nil {
		t.Fatal(err)
	}
	d, err := safefs.Anchor(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := &migration{} // a dry run: no destination directory to open
	pair := &dirPair{src: d, units: 4}
	defer pair.close()
	for _, id := range []string{"a", "b", "c", "missing"} {
		done := make(chan struct{})
		go func() {
			defer close(done)
			m.prefetch(&unit{kind: unitSession, id: id, files: pair})
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("prefetch of %s.jsonl blocked", id)
		}
	}
}
