package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// A write whose reply was lost, asking whether it landed when Close comes
// on a database that answers (its COMMIT slow, so the check sees it in
// progress), is ended by Close: it went on asking, on connections it
// dialled after Close, for half the lease's TTL (until it ended the
// backend), 4.5 s after Close here. Close itself stays short.
func TestCloseEndsTheCheckOfAWriteUnderWay(t *testing.T) {
	for _, tc := range []struct {
		name  string
		table string // whose changes are slow to commit
		write func(ctx context.Context, c *postgres.Checkpointer) error
	}{
		// A one-statement append (its check looks for the records).
		{"append", "events", func(ctx context.Context, c *postgres.Checkpointer) error {
			_, err := c.Append(ctx, "closing", []session.Event{session.UserEvent{Message: model.UserText("late")}}, 1)
			return err
		}},
		// A truncation (its check asks after the transaction's id).
		{"truncate", "sessions", func(ctx context.Context, c *postgres.Checkpointer) error {
			return c.Truncate(ctx, "closing", 0, 1)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proxy, st := openProxied(t, postgres.Options{LeaseTTL: 10 * time.Second})
			schema := st.Schema()
			c := mpProject(t, st).Checkpointer()
			if _, err := c.Append(t.Context(), "closing", []session.Event{session.UserEvent{Message: model.UserText("first")}}, 0); err != nil {
				t.Fatal(err)
			}
			slowCommits(t, schema, tc.table, "INSERT OR UPDATE OR DELETE", 8*time.Second)
			// The request goes out, the connection is cut at once, and
			// the server, which does not get pgx's cancel, commits slowly.
			proxy.DropCancels(true)
			proxy.CutAfterRequest([]byte("closing"))
			if tc.name == "truncate" {
				proxy.CutAfterRequest([]byte("commit\x00"))
			}
			done := make(chan error, 1)
			go func() { done <- tc.write(t.Context(), c) }()
			time.Sleep(time.Second) // the write is in its check
			start := time.Now()
			st.Close()
			closed := time.Since(start)
			var err2 error
			select {
			case err2 = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("the write still runs 30 s after Close")
			}
			after := time.Since(start)
			t.Logf("Close took %v; the write returned %v after Close: %v", closed, after, err2)
			if closed > 2*time.Second {
				t.Errorf("Close took %v", closed)
			}
			if after > 1500*time.Millisecond {
				t.Errorf("the write returned %v after Close; its check went on", after)
			}
			var ou *postgres.OutcomeUnknownError
			if !errors.As(err2, &ou) || !errors.Is(ou.Check, postgres.ErrChecksClosed) {
				t.Errorf("the write = %v; want an *OutcomeUnknownError whose check was ended by Close", err2)
			}
		})
	}
}
