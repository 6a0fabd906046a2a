package postgres_test

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// A transaction id names a transaction only on the server, and in the
// run of it, that handed it out: a replica promoted after a failover (or a
// server restarted after a crash that lost the end of its log) hands out
// again the ids of the transactions it never saw. A truncation whose
// COMMIT was lost, the check of which reaches another server on which
// that id is a committed transaction of someone else, must not be
// reported landed: it is an *OutcomeUnknownError, and the truncation,
// which never committed, left the records. An id aborted there is the
// *DatabaseError of a write that did not land: had the write committed
// on the server that answers, its id would not have been handed out
// again, and it would be committed there.
func TestALostCommitAskedAboutOnAnotherServer(t *testing.T) {
	for _, tc := range []struct {
		other   string // how the other server ends the transaction of its ids
		unknown bool
	}{
		{"COMMIT", true},
		{"ROLLBACK", false},
	} {
		t.Run(tc.other, func(t *testing.T) { lostCommitAskedElsewhere(t, tc.other, tc.unknown) })
	}
}

func lostCommitAskedElsewhere(t *testing.T, end string, unknown bool) {
	home := pgtest.URL(t)
	proxy, dsn := pgtest.NewProxy(t, home)
	st, err := postgres.Open(t.Context(), dsn, postgres.Options{Schema: freshSchema(t), LeaseTTL: 2 * time.Second, MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p := mpProject(t, st)
	cp := p.Checkpointer()
	appendN(t, p, "s1", 4)

	// The other server hands out, and commits or rolls back, the ids the
	// home server hands out next.
	conn := pgtest.Connect(t)
	var from int64
	if err := conn.QueryRow(t.Context(), `SELECT txid_current()`).Scan(&from); err != nil {
		t.Fatal(err)
	}
	hu, err := url.Parse(home)
	if err != nil {
		t.Fatal(err)
	}
	other := pgtest.Cluster(t, from, strings.TrimPrefix(hu.Path, "/"))
	oc, err := pgx.Connect(t.Context(), other)
	if err != nil {
		t.Fatal(err)
	}
	defer oc.Close(t.Context())
	const ahead = 100000
	var next int64
	if err := oc.QueryRow(t.Context(), `SELECT txid_current()`).Scan(&next); err != nil {
		t.Fatal(err)
	}
	if _, err := oc.Exec(t.Context(), fmt.Sprintf(`CREATE TABLE burn (i int); BEGIN;
		DO $$ BEGIN FOR i IN 1..%d LOOP BEGIN INSERT INTO burn VALUES (i); EXCEPTION WHEN OTHERS THEN NULL; END; END LOOP; END $$;
		%s`, from+ahead-next, end)); err != nil {
		t.Fatal(err)
	}

	// The truncation runs on the pool's one connection, to the home
	// server; its COMMIT is lost on the way, and its check dials the
	// other server.
	if _, err := cp.Head(t.Context(), "s1"); err != nil {
		t.Fatal(err)
	}
	proxy.Retarget(t, other)
	proxy.DropRequest([]byte("commit"))
	err = cp.Truncate(t.Context(), "s1", 1, 4)
	var ou *postgres.OutcomeUnknownError
	var de *postgres.DatabaseError
	switch {
	case unknown && (!errors.As(err, &ou) || ou.Op != "truncate" || ou.SessionID != "s1"):
		t.Errorf("Truncate = %v; want a *postgres.OutcomeUnknownError (the check reached another server)", err)
	case !unknown && (!errors.As(err, &de) || errors.As(err, &ou)):
		t.Errorf("Truncate = %v; want the *postgres.DatabaseError (its id is aborted on the server that answers)", err)
	}
	var now int64
	if err := conn.QueryRow(t.Context(), `SELECT txid_current()`).Scan(&now); err != nil {
		t.Fatal(err)
	}
	if now >= from+ahead {
		t.Fatalf("the home server handed out %d ids meanwhile; the other server only %d", now-from, ahead)
	}
	want := map[string]string{"COMMIT": "committed", "ROLLBACK": "aborted"}[end]
	var status string
	if err := oc.QueryRow(t.Context(), `SELECT txid_status($1)`, now-1).Scan(&status); err != nil || status != want {
		t.Fatalf("txid_status(%d) on the other server = %q, %v; want %s (else the test proves nothing)", now-1, status, err, want)
	}

	// Back home: the truncation did not land.
	proxy.Retarget(t, home)
	proxy.Cut()
	if head, err := cp.Head(t.Context(), "s1"); err != nil || head != 4 {
		t.Errorf("head %d, %v; want 4 (the truncation never committed)", head, err)
	}
}

// A COMMIT still running when the check asks (its transaction "in
// progress": here a deferred trigger that takes a second at COMMIT, the
// connection cut as soon as the COMMIT went out, pgx's cancel request
// lost) is not taken for one
// that failed: the check asks again until the server has decided, and the
// truncation, which committed, succeeds.
func TestALostCommitStillRunningIsWaitedFor(t *testing.T) {
	const ttl = 6 * time.Second // its half, when a backend still in the transaction is ended, well after the second
	proxy, st := openProxied(t, postgres.Options{LeaseTTL: ttl})
	schema := st.Schema()
	p := mpProject(t, st)
	cp := p.Checkpointer()
	appendN(t, p, "s1", 4)
	conn := pgtest.Connect(t)
	slowCommits(t, schema, "sessions", "UPDATE", 1*time.Second)
	// pgx's cancel request, sent for a connection lost under a statement,
	// would end the COMMIT's trigger (the transaction aborted, which the
	// check reports as such): lost too, as on a network that is down.
	proxy.DropCancels(true)
	proxy.CutAfterRequest([]byte("commit"))
	start := time.Now()
	err := cp.Truncate(t.Context(), "s1", 1, 4)
	d := time.Since(start)
	if err != nil {
		t.Errorf("Truncate = %v after %v; want nil (it committed a second after its connection was lost)", err, d)
	}
	if d < time.Second {
		t.Errorf("Truncate returned after %v, before its COMMIT ended", d)
	}
	if _, err := conn.Exec(t.Context(), `DROP TRIGGER slow_commit ON `+schema+`.sessions`); err != nil {
		t.Fatal(err)
	}
	if head, err := cp.Head(t.Context(), "s1"); err != nil || head != 1 {
		t.Errorf("head %d, %v; want 1", head, err)
	}
}
