package audit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/ctxtest"
)

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
	during := ctxtest.DoneAfter(t.Context(), 2)
	if files, err := FilesContext(during, path); !errors.Is(err, context.Canceled) {
		t.Errorf("FilesContext with a ctx done during the listing = %q, %v; want context.Canceled", files, err)
	}
}
