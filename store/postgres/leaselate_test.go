package postgres_test

import (
	"errors"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// A renewal whose request reaches the server only after Release ended the
// lease (Release cancelled it, and the network delivered it late) does not
// revive the lease: the session can be acquired at once, as after any
// Release, instead of staying busy for a TTL with nobody holding it.
func TestALateRenewalDoesNotReviveAReleasedLease(t *testing.T) {
	proxy, dsn := pgtest.NewProxy(t, pgtest.URL(t))
	const ttl = 3 * time.Second
	schema := freshSchema(t)
	st, err := postgres.Open(t.Context(), dsn, postgres.Options{Schema: schema, LeaseTTL: ttl})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const id = "late-renewal-xyzzy"
	p := mpProject(t, st)
	l, err := p.Acquire(t.Context(), id, postgres.LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A session with a log keeps its lease row, ended, on Release.
	if _, err := p.Checkpointer().Append(t.Context(), id, []session.Event{session.UserEvent{Message: model.UserText("one")}}, 0); err != nil {
		t.Fatal(err)
	}
	// The next request naming the session is the first renewal's (at a
	// third of the TTL): it reaches the server 1.5 s late.
	const delay = 1500 * time.Millisecond
	proxy.DelayRequest([]byte(id), delay)
	time.Sleep(ttl/3 + 300*time.Millisecond)
	if err := l.Release(t.Context()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(delay) // the renewal lands
	var ended bool
	scanOne(t, `SELECT expires = 'epoch' FROM `+schema+`.leases WHERE session = $1`, &ended, id)
	if !ended {
		t.Error("the released lease's row is no longer ended")
	}
	l2, err := mpProject(t, st).Acquire(t.Context(), id, postgres.LeaseOptions{})
	var busy *postgres.BusyError
	if errors.As(err, &busy) {
		t.Fatalf("Acquire after Release = %v: the late renewal revived the released lease", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if l2.Token() != l.Token()+1 {
		t.Errorf("token %d after %d", l2.Token(), l.Token())
	}
	if err := l2.Release(t.Context()); err != nil {
		t.Fatal(err)
	}
}
