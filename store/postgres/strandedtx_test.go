package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// A checked write whose connection is lost before its COMMIT went out
// (here under its DELETE, the server's side left open, as a network
// partition leaves it) cannot have committed: its *DatabaseError comes
// at once, and its backend, left waiting in the transaction with the
// session's row locked, is ended, so that the retry goes through. The
// check asked the server about the transaction as if its COMMIT might
// have gone out: it waited, in progress, for half the lease's TTL before
// ending the backend (and, had the server been out of reach, reported an
// *OutcomeUnknownError for a write that could not have landed).
func TestAWriteLostBeforeItsCommitFailsAtOnce(t *testing.T) {
	const ttl = 4 * time.Second
	proxy, st := openProxied(t, postgres.Options{LeaseTTL: ttl})
	p := mpProject(t, st)
	cp := p.Checkpointer()
	appendN(t, p, "s1", 4)
	proxy.StrandRequest([]byte("DELETE FROM"))
	start := time.Now()
	err := cp.Truncate(t.Context(), "s1", 1, 4)
	took := time.Since(start)
	var de *postgres.DatabaseError
	var ou *postgres.OutcomeUnknownError
	if !errors.As(err, &de) || errors.As(err, &ou) {
		t.Errorf("Truncate = %v; want a *postgres.DatabaseError (its COMMIT never went out)", err)
	}
	if took > ttl/4 {
		t.Errorf("Truncate returned after %v; want at once (its COMMIT never went out)", took)
	}
	// The backend left in the transaction holds the session's row: the
	// retry waits for it unless it was ended.
	ctx, cancel := context.WithTimeout(t.Context(), ttl/4)
	defer cancel()
	if err := cp.Truncate(ctx, "s1", 1, 4); err != nil {
		t.Fatalf("the retry = %v (after %v)", err, time.Since(start))
	}
	if head, err := cp.Head(t.Context(), "s1"); err != nil || head != 1 {
		t.Errorf("head %d, %v; want 1", head, err)
	}
}
