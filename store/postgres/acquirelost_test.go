package postgres_test

import (
	"errors"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// An Acquire whose lease statement (or its COMMIT) reached the server and
// whose reply was lost learns whether it took the lease: it returned a
// *DatabaseError while the lease row held its Store's name, and every
// retry was a *BusyError naming this very process until the TTL passed.
// Now a lease that landed is returned (the reply to the COMMIT lost, or
// the connection cut once the COMMIT went out), and one that did not
// land (the reply to the statement lost, its transaction never
// committed) leaves the session free: a retry at once takes it.
func TestAnAcquireWhoseReplyIsLostLearnsItsOutcome(t *testing.T) {
	for _, tc := range []struct {
		name   string
		lose   func(*pgtest.Proxy)
		landed bool // the attempt must have taken the lease
		slow   bool // the COMMIT takes a while (a deferred trigger), so the cut comes first
	}{
		{"statement reply lost", func(p *pgtest.Proxy) { p.LoseReplyTo([]byte("lost-reply")) }, false, false}, // its holder: in the Bind of the lease statement (prepared once)
		{"commit reply lost", func(p *pgtest.Proxy) { p.LoseReplyTo([]byte("commit\x00")) }, true, false},
		{"cut after commit", func(p *pgtest.Proxy) { p.DropCancels(true); p.CutAfterRequest([]byte("commit\x00")) }, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const ttl = 10 * time.Second // a lease left behind stays busy well past the test's retry
			proxy, st := openProxied(t, postgres.Options{LeaseTTL: ttl, Holder: "lost-reply"})
			schema := st.Schema()
			p, err := st.Project(storage.Encoding{ProjectID: "lost"})
			if err != nil {
				t.Fatal(err)
			}
			// The project's high-water row first, so that the rule meets
			// the lease's own statement.
			warm, err := p.Acquire(t.Context(), "s0", postgres.LeaseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if err := warm.Release(t.Context()); err != nil {
				t.Fatal(err)
			}

			conn := pgtest.Connect(t)
			if tc.slow {
				slowCommits(t, schema, "leases", "INSERT OR UPDATE", 500*time.Millisecond)
			}
			tc.lose(proxy)
			start := time.Now()
			l, err := p.Acquire(t.Context(), "s1", postgres.LeaseOptions{})
			took := time.Since(start)
			switch {
			case err != nil && tc.landed:
				t.Fatalf("Acquire = %v after %v; want the lease (its COMMIT committed)", err, took)
			case err != nil:
				var de *postgres.DatabaseError
				if !errors.As(err, &de) {
					t.Errorf("Acquire = %v; want a *postgres.DatabaseError", err)
				}
				l, err = p.Acquire(t.Context(), "s1", postgres.LeaseOptions{})
				if err != nil {
					t.Fatalf("Acquire again = %v; want the lease (the first attempt's error says it did not take it)", err)
				}
			}
			if tc.slow {
				if _, err := conn.Exec(t.Context(), `DROP TRIGGER slow_commit ON `+schema+`.leases`); err != nil {
					t.Fatal(err)
				}
			}
			if took > ttl/2 {
				t.Errorf("Acquire took %v", took)
			}

			// The lease is this Project's, with the token the row holds:
			// another Store is refused, and the release frees it.
			other := openStore(t, postgres.Options{Schema: schema, Holder: "other"})
			op, err := other.Project(storage.Encoding{ProjectID: "lost"})
			if err != nil {
				t.Fatal(err)
			}
			var busy *postgres.BusyError
			if _, err := op.Acquire(t.Context(), "s1", postgres.LeaseOptions{}); !errors.As(err, &busy) || busy.Holder != "lost-reply" {
				t.Fatalf("another Store's Acquire = %v; want a *postgres.BusyError naming lost-reply", err)
			}
			var token int64
			if err := conn.QueryRow(t.Context(), `SELECT token FROM `+schema+`.leases WHERE project = 'lost' AND session = 's1'`).Scan(&token); err != nil || token != l.Token() {
				t.Fatalf("the row's token %d, %v; the lease's %d", token, err, l.Token())
			}
			if err := l.Release(t.Context()); err != nil {
				t.Fatal(err)
			}
			ol, err := op.Acquire(t.Context(), "s1", postgres.LeaseOptions{})
			if err != nil {
				t.Fatalf("another Store's Acquire after the release = %v", err)
			}
			_ = ol.Release(t.Context())
		})
	}
}
