package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// A Store closed right after an Acquire gave up (its INSERT still at a
// stalled database, finished in the background) leaves no live lease
// behind: Close waits for the background to release what the INSERT took.
// Without that, the release ran on the closed pool and failed, and the
// session stayed busy for other processes for the whole TTL.
func TestACloseAfterACancelledAcquireLeavesNoLease(t *testing.T) {
	schema, st, p, tx := stalledProject(t)
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	if _, err := p.Acquire(ctx, "s1", postgres.LeaseOptions{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Acquire on a stalled database = %v, want the context's error", err)
	}
	closed := make(chan struct{})
	go func() {
		st.Close()
		close(closed)
	}()
	time.Sleep(200 * time.Millisecond) // Close under way
	if err := tx.Commit(t.Context()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close still waiting 10s after the database answered")
	}
	other := mpProject(t, openStore(t, postgres.Options{Schema: schema, LeaseTTL: 20 * time.Second}))
	l, err := other.Acquire(t.Context(), "s1", postgres.LeaseOptions{})
	if err != nil {
		t.Fatalf("another process's Acquire after the Close: %v (a lease nobody holds)", err)
	}
	_ = l.Release(t.Context())
}

// Project.Clear does not start a session's fencing tokens again: it
// deleted the lease rows, and the next acquisition drew token 1 again,
// the token of a holder that took the lease before the Clear (and still
// writes, its appends passing the token check).
func TestAClearDoesNotGiveALeaseTokenTwice(t *testing.T) {
	schema := freshSchema(t)
	a := openStore(t, postgres.Options{Schema: schema, LeaseTTL: 20 * time.Second})
	b := openStore(t, postgres.Options{Schema: schema, LeaseTTL: 20 * time.Second})
	pa, err := a.Project(storage.Encoding{ProjectID: "mp"})
	if err != nil {
		t.Fatal(err)
	}
	pb, err := b.Project(storage.Encoding{ProjectID: "mp"})
	if err != nil {
		t.Fatal(err)
	}
	first, err := pa.Acquire(t.Context(), "s1", postgres.LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Release(context.Background())
	if err := pb.Clear(t.Context()); err != nil {
		t.Fatal(err)
	}
	second, err := pb.Acquire(t.Context(), "s1", postgres.LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer second.Release(context.Background())
	if first.Token() == second.Token() {
		t.Fatalf("the lease after a Clear has token %d, the token of the holder before it", second.Token())
	}
}
