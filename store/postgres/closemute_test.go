package postgres_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// Close on a database that stopped answering (it accepts connections and
// never answers) returns promptly, though calls gave up on it under a
// statement (whose connections pgx closes with a cancel request it would
// give 15 s) or while connecting, and leaves no goroutine.
func TestCloseOnAMuteDatabaseReturnsPromptly(t *testing.T) {
	proxy, dsn := pgtest.NewProxy(t, pgtest.URL(t))
	before := runtime.NumGoroutine()
	st, err := postgres.Open(t.Context(), dsn, postgres.Options{Schema: freshSchema(t), LeaseTTL: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	p := mpProject(t, st)
	l, err := p.Acquire(t.Context(), "held", postgres.LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ev := []session.Event{session.UserEvent{Message: model.UserText("hello")}}
	if _, err := p.Checkpointer().Append(t.Context(), "held", ev, session.AnyHead); err != nil {
		t.Fatal(err)
	}
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
