package postgres_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// Leases whose Release failed (the database unreachable) of sessions that
// are never acquired again are forgotten once their TTL has passed: they
// have ended by expiry, and a Store that releases many sessions through an
// outage must not keep one entry per session for its lifetime. A lease
// whose TTL has not passed is still remembered, so that the next Acquire
// of its session ends it.
func TestUnreleasedLeasesAreForgottenOnceExpired(t *testing.T) {
	const ttl = 600 * time.Millisecond
	proxy, st := openProxied(t, postgres.Options{LeaseTTL: ttl})
	p, err := st.Project(storage.Encoding{ProjectID: "ub"})
	if err != nil {
		t.Fatal(err)
	}
	failRelease := func(ids ...string) {
		t.Helper()
		var ls []*postgres.Lease
		for _, id := range ids {
			l, err := p.Acquire(t.Context(), id, postgres.LeaseOptions{})
			if err != nil {
				t.Fatalf("Acquire %s: %v", id, err)
			}
			ls = append(ls, l)
		}
		proxy.Down(true)
		proxy.Cut()
		for _, l := range ls {
			ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
			if err := l.Release(ctx); err == nil {
				t.Fatalf("Release of %s with the database down succeeded", l.SessionID())
			}
			cancel()
		}
		proxy.Down(false)
	}
	var ids []string
	for i := range 20 {
		ids = append(ids, fmt.Sprint("gone", i))
	}
	failRelease(ids...)
	if n := postgres.Unreleased(st); n != len(ids) {
		t.Fatalf("%d unreleased leases remembered, want %d", n, len(ids))
	}
	time.Sleep(ttl + 100*time.Millisecond)
	failRelease("fresh")
	if n := postgres.Unreleased(st); n != 1 {
		t.Errorf("%d unreleased leases remembered after the first %d expired, want 1 (the fresh one)", n, len(ids))
	}
	// The fresh one is still ended by the next Acquire of its session,
	// long before its TTL.
	l, err := p.Acquire(t.Context(), "fresh", postgres.LeaseOptions{})
	if err != nil {
		t.Fatalf("Acquire of the session whose Release failed: %v", err)
	}
	defer l.Release(context.Background())
	if n := postgres.Unreleased(st); n != 0 {
		t.Errorf("%d unreleased leases remembered after the Acquire ended the last, want 0", n)
	}
	// An Acquire of another session forgets expired entries too.
	failRelease("late")
	time.Sleep(ttl + 100*time.Millisecond)
	l2, err := p.Acquire(t.Context(), "other", postgres.LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Release(context.Background())
	if n := postgres.Unreleased(st); n != 0 {
		t.Errorf("%d unreleased leases remembered after an Acquire of another session, the last expired, want 0", n)
	}
}
