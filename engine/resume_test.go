package engine_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// callLog is a file checkpointer that records which reading methods the
// engine calls, in order.
type callLog struct {
	*session.FileCheckpointer
	mu    sync.Mutex
	calls []string
}

func (c *callLog) note(name string) {
	c.mu.Lock()
	c.calls = append(c.calls, name)
	c.mu.Unlock()
}

func (c *callLog) Head(ctx context.Context, id string) (int64, error) {
	c.note("Head")
	return c.FileCheckpointer.Head(ctx, id)
}

func (c *callLog) Read(ctx context.Context, id string, since int64) ([]session.StoredEvent, error) {
	c.note("Read")
	return c.FileCheckpointer.Read(ctx, id, since)
}

func (c *callLog) ReadFromView(ctx context.Context, id string) (*session.StoredEvent, []session.StoredEvent, error) {
	c.note("ReadFromView")
	return c.FileCheckpointer.ReadFromView(ctx, id)
}

// A fresh engine (a restart) reads a session from its latest view, first
// thing: no Read, and no Head before it, since a file checkpointer's head
// check validates the whole log.
func TestResumeReadsFromTheViewFirst(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, engine.Options{Checkpointer: fileCheckpointer(t, dir), Context: &engine.ContextOptions{}})
	h.echoTurn(t, "s", "first", strings.Repeat("dolor sit ", 300))
	if res, err := h.eng.Compact(t.Context(), "s", engine.CompactOptions{}); err != nil || !res.Committed {
		t.Fatalf("Compact = %+v, %v", res, err)
	}
	cp := &callLog{FileCheckpointer: fileCheckpointer(t, dir).(*session.FileCheckpointer)}
	h2 := newHarness(t, engine.Options{Checkpointer: cp, Context: &engine.ContextOptions{}})
	h2.p.Reply(modeltest.Text("ok"))
	if _, _, err := h2.turn(t, t.Context(), "s", "next"); err != nil {
		t.Fatal(err)
	}
	cp.mu.Lock()
	defer cp.mu.Unlock()
	if len(cp.calls) == 0 || cp.calls[0] != "ReadFromView" || slices.Contains(cp.calls, "Read") {
		t.Errorf("reads of the resumed turn: %v, want ReadFromView first and no Read", cp.calls)
	}
}
