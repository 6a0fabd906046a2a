package postgres_test

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// Open whose schema check fails once its connection is up (here: its ctx
// ends while it waits for the schema's lock, and the database then stops
// answering, so that pgx's cancel request and goodbye hang) closes its
// pool as Close does: the connections get closeGrace to say goodbye, then
// are closed under them. A bare pool close waited 15 s (pgx's bound on a
// closing connection) for them.
func TestOpenWhoseSchemaCheckFailsClosesAsCloseDoes(t *testing.T) {
	proxy, dsn := pgtest.NewProxy(t, pgtest.URL(t))
	dsn, app := pgtest.Named(t, dsn)
	watcher := pgtest.Connect(t)
	schema := freshSchema(t)
	holder := pgtest.Connect(t)
	tx, err := holder.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(t.Context(), `SELECT pg_advisory_xact_lock($1, hashtext($2))`, postgres.SchemaLockKey, schema); err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	muted := make(chan struct{})
	go func() {
		// Open waits for the lock: the database stops answering.
		defer close(muted)
		pgtest.WaitForLock(t, watcher, app)
		proxy.Hole(true)
		proxy.Mute(true)
	}()
	start := time.Now()
	st, err := postgres.Open(ctx, dsn, postgres.Options{Schema: schema})
	d := time.Since(start)
	<-muted
	t.Logf("Open returned after %v: %v", d, err)
	if st != nil {
		st.Close()
	}
	var ce *postgres.ConnectError
	if !errors.As(err, &ce) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Open = %v; want a *postgres.ConnectError matching context.DeadlineExceeded", err)
	}
	if d > 5*time.Second {
		t.Errorf("Open returned after %v; want about its ctx's second and Close's 2 s grace", d)
	}
	proxy.Mute(false)
	proxy.Hole(false)
	proxy.Cut()
	noGoroutinesLeft(t, before)
}
