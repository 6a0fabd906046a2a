package postgres_test

import (
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// The round trips of the Store's hot writes, counted at the proxy once
// the statements are prepared: an append is one statement, a checked
// write (a truncation) its pipelined BEGIN and id, its statements and its
// COMMIT, an Acquire its BEGIN and id, its statement and its COMMIT. Any
// extra (a ping, a statement prepared again, a rollback) shows.
func TestTheRoundTripsOfTheHotWrites(t *testing.T) {
	roundTripsOfTheHotWrites(t, 0)
}

// The same, each write after a pause of over a second, as a machine under
// load may make between two of them: pgxpool pings a connection idle that
// long when it hands it out (one simple query more), which the count
// allows for only then.
func TestTheRoundTripsOfTheHotWritesAfterAPause(t *testing.T) {
	roundTripsOfTheHotWrites(t, 1100*time.Millisecond)
}

func roundTripsOfTheHotWrites(t *testing.T, pause time.Duration) {
	proxy, st := openProxied(t, postgres.Options{MaxConns: 1})
	p := mpProject(t, st)
	c := p.Checkpointer()
	ev := []session.Event{session.UserEvent{Message: model.UserText("hi")}}
	var head int64
	// Each write once first, so that its statements are prepared.
	warm := func() {
		l, err := p.Acquire(t.Context(), "rt", postgres.LeaseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if head, err = c.Append(t.Context(), "rt", ev, head); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.Truncate(t.Context(), "rt", head-1, head); err != nil {
			t.Fatal(err)
		}
		head--
		if err := l.Release(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	warm()
	last := time.Now()
	var held *postgres.Lease
	defer func() { _ = held.Release(t.Context()) }()
	for _, tc := range []struct {
		name string
		want int
		run  func() error
	}{
		{"append", 1, func() error {
			var err error
			head, err = c.Append(t.Context(), "rt", ev, head)
			return err
		}},
		{"truncate", 6, func() error { // BEGIN with the id; lease; lock; delete; update; COMMIT
			err := c.Truncate(t.Context(), "rt", head-1, head)
			head--
			return err
		}},
		{"acquire", 3, func() error { // BEGIN with the id; the lease; COMMIT
			var err error
			held, err = p.Acquire(t.Context(), "rt2", postgres.LeaseOptions{})
			return err
		}},
	} {
		time.Sleep(pause)
		proxy.ResetMessages()
		if err := tc.run(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		m := proxy.Messages()
		t.Logf("%s: %v", tc.name, m)
		// pgxpool pings a connection idle over a second as it hands it
		// out: one simple query more, possible only if that long passed
		// since the last write ended (a pause, or a stall under load).
		want := tc.want
		if idle := time.Since(last); idle > time.Second {
			want++
			t.Logf("%s: %v since the last write: a ping allowed for", tc.name, idle)
		}
		if m.RoundTrips() != want || m.Conns() != 1 || m.Of('P') != 0 {
			t.Errorf("%s: %d round trips on %d connections, %d statements prepared (%v); want %d on 1, none prepared",
				tc.name, m.RoundTrips(), m.Conns(), m.Of('P'), m, want)
		}
		last = time.Now()
	}
}
