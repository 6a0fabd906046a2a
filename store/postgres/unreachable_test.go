package postgres_test

import (
	"context"
	"errors"
	"net"
	"net/url"
	"runtime"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// refusedDSN returns the test database's URL with its port changed to one
// nobody listens on.
func refusedDSN(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	u, err := url.Parse(pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	u.Host = addr
	return u.String()
}

// unreachableErr reports what is wrong with err, the error of a call on a
// database that cannot be reached made with a ctx whose deadline passed:
// it must say so in a type (errors.As a *ConnectError or *DatabaseError,
// or errors.Is context.DeadlineExceeded).
func unreachableErr(err error) string {
	var ce *postgres.ConnectError
	var de *postgres.DatabaseError
	switch {
	case err == nil:
		return "no error"
	case errors.As(err, &ce), errors.As(err, &de), errors.Is(err, context.DeadlineExceeded):
		return ""
	}
	return "untyped error"
}

// Open of a database that cannot be reached (nobody listens on the port,
// or a listener accepts and never answers) returns by its ctx's deadline
// with a typed error, and leaves no goroutine behind.
func TestOpenOfAnUnreachableDatabaseReturnsInTime(t *testing.T) {
	for _, tc := range []struct {
		name string
		dsn  func(t *testing.T) string
	}{
		{"refused", refusedDSN},
		{"mute", func(t *testing.T) string {
			proxy, dsn := pgtest.NewProxy(t, pgtest.URL(t))
			proxy.Hole(true)
			return dsn
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dsn := tc.dsn(t)
			u, err := url.Parse(dsn)
			if err != nil {
				t.Fatal(err)
			}
			before := runtime.NumGoroutine()
			ctx, cancel := context.WithTimeout(t.Context(), 500*time.Millisecond)
			defer cancel()
			start := time.Now()
			st, err := postgres.Open(ctx, dsn, postgres.Options{Schema: "unreachable"})
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("Open returned after %v", d)
			}
			if st != nil {
				st.Close()
			}
			// A *ConnectError naming host and database, whether the
			// server refused or never answered; errors.Is still tells a
			// deadline.
			var ce *postgres.ConnectError
			if !errors.As(err, &ce) || ce.Host() != u.Host {
				t.Errorf("Open: %v (%T), want a *postgres.ConnectError naming %s", err, err, u.Host)
			}
			if tc.name == "mute" && !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("Open: %v does not match context.DeadlineExceeded", err)
			}
			noGoroutinesLeft(t, before)
		})
	}
}

// noGoroutinesLeft fails t if more goroutines run than before, once those
// that are ending have had a moment (10 s: a loaded machine running -race
// may take seconds to schedule them; one that waits for the network, as
// pgx's cancel request does for 15 s, is still caught).
func noGoroutinesLeft(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines left (%d before):\n%s", n-before, before, buf[:runtime.Stack(buf, true)])
	}
}

// A heldStore is a Store opened through a proxy to the test database,
// with session "held" leased and one record (ev) appended: where the
// tests of a database that stops answering start.
type heldStore struct {
	proxy  *pgtest.Proxy
	schema string
	before int // goroutines before Open
	st     *postgres.Store
	p      *postgres.Project
	lease  *postgres.Lease
	ev     []session.Event
}

// openHeld opens a heldStore whose leases last ttl.
func openHeld(t *testing.T, ttl time.Duration) heldStore {
	t.Helper()
	h := heldStore{schema: freshSchema(t)}
	var dsn string
	h.proxy, dsn = pgtest.NewProxy(t, pgtest.URL(t))
	h.before = runtime.NumGoroutine()
	var err error
	if h.st, err = postgres.Open(t.Context(), dsn, postgres.Options{Schema: h.schema, LeaseTTL: ttl}); err != nil {
		t.Fatal(err)
	}
	h.p = mpProject(t, h.st)
	if h.lease, err = h.p.Acquire(t.Context(), "held", postgres.LeaseOptions{}); err != nil {
		t.Fatal(err)
	}
	h.ev = []session.Event{session.UserEvent{Message: model.UserText("hello")}}
	if _, err := h.p.Checkpointer().Append(t.Context(), "held", h.ev, session.AnyHead); err != nil {
		t.Fatal(err)
	}
	return h
}

// A database that stops answering under an open Store (it accepts
// connections and never answers, as a host whose network dropped does):
// Acquire, Append, Read and Release return by their ctx's deadline with a
// typed error, nothing is written, and Close returns within the lease's
// TTL and leaves no goroutine.
func TestAMuteDatabaseUnderAnOpenStore(t *testing.T) {
	h := openHeld(t, 2*time.Second)
	proxy, schema, before, st, p, l, ev := h.proxy, h.schema, h.before, h.st, h.p, h.lease, h.ev
	proxy.Hole(true)
	proxy.Cut()
	for _, step := range []struct {
		name string
		run  func(ctx context.Context) error
	}{
		{"Acquire", func(ctx context.Context) error {
			_, err := p.Acquire(ctx, "other", postgres.LeaseOptions{})
			return err
		}},
		{"Append", func(ctx context.Context) error {
			_, err := p.Checkpointer().Append(ctx, "held", ev, 1)
			return err
		}},
		{"Read", func(ctx context.Context) error {
			_, err := p.Checkpointer().Read(ctx, "held", 0)
			return err
		}},
		{"Clear", func(ctx context.Context) error { return p.Clear(ctx) }},
		{"Release", func(ctx context.Context) error { return l.Release(ctx) }},
	} {
		ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
		start := time.Now()
		err := step.run(ctx)
		cancel()
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s returned after %v", step.name, d)
		}
		if msg := unreachableErr(err); msg != "" {
			t.Errorf("%s: %s: %v (%T)", step.name, msg, err, err)
		}
	}
	proxy.Hole(false)
	proxy.Cut()
	// Nothing of the calls that timed out was written.
	other, err := postgres.Open(t.Context(), pgtest.URL(t), postgres.Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := mpProject(t, other).Checkpointer().Read(t.Context(), "held", 0)
	if err != nil || len(evs) != 1 {
		t.Errorf("after: %d records, %v; want the 1 written before", len(evs), err)
	}
	other.Close()
	start := time.Now()
	st.Close()
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("Close took %v", d)
	}
	noGoroutinesLeft(t, before)
}

// A Release that comes while a renewal waits on a database that stopped
// answering returns by its own ctx's deadline: it cancels the renewal
// rather than waiting out the renewal's timeout (a third of the TTL), and
// a tick that came meanwhile does not start another one.
func TestReleaseDoesNotWaitOutAStuckRenewal(t *testing.T) {
	const ttl = 6 * time.Second
	h := openHeld(t, ttl)
	proxy, l := h.proxy, h.lease
	defer h.st.Close()
	proxy.Hole(true)
	proxy.Cut()
	// The first renewal (at a third of the TTL) is under way, waiting on
	// a connection that never answers, for up to a third of the TTL.
	time.Sleep(ttl/3 + 300*time.Millisecond)
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := l.Release(ctx)
	if d := time.Since(start); d > ttl/6 {
		t.Errorf("Release returned after %v with a 300ms ctx; the renewal under way ends by %v", d, ttl/3)
	}
	if err == nil {
		t.Error("Release of a lease on a mute database returned nil")
	}
	// Close would end the cancel requests pgx sends for the connections
	// closed under a statement after closeGrace (see
	// TestCloseOnAMuteDatabaseReturnsPromptly); let the database answer
	// again so that it need not.
	proxy.Hole(false)
	proxy.Cut()
}
