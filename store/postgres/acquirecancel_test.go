package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// An Acquire whose context ends while its INSERT is at the server may
// have the lease committed there and still return the context's error:
// the row then stayed, held by nobody, and the session was busy (leased by
// this very holder) until the lease expired. A delete by liteagent racing
// a turn it cancels hit it. Now a lease taken by the statement is released
// again (in the background) when the caller gets the context's error.
// Rounds cancel at growing delays, so that some land while the statement
// runs.
func TestACancelledAcquireLeavesNoLease(t *testing.T) {
	p := project(t, storage.Encoding{Codec: nil, Namespace: "acme", ProjectID: "p0"})
	cancelled := 0
	for round := range 60 {
		id := fmt.Sprintf("s%d", round)
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(time.Duration(round%30)*100*time.Microsecond, cancel)
		l, err := p.Acquire(ctx, id, postgres.LeaseOptions{})
		cancel()
		switch {
		case err == nil:
			if rerr := l.Release(t.Context()); rerr != nil {
				t.Fatal(rerr)
			}
		case errors.Is(err, context.Canceled):
			cancelled++
		default:
			t.Fatalf("round %d: %v", round, err)
		}
		// The clean-up runs in the background (the cancelled caller does
		// not wait for it): the lease is free well before its TTL (30 s).
		wctx, wcancel := context.WithTimeout(t.Context(), 5*time.Second)
		l2, err := p.Acquire(wctx, id, postgres.LeaseOptions{Wait: true})
		wcancel()
		if err != nil {
			t.Fatalf("round %d: the lease after a cancelled Acquire: %v", round, err)
		}
		if err := l2.Release(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d of 60 Acquires cancelled", cancelled)
}
