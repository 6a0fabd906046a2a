package postgres_test

import (
	"context"
	"testing"
	"time"
)

// Close on a database that stopped answering (it accepts connections and
// never answers) returns promptly, though calls gave up on it under a
// statement (whose connections pgx closes with a cancel request it would
// give 15 s) or while connecting, and leaves no goroutine.
func TestCloseOnAMuteDatabaseReturnsPromptly(t *testing.T) {
	h := openHeld(t, 2*time.Second)
	proxy, before, st, p, l, ev := h.proxy, h.before, h.st, h.p, h.lease, h.ev
	proxy.Hole(true)
	proxy.Mute(true) // the connections already open stop answering too
	for _, run := range []func(ctx context.Context) error{
		func(ctx context.Context) error {
			_, err := p.Checkpointer().Append(ctx, "held", ev, 1)
			return err
		},
		func(ctx context.Context) error {
			_, err := p.Checkpointer().Read(ctx, "held", 0)
			return err
		},
		func(ctx context.Context) error { return l.Release(ctx) },
	} {
		ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
		if err := run(ctx); err == nil {
			t.Error("a call on a mute database returned nil")
		}
		cancel()
	}
	start := time.Now()
	st.Close()
	d := time.Since(start)
	t.Logf("Close took %v", d)
	if d > 5*time.Second { // 15 s before the fix
		t.Errorf("Close took %v", d)
	}
	noGoroutinesLeft(t, before)
}
