package postgres_test

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// Close on a database that answers, slowly, waits for the statement an
// abandoned Acquire left there and for the release of the lease it takes:
// closing every connection after 2 s (as on a database that does not
// answer) cut the statement's connection while it waited for a lock, and
// the server, which does not look at the connection meanwhile, committed
// the lease once the lock came, with nobody left to release it: the
// session busy for the lease's TTL.
func TestCloseOnASlowDatabaseWaitsForAnAbandonedAcquire(t *testing.T) {
	schema, st, p, tx := stalledProject(t)
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	if _, err := p.Acquire(ctx, "s1", postgres.LeaseOptions{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Acquire on a stalled database = %v, want the context's error", err)
	}
	waitForALockWaiter(t, schema+".leases")
	closed := make(chan time.Duration, 1)
	start := time.Now()
	go func() {
		st.Close()
		closed <- time.Since(start)
	}()
	// The lock is held past Close's 2 s, on a database that answers.
	time.Sleep(3 * time.Second)
	if err := tx.Commit(t.Context()); err != nil {
		t.Fatal(err)
	}
	select {
	case d := <-closed:
		t.Logf("Close took %v", d)
	case <-time.After(30 * time.Second):
		t.Fatal("Close still waiting 30 s after the database answered")
	}
	// The session is free: the lease the statement took was released.
	other := openStore(t, postgres.Options{Schema: schema, LeaseTTL: 20 * time.Second})
	actx, acancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer acancel()
	l, err := mpProject(t, other).Acquire(actx, "s1", postgres.LeaseOptions{})
	if err != nil {
		t.Fatalf("the session after Close: %v (the abandoned Acquire's lease left taken)", err)
	}
	if err := l.Release(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// Close on a database that does not answer, under the statement of an
// abandoned Acquire (bounded by the lease's TTL, 20 s here), does not
// wait for it: it finds the database mute and returns after about 3 s,
// leaving no goroutine.
func TestCloseOnAMuteDatabaseDoesNotWaitForAnAbandonedAcquire(t *testing.T) {
	proxy, dsn := pgtest.NewProxy(t, pgtest.URL(t))
	before := runtime.NumGoroutine()
	st, err := postgres.Open(t.Context(), dsn, postgres.Options{Schema: freshSchema(t), LeaseTTL: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	p := mpProject(t, st)
	warmLease(t, p)
	proxy.Hole(true)
	proxy.Mute(true)
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	if _, err := p.Acquire(ctx, "s1", postgres.LeaseOptions{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Acquire on a mute database = %v, want the context's error", err)
	}
	start := time.Now()
	st.Close()
	d := time.Since(start)
	t.Logf("Close took %v", d)
	if d > 8*time.Second { // the statement's own bound is 20 s
		t.Errorf("Close took %v", d)
	}
	noGoroutinesLeft(t, before)
}
