package postgres_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// The check after a one-statement append lost its reply waits for the
// append's backend, and cancels its statement halfway through, by its
// process id: but a process id is handed out again, once the backend is
// gone, to an unrelated backend of the same server, or, after a failover
// (or a restart), of another server. Such a backend (same database, same
// user: its pid made the append's by SetBackendPID, as the operating
// system may make it) is not taken for the append's: its statement is
// not cancelled, and the append is not held for the lease's TTL. On the
// same server, the append, which never reached it, fails with its
// *DatabaseError at once; on another server (the proxy retargeted to a
// cluster of its own, with the store's tables but not the records), with an
// *OutcomeUnknownError at once (the server the append ran on holds them).
func TestTheCheckAfterALostReplyKnowsTheBackendByMoreThanItsPid(t *testing.T) {
	for _, where := range []string{"same server", "another server"} {
		t.Run(where, func(t *testing.T) { pidReused(t, where == "another server") })
	}
}

func pidReused(t *testing.T, failover bool) {
	home := pgtest.URL(t)
	proxy, dsn := pgtest.NewProxy(t, home)
	const ttl = 3 * time.Second
	schema := freshSchema(t)
	st, err := postgres.Open(t.Context(), dsn, postgres.Options{Schema: schema, LeaseTTL: ttl, MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var victimPID atomic.Uint32
	postgres.SetBackendPID(st, func(uint32) uint32 { return victimPID.Load() })

	// The unrelated backend: on the home server, or on the other one,
	// running a statement that outlives the check's bound.
	victimDSN := home
	if failover {
		hu, err := url.Parse(home)
		if err != nil {
			t.Fatal(err)
		}
		victimDSN = pgtest.Cluster(t, 0, strings.TrimPrefix(hu.Path, "/"))
		// The store's tables are there too, as on a replica promoted.
		other, err := postgres.Open(t.Context(), victimDSN, postgres.Options{Schema: schema})
		if err != nil {
			t.Fatal(err)
		}
		other.Close()
	}
	victim, err := pgx.Connect(t.Context(), victimDSN)
	if err != nil {
		t.Fatal(err)
	}
	defer victim.Close(context.Background())
	victimPID.Store(victim.PgConn().PID())
	slept := make(chan error, 1)
	go func() {
		_, err := victim.Exec(context.Background(), `SELECT pg_sleep($1)`, (ttl + 2*time.Second).Seconds())
		slept <- err
	}()

	p := mpProject(t, st)
	cp := p.Checkpointer()
	appendN(t, p, "s1", 4) // on the pool's one connection, which stays open
	if failover {
		// The append lands at home, its reply is lost, and its check
		// dials the other server.
		proxy.Retarget(t, victimDSN)
		proxy.LoseReplyTo([]byte("marker-pid"))
	} else {
		// The append never reaches the server.
		proxy.DropRequest([]byte("marker-pid"))
	}
	start := time.Now()
	_, err = cp.Append(t.Context(), "s1", []session.Event{session.UserEvent{Message: model.UserText("marker-pid")}}, 4)
	d := time.Since(start)
	var ou *postgres.OutcomeUnknownError
	var de *postgres.DatabaseError
	switch {
	case failover && !errors.As(err, &ou):
		t.Errorf("Append = %v; want a *postgres.OutcomeUnknownError (the check reached another server)", err)
	case !failover && (!errors.As(err, &de) || errors.As(err, &ou)):
		t.Errorf("Append = %v; want the *postgres.DatabaseError (it never reached the server)", err)
	}
	if d > ttl/2 {
		t.Errorf("Append returned after %v: the check waited for an unrelated backend", d)
	}
	if err := <-slept; err != nil {
		t.Errorf("the unrelated backend's statement = %v; want it left alone", err)
	}
	if failover {
		proxy.Retarget(t, home)
		proxy.Cut()
	}
	want := int64(4)
	if failover {
		want = 5
	}
	if head, err := cp.Head(t.Context(), "s1"); err != nil || head != want {
		t.Errorf("head %d, %v; want %d", head, err, want)
	}
}
