package postgres_test

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// An Acquire whose COMMIT's reply was lost, found committed by the check,
// whose lease row was written since (a Clear of the project, run by
// another process as the Acquire goes to read its row back, removed it):
// the lease is not this Acquire's, which fails with its *DatabaseError
// (nothing held), and the session is free: both processes take it at
// once. Without leaseLanded's branch for a row not found, the Acquire
// was an *OutcomeUnknownError.
func TestAnAcquireWhoseLeaseWasWrittenSinceItsLostCommit(t *testing.T) {
	proxy, st := openProxied(t, postgres.Options{LeaseTTL: 10 * time.Second, Holder: "landed"})
	schema := st.Schema()
	enc := storage.Encoding{ProjectID: "landed"}
	p, err := st.Project(enc)
	if err != nil {
		t.Fatal(err)
	}
	warmLease(t, p)
	// The other process, straight to the database.
	other := openStore(t, postgres.Options{Schema: schema, Holder: "other"})
	op, err := other.Project(enc)
	if err != nil {
		t.Fatal(err)
	}
	var cleared atomic.Bool
	proxy.LoseReplyTo([]byte("commit\x00"))
	proxy.OnRequest([]byte("xmin::text"), func() { // leaseLanded reads the row back
		if err := op.Clear(t.Context()); err != nil {
			t.Errorf("Clear: %v", err)
		}
		cleared.Store(true)
	})
	l, err := p.Acquire(t.Context(), "s1", postgres.LeaseOptions{})
	if !cleared.Load() {
		t.Fatalf("Acquire = %v, %v without reading its row back", l, err)
	}
	var de *postgres.DatabaseError
	var ou *postgres.OutcomeUnknownError
	if err == nil || !errors.As(err, &de) || errors.As(err, &ou) {
		t.Fatalf("Acquire = %v, %v; want its *postgres.DatabaseError (the lease it took was removed)", l, err)
	}
	// Nothing held under either name: both take the session at once.
	ol, err := op.Acquire(t.Context(), "s1", postgres.LeaseOptions{})
	if err != nil {
		t.Fatalf("the other's Acquire = %v", err)
	}
	if err := ol.Release(t.Context()); err != nil {
		t.Fatal(err)
	}
	if l, err = p.Acquire(t.Context(), "s1", postgres.LeaseOptions{}); err != nil {
		t.Fatalf("Acquire again = %v", err)
	}
	_ = l.Release(t.Context())
}
