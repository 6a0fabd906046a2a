package postgres_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// namedStore opens a Store on schema whose connections carry a random
// application_name, returned (see pgtest.Named).
func namedStore(t *testing.T, schema string) (*postgres.Store, string) {
	t.Helper()
	dsn, app := pgtest.Named(t, pgtest.URL(t))
	st, err := postgres.Open(t.Context(), dsn, postgres.Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return st, app
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
	admin := pgtest.Connect(t)
	locker := pgtest.Connect(t)
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
	pgtest.WaitForLock(t, admin, app) // the Clear waits for the spill row
	if n := pgtest.Terminate(t, admin, app); n == 0 {
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

// A delete of a session racing a write of its archive (the write holds
// the archive's row, and adds an entry while the delete runs) leaves no
// entry without its archive: the delete locks the archive's row before it
// deletes the entries, so it deletes them after the write committed. Had
// it deleted the entries first, the write's entry, committed before the
// delete reached the archive's row, outlived the archive.
func TestADeleteRacingAnArchiveWriteLeavesNoEntry(t *testing.T) {
	ctx := t.Context()
	schema := freshSchema(t)
	st, app := namedStore(t, schema)
	p := mpProject(t, st)
	ev := []session.Event{session.UserEvent{Message: model.UserText("hello")}}
	if _, err := p.Checkpointer().Append(ctx, "s1", ev, session.AnyHead); err != nil {
		t.Fatal(err)
	}
	ar, err := p.Archive("s1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ar.Put(ctx, "an archived result", nil); err != nil {
		t.Fatal(err)
	}
	admin := pgtest.Connect(t)
	writer := pgtest.Connect(t)
	// The archive write's transaction, as archiveBackend.Locked and
	// archiveTx run it: the archive's row locked, then an entry added.
	tx, err := writer.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(context.Background()) }()
	if _, err := tx.Exec(ctx, `SELECT entries FROM `+schema+`.archives WHERE project = 'mp' AND session = 's1' FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	deleted := make(chan error, 1)
	go func() { deleted <- p.DeleteSession(ctx, "s1") }()
	pgtest.WaitForLock(t, admin, app)
	if _, err := tx.Exec(ctx, `INSERT INTO `+schema+`.archive_index (namespace, project, session, pos, ref, data)
		SELECT namespace, project, session, entries, 'racing-ref', '\x00' FROM `+schema+`.archives WHERE project = 'mp' AND session = 's1'`); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `UPDATE `+schema+`.archives SET entries = entries + 1 WHERE project = 'mp' AND session = 's1'`); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-deleted; err != nil {
		t.Fatal(err)
	}
	if n := orphanArchiveRows(t, schema); n != 0 {
		t.Errorf("%d archive entries without their archive", n)
	}
}
