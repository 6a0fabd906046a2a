package postgres_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// mpProject returns the project "mp" of st.
func mpProject(t *testing.T, st *postgres.Store) *postgres.Project {
	t.Helper()
	p, err := st.Project(storage.Encoding{ProjectID: "mp"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// leaseRows counts the rows of schema's leases table.
func leaseRows(t *testing.T, schema string) int {
	t.Helper()
	var n int
	scanOne(t, `SELECT count(*) FROM `+schema+`.leases`, &n)
	return n
}

// scanOne runs query with args on a connection of its own, past the
// Store, and scans its one row into dest.
func scanOne(t *testing.T, query string, dest any, args ...any) {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if err := conn.QueryRow(t.Context(), query, args...).Scan(dest); err != nil {
		t.Fatal(err)
	}
}

// The leases table does not grow with the sessions that came and went: a
// session's lease row outlived its release and its delete (so that its
// token was never given again), one row per session id ever leased, so a
// deployment of many short sessions grew the table without bound. Each
// way a session goes is tried 30 times: released then deleted, deleted
// under its lease (as liteagent deletes) then released, and leased but
// never written. The tokens of an id taken again still rise.
func TestLeaseRowsDoNotOutliveTheirSessions(t *testing.T) {
	ctx := t.Context()
	schema := freshSchema(t)
	st := openStore(t, postgres.Options{Schema: schema})
	p := mpProject(t, st)
	cp := p.Checkpointer()
	write := func(id string) {
		ev := session.UserEvent{Message: model.UserText("hello")}
		if _, err := cp.Append(ctx, id, []session.Event{ev}, session.AnyHead); err != nil {
			t.Fatalf("append to %s: %v", id, err)
		}
	}
	const n = 30
	last := map[string]int64{}
	for round := range 2 {
		for i := range n {
			id := fmt.Sprintf("gone-%d", i)
			l, err := p.Acquire(ctx, id, postgres.LeaseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if l.Token() <= last[id] {
				t.Fatalf("round %d: %s drew token %d, not above its last %d", round, id, l.Token(), last[id])
			}
			last[id] = l.Token()
			write(id)
			if err := l.Release(ctx); err != nil {
				t.Fatal(err)
			}
			if err := p.DeleteSession(ctx, id); err != nil {
				t.Fatal(err)
			}

			id = fmt.Sprintf("under-%d", i)
			release, err := cp.LeaseSession(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			write(id)
			if err := cp.DeleteSessionUsing(ctx, id, ""); err != nil {
				t.Fatal(err)
			}
			release()

			id = fmt.Sprintf("idle-%d", i)
			l, err = p.Acquire(ctx, id, postgres.LeaseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if l.Token() <= last[id] {
				t.Fatalf("round %d: %s drew token %d, not above its last %d", round, id, l.Token(), last[id])
			}
			last[id] = l.Token()
			if err := l.Release(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if got := leaseRows(t, schema); got > 1 {
			t.Fatalf("round %d: the leases table holds %d rows after %d sessions came and went; want at most 1 (the project's)", round, got, 3*n)
		}
	}
}

// Lease rows deleted while other processes acquire the same sessions do
// not give a token twice: four processes lease three sessions in turn, and
// each lease either releases an unwritten session or is followed by the
// session's delete, both of which delete the row (raising the project's
// high-water mark) while the others' Acquires insert it again.
func TestLeaseTokensStayUniqueWhileRowsComeAndGo(t *testing.T) {
	schema := freshSchema(t)
	p := mpProject(t, openStore(t, postgres.Options{Schema: schema})) // creates the schema
	const procs = 4
	outs := make([][]byte, procs)
	errs := make([]error, procs)
	var wg sync.WaitGroup
	for i := range procs {
		wg.Go(func() {
			outs[i], errs[i] = childtest.Command(t.Context(), helperEnvs(schema, "churn", strconv.Itoa(i))...).CombinedOutput()
		})
	}
	wg.Wait()
	seen := map[string]int{}
	n := 0
	for i := range procs {
		if errs[i] != nil {
			t.Fatalf("child %d: %v\n%s", i, errs[i], outs[i])
		}
		for line := range strings.Lines(string(outs[i])) {
			if !strings.HasPrefix(line, "token ") {
				continue
			}
			n++
			seen[strings.TrimSpace(line)]++
		}
	}
	if n != procs*60 {
		t.Fatalf("the children drew %d tokens, want %d", n, procs*60)
	}
	for k, c := range seen {
		if c > 1 {
			t.Errorf("%s drawn %d times", k, c)
		}
	}
	// A child's delete is refused while another holds the session
	// (BusyError), and a later release of a session with records keeps
	// its row: the sessions may outlive the children. Deleting them now,
	// with no holder left, must remove their rows.
	for i := range 3 {
		if err := p.DeleteSession(t.Context(), fmt.Sprintf("c%d", i)); err != nil {
			t.Fatalf("deleting c%d after the children: %v", i, err)
		}
	}
	if got := leaseRows(t, schema); got > 1 {
		t.Errorf("the leases table holds %d rows once every session is gone; want at most 1", got)
	}
}

// A sweep with MaxAge removes the lease rows a release or delete did not
// (a holder that crashed before it wrote, and never released), once the
// project's high-water mark holds their tokens: the next lease of the id
// still draws a token above the crashed holder's.
func TestASweepRemovesLeaseRowsLeftBehind(t *testing.T) {
	ctx := t.Context()
	schema := freshSchema(t)
	st := openStore(t, postgres.Options{Schema: schema})
	p := mpProject(t, st)
	conn, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	// What crashed holders left: expired rows of sessions never written.
	for i := range 5 {
		if _, err := conn.Exec(ctx, `INSERT INTO `+schema+`.leases (namespace, project, session, holder, token, expires)
			VALUES ('lite-agent', 'mp', $1, 'crashed', 7, now() - interval '1 minute')`, fmt.Sprintf("crashed-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := st.Sweep(ctx, postgres.SweepOptions{MaxAge: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if got := leaseRows(t, schema); got > 1 {
		t.Errorf("%d lease rows after the sweep (report: %d removed); want at most 1", got, rep.LeaseRows)
	}
	l, err := p.Acquire(ctx, "crashed-0", postgres.LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release(context.Background())
	if l.Token() <= 7 {
		t.Errorf("the lease after the sweep drew token %d, not above the crashed holder's 7", l.Token())
	}
}
