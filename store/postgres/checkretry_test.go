package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// The check a write makes after losing its reply does not give up on its
// first connection failure: the server out of reach for 300 ms (new
// connections refused, or accepted and never answered) as the check
// starts is asked again, with backoff, within the lease's TTL, and the
// write, which landed, succeeds, instead of an *OutcomeUnknownError that
// a look a moment later would not have needed. Both checks: the
// transaction's (a truncation, by its id) and the one-statement append's
// (by its records).
func TestTheCheckAfterALostReplyOutlivesABriefOutage(t *testing.T) {
	for _, outage := range []string{"refused", "hole"} {
		for _, write := range []string{"truncate", "append"} {
			t.Run(outage+"/"+write, func(t *testing.T) { checkOutlivesOutage(t, outage, write) })
		}
	}
}

func checkOutlivesOutage(t *testing.T, outage, write string) {
	const ttl = 4 * time.Second
	proxy, st := openProxied(t, postgres.Options{LeaseTTL: ttl, MaxConns: 1})
	p := mpProject(t, st)
	cp := p.Checkpointer()
	appendN(t, p, "s1", 4)
	// The write runs on the pool's one connection, open; its reply is
	// lost, and its check dials a new one while the outage lasts.
	if _, err := cp.Head(t.Context(), "s1"); err != nil {
		t.Fatal(err)
	}
	match, wantHead := "commit", int64(2)
	if write == "append" {
		match, wantHead = "marker-outage", 5
	}
	proxy.LoseReplyTo([]byte(match))
	set := proxy.Down
	if outage == "hole" {
		set = proxy.Hole
	}
	set(true)
	over := time.AfterFunc(300*time.Millisecond, func() { set(false) })
	defer over.Stop()
	var err error
	start := time.Now()
	if write == "truncate" {
		err = cp.Truncate(t.Context(), "s1", 2, 4)
	} else {
		_, err = cp.Append(t.Context(), "s1", []session.Event{session.UserEvent{Message: model.UserText("marker-outage")}}, 4)
	}
	if err != nil {
		t.Errorf("%s = %v after %v; want nil (it landed, and the server was back 300 ms later)", write, err, time.Since(start))
	}
	<-time.After(time.Until(start.Add(300 * time.Millisecond)))
	if outage == "hole" {
		proxy.Cut() // the connections the hole held
	}
	if head, err := cp.Head(t.Context(), "s1"); err != nil || head != wantHead {
		t.Errorf("head %d, %v; want %d", head, err, wantHead)
	}
}

// The check's retries are bounded by the write's ctx as well as by the
// lease's TTL: with the server refusing every new connection, a write
// whose ctx ends after half a second (its TTL 20 s) returns soon after,
// with an *OutcomeUnknownError whose Check tells the deadline. (A guard
// on the retries above: before them, the check gave up at once.)
func TestTheCheckRetriesWithinTheWritesCtx(t *testing.T) {
	proxy, st := openProxied(t, postgres.Options{LeaseTTL: 20 * time.Second, MaxConns: 1})
	p := mpProject(t, st)
	cp := p.Checkpointer()
	appendN(t, p, "s1", 4)
	if _, err := cp.Head(t.Context(), "s1"); err != nil {
		t.Fatal(err)
	}
	proxy.LoseReplyTo([]byte("commit"))
	proxy.Down(true)
	defer proxy.Down(false)
	ctx, cancel := context.WithTimeout(t.Context(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := cp.Truncate(ctx, "s1", 2, 4)
	d := time.Since(start)
	var ou *postgres.OutcomeUnknownError
	if !errors.As(err, &ou) || !errors.Is(ou.Check, context.DeadlineExceeded) {
		t.Errorf("Truncate = %v; want a *postgres.OutcomeUnknownError whose Check is the deadline", err)
	}
	if d > 3*time.Second {
		t.Errorf("Truncate returned after %v; its ctx ended after 500 ms", d)
	}
}
