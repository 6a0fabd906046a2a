package session_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/ctxtest"
	"github.com/lite-agent/lite-agent-go/session"
)

// TestCopiesContextStopsWhenCtxIsDone checks that CopiesContext, which
// lists the whole sessions directory, returns ctx's error when ctx is done
// before the call or while the listing goes on (after its first batch of
// entries), and the copies otherwise.
func TestCopiesContextStopsWhenCtxIsDone(t *testing.T) {
	dir := t.TempDir()
	c, err := session.NewFileCheckpointer(dir, session.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2000 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%04d.jsonl", i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	copyPath := filepath.Join(dir, "s0007.jsonl.torn-1700000000000")
	if err := os.WriteFile(copyPath, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := c.CopiesContext(t.Context(), "s0007"); err != nil || len(got) != 1 || got[0] != copyPath {
		t.Fatalf("CopiesContext = %q, %v; want [%s]", got, err, copyPath)
	}
	before, cancel := context.WithCancel(t.Context())
	cancel()
	if got, err := c.CopiesContext(before, "s0007"); !errors.Is(err, context.Canceled) {
		t.Errorf("CopiesContext with a ctx done before = %q, %v; want context.Canceled", got, err)
	}
	// Two looks pass (before opening the directory, before its first
	// batch); the next, before the second batch, finds ctx done.
	during := ctxtest.DoneAfter(t.Context(), 2)
	if got, err := c.CopiesContext(during, "s0007"); !errors.Is(err, context.Canceled) {
		t.Errorf("CopiesContext with a ctx done during the listing = %q, %v; want context.Canceled", got, err)
	}
}
