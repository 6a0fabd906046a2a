package postgres_test

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// An Acquire whose COMMIT's reply was lost and whose check took most of
// the TTL (the server out of reach 4.5 s of 6) gets a lease whose row has little
// of its life left: its first renewal came a third of the TTL after the
// Acquire returned, after the row had expired, and another process took
// the session meanwhile from a holder that had just been told it held it.
// The lease found after a lost reply is renewed at once.
func TestALeaseFoundLateAfterALostReplyIsRenewedAtOnce(t *testing.T) {
	const ttl = 6 * time.Second
	proxy, st := openProxied(t, postgres.Options{LeaseTTL: ttl, Holder: "late"})
	enc := storage.Encoding{ProjectID: "late"}
	p, err := st.Project(enc)
	if err != nil {
		t.Fatal(err)
	}
	warmLease(t, p)
	other := openStore(t, postgres.Options{Schema: st.Schema(), Holder: "other"})
	op, err := other.Project(enc)
	if err != nil {
		t.Fatal(err)
	}
	// The COMMIT goes out, its reply is lost, and the server cannot be
	// reached for 4.5 s of the TTL's 6: the check asks again meanwhile.
	var held atomic.Bool
	proxy.LoseReplyTo([]byte("commit\x00"))
	proxy.OnRequest([]byte("commit\x00"), func() {
		held.Store(true)
		proxy.Down(true)
		time.AfterFunc(ttl*3/4, func() { proxy.Down(false) })
	})
	l, err := p.Acquire(t.Context(), "s1", postgres.LeaseOptions{})
	if !held.Load() {
		t.Fatalf("Acquire = %v, %v without its COMMIT", l, err)
	}
	if err != nil {
		t.Fatalf("Acquire = %v", err)
	}
	defer l.Release(t.Context())
	// The row, unrenewed, expired about a quarter of the TTL after the
	// Acquire returned; the first tick comes at a third.
	time.Sleep(ttl * 3 / 10)
	ol, err := op.Acquire(t.Context(), "s1", postgres.LeaseOptions{})
	var busy *postgres.BusyError
	if !errors.As(err, &busy) || busy.Holder != "late" {
		if ol != nil {
			_ = ol.Release(t.Context())
		}
		t.Errorf("the other's Acquire, %v after the lease was acquired = %v, %v; want a *BusyError naming late", ttl*3/10, ol, err)
	}
	if err := l.Err(); err != nil {
		t.Errorf("the lease: %v", err)
	}
}
