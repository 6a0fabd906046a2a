package spill_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/retention"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestPutOfStoredContentKeepsItFromTheSweep puts content whose spill file
// is 40 days old: the ref the Put hands out is in use again, so the file
// must count as young (the reference rewrites it; a Put that finds it
// already there refreshes its modification time), and the next sweep by
// age must leave it. Before, the Put returned the ref without touching the
// file, and the sweep at the next start removed the body just referenced.
func TestPutOfStoredContentKeepsItFromTheSweep(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "projects", "aaaaaaaaaaaaaaaa", "spill")
	s, err := spill.NewFileStore(dir, storage.Encoding{})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := s.Put(t.Context(), "a large tool result")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, ref+spill.FileSuffix)
	old := time.Now().Add(-40 * 24 * time.Hour)
	if err := os.Chtimes(file, old, old); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := s.Put(t.Context(), "a large tool result"); err != nil || again != ref {
		t.Fatalf("Put again: %q %v, want %q", again, err, ref)
	}
	if after, err := os.ReadFile(file); err != nil || string(after) != string(before) {
		t.Fatalf("the stored bytes changed: %q %v", after, err)
	}
	rep, err := retention.Sweep(t.Context(), retention.Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	if got, ok, err := s.Get(t.Context(), ref); err != nil || !ok || got != "a large tool result" {
		t.Fatalf("Get after the sweep: %q %v %v (removed %+v)", got, ok, err, rep.Removed)
	}
}
