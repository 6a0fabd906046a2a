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

// Close on a database that stopped answering, while an abandoned
// Acquire's check asks whether its lost COMMIT landed, does not wait for
// the check's bound (the lease's TTL, 20 s here): once Close has closed
// the Store's connections, the check's dials are refused by the Store
// itself, which is no outage to wait out.
func TestCloseDoesNotWaitForTheCheckOfAnAbandonedAcquire(t *testing.T) {
	proxy, dsn := pgtest.NewProxy(t, pgtest.URL(t))
	before := runtime.NumGoroutine()
	st, err := postgres.Open(t.Context(), dsn, postgres.Options{Schema: freshSchema(t), LeaseTTL: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	p := mpProject(t, st)
	warmLease(t, p)
	// The pool's connection carries the Acquire up to its COMMIT, which
	// the network loses with the connection; new connections (the
	// check's) are accepted and never answered.
	proxy.Hole(true)
	proxy.StrandRequest([]byte("commit\x00"))
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	if _, err := p.Acquire(ctx, "s1", postgres.LeaseOptions{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Acquire = %v, want the context's error", err)
	}
	start := time.Now()
	st.Close()
	d := time.Since(start)
	t.Logf("Close took %v", d)
	if d > 8*time.Second {
		t.Errorf("Close took %v; the check's bound is 20 s", d)
	}
	// The stranded backend, waiting in its transaction, goes (it holds
	// the schema's tables), and with it the proxy's pipes.
	proxy.Hole(false)
	proxy.Cut()
	noGoroutinesLeft(t, before)
}
