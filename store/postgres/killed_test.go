package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// namedStore opens a Store on schema whose connections carry a random
// application_name, returned, so that a test can end their server
// processes (see killBackends).
func namedStore(t *testing.T, schema string) (*postgres.Store, string) {
	t.Helper()
	b := make([]byte, 6)
	rand.Read(b)
	app := "pgkill_" + hex.EncodeToString(b)
	u, err := url.Parse(pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("application_name", app)
	u.RawQuery = q.Encode()
	st, err := postgres.Open(t.Context(), u.String(), postgres.Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return st, app
}

// killBackends ends the server processes of the connections named app, as
// pg_terminate_backend does, waiting for them to exit; it returns how many.
func killBackends(t *testing.T, conn *pgx.Conn, app string) int {
	t.Helper()
	var n int
	if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM (SELECT pg_terminate_backend(pid, 5000)
		FROM pg_stat_activity WHERE application_name = $1) x`, app).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A Clear whose server process is killed part-way (its final statement
// waiting for a spilled body another transaction holds, after it deleted
// records): it fails with a *DatabaseError, nothing is deleted, and the
// next Clear (on a new connection) clears the project.
func TestAClearKilledPartWayDeletesNothing(t *testing.T) {
	ctx := t.Context()
	schema := freshSchema(t)
	st, app := namedStore(t, schema)
	p := mpProject(t, st)
	ev := []session.Event{session.UserEvent{Message: model.UserText("hello")}}
	for _, id := range []string{"s1", "s2"} {
		if _, err := p.Checkpointer().Append(ctx, id, ev, session.AnyHead); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Spill().Put(ctx, "a spilled body"); err != nil {
		t.Fatal(err)
	}
	count := func(conn *pgx.Conn) (n int) {
		if err := conn.QueryRow(ctx, `SELECT (SELECT count(*) FROM `+schema+`.events) + (SELECT count(*) FROM `+schema+`.sessions)
			+ (SELECT count(*) FROM `+schema+`.spill)`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	admin, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	locker, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer locker.Close(context.Background())
	before := count(admin)
	tx, err := locker.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT 1 FROM `+schema+`.spill FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	cleared := make(chan error, 1)
	go func() { cleared <- p.Clear(ctx) }()
	// The Clear waits for the spill row.
	deadline := time.Now().Add(10 * time.Second)
	for {
		var waiting int
		if err := admin.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`, app).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the Clear never waited for the locked row")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := killBackends(t, admin, app); n == 0 {
		t.Fatal("no backend killed")
	}
	err = <-cleared
	var de *postgres.DatabaseError
	if !errors.As(err, &de) {
		t.Errorf("the killed Clear: %v (%T), want a *postgres.DatabaseError", err, err)
	}
	_ = tx.Rollback(ctx)
	if after := count(admin); after != before {
		t.Errorf("the killed Clear left %d rows of %d", after, before)
	}
	if err := p.Clear(ctx); err != nil {
		t.Fatalf("the next Clear: %v", err)
	}
	if after := count(admin); after != 0 {
		t.Errorf("the next Clear left %d rows", after)
	}
}
