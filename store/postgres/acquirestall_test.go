package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// An Acquire whose caller gives up returns at once, even while the
// database does not answer its INSERT (here: another transaction holds the
// leases table locked): since the INSERT runs to its end (so as not to
// leave a committed lease nobody holds), a cancelled Acquire waited for
// it, up to the lease's TTL, and liteagent holds its agent-wide lease lock
// meanwhile. The lease the statement takes once the database answers is
// released in the background, so the session is free at once after.
func TestAnAcquireOnAStalledDatabaseReturnsWhenCancelled(t *testing.T) {
	_, _, p, tx := stalledProject(t)
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		l, err := p.Acquire(ctx, "s1", postgres.LeaseOptions{})
		if err == nil {
			_ = l.Release(context.Background())
		}
		done <- err
	}()
	var aerr error
	select {
	case aerr = <-done:
	case <-time.After(3 * time.Second):
		t.Errorf("Acquire still waiting %v after its context ended", time.Since(start)-300*time.Millisecond)
		if err := tx.Rollback(t.Context()); err != nil {
			t.Fatal(err)
		}
		aerr = <-done
	}
	cancel()
	if !errors.Is(aerr, context.DeadlineExceeded) {
		t.Fatalf("Acquire on a stalled database = %v, want the context's error", aerr)
	}
	// The database answers: the statement commits its lease, which the
	// clean-up releases.
	if err := tx.Commit(t.Context()); err != nil && !errors.Is(err, pgx.ErrTxClosed) {
		t.Fatal(err)
	}
	wctx, wcancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer wcancel()
	l, err := p.Acquire(wctx, "s1", postgres.LeaseOptions{Wait: true})
	if err != nil {
		t.Fatalf("the session after the cancelled Acquire: %v", err)
	}
	if err := l.Release(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// stalledProject opens a store on a fresh schema (leases of 20 s) and
// its project "mp", whose leases table does not answer until tx ends (see
// stallLeases). The project has had a lease (of session "warm"), so that
// the statement an Acquire leaves at the stalled database is the one
// taking the lease: the first Acquire of a project makes the project's
// token row first, and a test stalled on that tests less.
func stalledProject(t *testing.T) (schema string, st *postgres.Store, p *postgres.Project, tx pgx.Tx) {
	t.Helper()
	schema = freshSchema(t)
	st = openStore(t, postgres.Options{Schema: schema, LeaseTTL: 20 * time.Second})
	p = mpProject(t, st)
	warmLease(t, p)
	return schema, st, p, stallLeases(t, schema)
}

// stallLeases makes the leases table of schema not answer the store's
// statements until the transaction it returns ends (it holds the table
// locked); it is rolled back when t ends.
func stallLeases(t *testing.T, schema string) pgx.Tx {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	tx, err := conn.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tx.Rollback(context.Background()) })
	if _, err := tx.Exec(t.Context(), "LOCK TABLE "+schema+".leases IN EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	return tx
}

// waitForALockWaiter polls pg_locks until a statement waits for a lock on
// table (schema-qualified), for up to 30 s: the moment a test has made a
// statement of the store wait, without guessing how long that takes.
func waitForALockWaiter(t *testing.T, table string) {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		var n int
		if err := conn.QueryRow(t.Context(), "SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = $1::regclass", table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
	}
	t.Fatalf("no statement waited for a lock on %s within 30 s", table)
}
