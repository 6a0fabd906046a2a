package audit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// doneAfter is a context whose Err is nil for its first n calls and
// context.Canceled from then on: a ctx cancelled while a listing that
// looks at it goes on.
type doneAfter struct {
	context.Context
	n atomic.Int64
}

func (c *doneAfter) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestFilesContextStopsWhenCtxIsDone checks that FilesContext returns
// ctx's error, wrapped, when ctx is done before the call or while the
// log's directory is listed (after its first batch), and the rotated
// files otherwise.
func TestFilesContextStopsWhenCtxIsDone(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	for _, name := range []string{"audit.jsonl", "audit.jsonl.1", "audit.jsonl.2"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 1000 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("other-%04d", i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if files, err := FilesContext(t.Context(), path); err != nil || len(files) != 3 {
		t.Fatalf("FilesContext = %q, %v; want the three files", files, err)
	}
	before, cancel := context.WithCancel(t.Context())
	cancel()
	if files, err := FilesContext(before, path); !errors.Is(err, context.Canceled) {
		t.Errorf("FilesContext with a ctx done before = %q, %v; want context.Canceled", files, err)
	}
	// Two looks pass (before opening the directory, before its first
	// batch); the next, before the second batch, finds ctx done.
	during := &doneAfter{Context: t.Context()}
	during.n.Store(2)
	if files, err := FilesContext(during, path); !errors.Is(err, context.Canceled) {
		t.Errorf("FilesContext with a ctx done during the listing = %q, %v; want context.Canceled", files, err)
	}
}
