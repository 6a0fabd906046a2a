package postgres_test

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// An Acquire whose COMMIT's reply was lost, found committed by the check,
// whose server restarted before it read its lease row back: the row is
// there, live, under this Store's name, but on a server run other than
// the one that handed out the transaction's id, which is all the read
// goes by. It returned the write's *DatabaseError, which says the lease
// was not taken, the session then busy under this process's own name for
// the TTL; now it is an *OutcomeUnknownError (the lease, if taken,
// expires after its TTL).
func TestAnAcquireWhoseServerRestartedBeforeItsRowWasReadBack(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL cluster")
	}
	u, restart := pgtest.RestartableCluster(t, 0, "restart")
	proxy, dsn := pgtest.NewProxy(t, u)
	const schema = "lite_agent_restart"
	// The check's attempt (a quarter of the TTL) outlasts the restart.
	st, err := postgres.Open(t.Context(), dsn, postgres.Options{Schema: schema, LeaseTTL: time.Minute, MaxConns: 1, Holder: "restarted"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	p, err := st.Project(storage.Encoding{ProjectID: "restart"})
	if err != nil {
		t.Fatal(err)
	}
	warmLease(t, p)
	var restarted atomic.Bool // set in the proxy's goroutine
	proxy.LoseReplyTo([]byte("commit\x00"))
	proxy.OnReply([]byte("committed"), func() { // the check's answer, on its way
		restart()
		restarted.Store(true)
	})
	l, err := p.Acquire(t.Context(), "s1", postgres.LeaseOptions{})
	if !restarted.Load() {
		t.Fatalf("Acquire = %v, %v before the check's answer", l, err)
	}
	var ou *postgres.OutcomeUnknownError
	if !errors.As(err, &ou) || ou.Op != "lease acquisition" || !strings.Contains(ou.Check.Error(), "read back") {
		t.Errorf("Acquire = %v, %v; want an *postgres.OutcomeUnknownError whose check read the row back from the restarted server", l, err)
	}
	// The lease is there, live, in this Store's name: the error said it
	// was not taken.
	c, err := pgx.Connect(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(t.Context())
	var holder string
	var live bool
	if err := c.QueryRow(t.Context(), `SELECT holder, expires > now() FROM `+schema+`.leases WHERE project = 'restart' AND session = 's1'`).Scan(&holder, &live); err != nil || holder != "restarted" || !live {
		t.Fatalf("the lease row: %q live %v, %v; want this Store's, live (else the test proves nothing)", holder, live, err)
	}
}
