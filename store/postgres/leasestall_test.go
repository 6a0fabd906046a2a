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
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// The removal of a session's lease row does not stall the Acquires of the
// whole project while another transaction holds that row locked (a write
// without a lease under way, or a holder stopped in the middle of one):
// it held the project's high-water row FOR UPDATE while it waited for the
// lease row, and every Acquire of every session of the project waits for
// the high-water row. The row is left for a later removal or a sweep, and
// a sweep skips it too.
func TestALockedLeaseRowDoesNotStallTheProjectsAcquires(t *testing.T) {
	ctx := t.Context()
	schema := freshSchema(t)
	st := openStore(t, postgres.Options{Schema: schema})
	p := mpProject(t, st)
	l, err := p.Acquire(ctx, "stuck", postgres.LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ev := session.UserEvent{Message: model.UserText("hello")}
	if _, err := p.Checkpointer().Append(ctx, "stuck", []session.Event{ev}, session.AnyHead); err != nil {
		t.Fatal(err)
	}
	if err := l.Release(ctx); err != nil {
		t.Fatal(err)
	}
	// Another connection holds the ended row locked, as a write's
	// transaction does.
	conn, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(context.Background()) }()
	var n int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM `+schema+`.leases WHERE project = 'mp' AND session = 'stuck' FOR SHARE) x`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("locking the lease row: %d rows, %v", n, err)
	}
	for _, step := range []struct {
		name string
		run  func(context.Context) error
	}{
		{"DeleteSession", func(ctx context.Context) error { return p.DeleteSession(ctx, "stuck") }},
		{"Sweep", func(ctx context.Context) error {
			_, err := st.Sweep(ctx, postgres.SweepOptions{MaxAge: time.Hour})
			return err
		}},
	} {
		done := make(chan error, 1)
		go func() {
			sctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			done <- step.run(sctx)
		}()
		// Waiting for the row, or done (then done is read again below).
		select {
		case err := <-done:
			done <- err
		case <-time.After(300 * time.Millisecond):
		}
		actx, cancel := context.WithTimeout(ctx, 3*time.Second)
		other, err := p.Acquire(actx, "other-"+step.name, postgres.LeaseOptions{})
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s waiting for a locked lease row: an Acquire of another session waited 3s", step.name)
			_ = tx.Rollback(ctx)
			<-done
			return
		}
		if err != nil {
			t.Fatalf("%s: Acquire: %v", step.name, err)
		}
		if err := other.Release(ctx); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	// Once the row is no longer locked, a sweep removes it, and the next
	// acquisition of the id starts above its token.
	rep, err := st.Sweep(ctx, postgres.SweepOptions{MaxAge: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if rep.LeaseRows != 1 {
		t.Errorf("the sweep after the lock removed %d lease rows, want 1 (stuck's)", rep.LeaseRows)
	}
	again, err := p.Acquire(ctx, "stuck", postgres.LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Release(context.Background())
	if again.Token() <= l.Token() {
		t.Errorf("stuck drew token %d again after %d", again.Token(), l.Token())
	}
}
