package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// An append whose connection is lost while its statement is still waiting
// on the server (for the lease row, which a renewal or an Acquire holds for
// a moment) must not be reported as failed while the statement goes on to
// commit: the check after the lost reply waits for the old backend to be
// done, so that what it reports is what the log holds. A failed append
// that lands all the same makes the caller's retry write its records
// twice. When the lease passes to another holder meanwhile, the statement
// writes nothing, and the append fails.
func TestALostReplyWhileTheStatementStillWaits(t *testing.T) {
	for _, tc := range []struct {
		name         string
		steal, first bool
		hold         time.Duration // how long the lease row is held
	}{
		{name: "lands", hold: time.Second},
		{name: "first append lands", first: true, hold: time.Second},
		{name: "lease taken", steal: true, hold: time.Second},
		// Held past the check's bound (the TTL, 2 s here): the statement
		// is cancelled halfway, and lands neither before nor after.
		{name: "held past the bound", hold: 3 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) { lostReplyWhileWaiting(t, tc.steal, tc.first, tc.hold) })
	}
}

// lostReplyWhileWaiting is one case of
// TestALostReplyWhileTheStatementStillWaits: steal gives the lease to
// another holder while the statement waits, first makes the append the
// session's first (whose row it creates), hold is how long the lease row
// is held once the append is sent.
func lostReplyWhileWaiting(t *testing.T, steal, first bool, hold time.Duration) {
	proxy, st := openProxied(t, postgres.Options{LeaseTTL: 2 * time.Second})
	schema := st.Schema()
	ctx := t.Context()
	p, err := st.Project(storage.Encoding{ProjectID: "inflight"})
	if err != nil {
		t.Fatal(err)
	}
	const id = "s1"
	lease, err := p.Acquire(ctx, id, postgres.LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer lease.Release(context.Background())
	cp := p.Checkpointer()
	ev := func(s string) []session.Event { return []session.Event{session.UserEvent{Message: model.UserText(s)}} }
	var head int64
	if !first {
		if head, err = cp.Append(ctx, id, ev("one"), 0); err != nil {
			t.Fatal(err)
		}
	}

	// Another transaction holds the lease row, straight on the server.
	blocker, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer blocker.Close(context.Background())
	tx, err := blocker.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lock := "SELECT 1 FROM " + schema + ".leases WHERE session = $1 FOR UPDATE"
	if steal {
		// Another holder's lease, with a newer token.
		lock = "UPDATE " + schema + ".leases SET token = token + 1000 WHERE session = $1"
	}
	if _, err := tx.Exec(ctx, lock, id); err != nil {
		t.Fatal(err)
	}
	// It lets go a moment after the append's connection is lost.
	released := make(chan struct{})
	go func() {
		defer close(released)
		time.Sleep(hold)
		_ = tx.Commit(context.Background())
	}()

	// The cancel pgx sends as the connection fails never arrives.
	proxy.DropCancels(true)
	proxy.CutAfterRequest([]byte("marker-inflight"))
	start := time.Now()
	got, appendErr := cp.Append(ctx, id, ev("marker-inflight"), head)
	took := time.Since(start)
	t.Logf("Append after %v = %d, %v", took, got, appendErr)
	if took > 3*time.Second {
		t.Errorf("Append took %v, more than the TTL (2 s) and a margin", took)
	}
	<-released
	var de *postgres.DatabaseError
	if appendErr != nil && !errors.As(appendErr, &de) {
		t.Fatalf("Append = %v, want nil or a *postgres.DatabaseError", appendErr)
	}

	// Whatever the statement did is done once its backend is gone.
	waitBackendsGone(t, schema)
	evs, err := cp.Read(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	landed := len(evs) == int(head)+1
	switch {
	case steal && (appendErr == nil || landed):
		t.Errorf("Append = %d, %v with the lease taken; the log holds %d records, want a failure and %d", got, appendErr, len(evs), head)
	case appendErr != nil && landed:
		t.Errorf("Append failed (%v) but its record landed: a retry writes it twice", appendErr)
	case appendErr == nil && !landed:
		t.Errorf("Append = %d, nil but the log holds %d records", got, len(evs))
	case appendErr == nil && got != head+1:
		t.Errorf("Append = %d, want %d", got, head+1)
	}
}

// waitBackendsGone waits until no backend is running a statement that
// names schema, other than the one asking.
func waitBackendsGone(t *testing.T, schema string) {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for deadline := time.Now().Add(10 * time.Second); ; {
		var n int
		if err := conn.QueryRow(t.Context(), `SELECT count(*) FROM pg_stat_activity
			WHERE pid <> pg_backend_pid() AND state <> 'idle' AND query LIKE '%' || $1 || '%'`, schema).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d backends still at work on %s", n, schema)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
