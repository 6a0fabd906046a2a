package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// A spilled body is stored under the hash of its content, and a Put of a
// content already stored reuses the row and writes nothing. An agent of
// the project that spills, during an import, the same output the files
// hold (the same file read again, say) gets the imported row's ref and
// records it in its session. When the import then fails (here: a writer
// of the files appends to a session, so the verification finds it
// changed), its clean-up deletes the rows it inserted, and must not take
// the one the agent's ref names with them: the agent's session would then
// point at a body that no longer reads.
func TestFailedImportKeepsABodyAnAgentReused(t *testing.T) {
	ctx := t.Context()
	paths, enc, files := filesProject(t)
	if _, err := files.Append(ctx, "a", []session.Event{session.UserEvent{Message: model.UserText("from the files")}}, session.AnyHead); err != nil {
		t.Fatal(err)
	}
	fsp, err := spill.NewFileStore(paths.SpillDir, enc)
	if err != nil {
		t.Fatal(err)
	}
	const body = "the output of go test ./..."
	if _, err := fsp.Put(ctx, body); err != nil {
		t.Fatal(err)
	}
	p := project(t, enc)
	var ref string
	postgres.SetImportCopied(p, func() {
		// The agent of the database's project spills the same output.
		var err error
		if ref, err = p.Spill().Put(ctx, body); err != nil {
			t.Fatal(err)
		}
		// A writer of the files appends meanwhile: the copy is stale.
		if _, err := files.Append(ctx, "a", []session.Event{session.UserEvent{Message: model.UserText("later")}}, session.AnyHead); err != nil {
			t.Fatal(err)
		}
	})
	if _, err := p.ImportFiles(ctx, paths); err == nil {
		t.Fatal("the import of a changed session verified")
	} else {
		t.Logf("ImportFiles: %v", err)
	}
	if got, ok, err := p.Spill().Get(ctx, ref); err != nil || !ok || got != body {
		// The agent's Put moved the row's creation time on; the clean-up
		// deletes only rows still as the import inserted them.
		t.Errorf("a failed ImportFiles deleted a spilled body an agent's Put reused during the copy: Get(%s) after it = %q, %v, %v", ref, got, ok, err)
	}
}

// A Put of a content already stored hands out the existing row's ref; the
// row's age then starts again, as a reused file body's modification time
// does, so that a sweep by age does not delete a body whose ref an agent
// was just given.
func TestPutOfAStoredBodyRefreshesItsAge(t *testing.T) {
	ctx := t.Context()
	st := openStore(t, postgres.Options{})
	p, err := st.Project(storage.Encoding{Namespace: "acme", ProjectID: "p0"})
	if err != nil {
		t.Fatal(err)
	}
	const body = "the output of an old run"
	ref := spill.Ref(body)
	if err := p.ImportSpill(ctx, ref, []byte(body), time.Now().Add(-40*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got, err := p.Spill().Put(ctx, body); err != nil || got != ref {
		t.Fatalf("Put = %q, %v; want %q", got, err, ref)
	}
	rep, err := st.Sweep(ctx, postgres.SweepOptions{Namespace: "acme", MaxAge: 30 * 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if got, ok, err := p.Spill().Get(ctx, ref); err != nil || !ok || got != body {
		t.Errorf("after a Put reused it, a sweep of bodies older than 30 days (deleted %d) left Get = %q, %v, %v", rep.Spilled, got, ok, err)
	}
}

// A sweep chooses the sessions to delete from their times, then deletes
// them one by one, each under its row lock. An agent that appends to a
// chosen session in between (a session resumed after 40 days) made it new
// again: its records must stay.
func TestSweepKeepsASessionAppendedToAfterItWasChosen(t *testing.T) {
	ctx := t.Context()
	st := openStore(t, postgres.Options{})
	p, err := st.Project(storage.Encoding{Namespace: "acme", ProjectID: "p0"})
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-40 * 24 * time.Hour)
	if err := p.ImportSession(ctx, "resumed", nil, old); err != nil {
		t.Fatal(err)
	}
	if err := p.ImportSession(ctx, "idle", nil, old); err != nil {
		t.Fatal(err)
	}
	cp := p.Checkpointer()
	postgres.SetSweepChose(st, func() {
		if _, err := cp.Append(ctx, "resumed", []session.Event{session.UserEvent{Message: model.UserText("back after 40 days")}}, session.AnyHead); err != nil {
			t.Fatal(err)
		}
	})
	rep, err := st.Sweep(ctx, postgres.SweepOptions{Namespace: "acme", MaxAge: 30 * 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	var deleted []string
	for _, d := range rep.Deleted {
		deleted = append(deleted, d.Session)
	}
	if len(deleted) != 1 || deleted[0] != "idle" {
		t.Errorf("deleted %v, want [idle]", deleted)
	}
	if evs, err := cp.Read(ctx, "resumed", 0); err != nil || len(evs) != 1 {
		t.Errorf("the resumed session holds %d records (%v) after the sweep, want its new one", len(evs), err)
	}
}

// An archive write locks the archive's row, not the session's. A sweep
// that re-checked the session under the session's row lock alone read the
// archive's time around a write still in flight, then deleted the archive
// the write had just committed to.
func TestSweepKeepsASessionWhoseArchiveIsWrittenAsItLooks(t *testing.T) {
	ctx := t.Context()
	st := openStore(t, postgres.Options{})
	p, err := st.Project(storage.Encoding{Namespace: "acme", ProjectID: "p0"})
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-40 * 24 * time.Hour)
	if err := p.ImportSession(ctx, "s", nil, old); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	archives := st.Schema() + ".archives"
	if _, err := conn.Exec(ctx, `INSERT INTO `+archives+` (namespace, project, session, entries, bytes, modified)
		VALUES ('acme', 'p0', 's', 0, 0, $1)`, old); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	postgres.SetSweepChose(st, func() {
		// An archive write, as archive.Store.Put makes it through the
		// backend: the archive's row locked and changed, committed a
		// moment later.
		tx, err := conn.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(ctx, `UPDATE `+archives+` SET entries = entries + 1, modified = now()
			WHERE namespace = 'acme' AND project = 'p0' AND session = 's'`); err != nil {
			t.Fatal(err)
		}
		go func() {
			time.Sleep(300 * time.Millisecond)
			done <- tx.Commit(context.Background())
		}()
	})
	rep, err := st.Sweep(ctx, postgres.SweepOptions{Namespace: "acme", MaxAge: 30 * 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM `+archives+` WHERE session = 's'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 || len(rep.Deleted) != 0 {
		t.Errorf("the sweep deleted %v and left %d archive rows: the archive written as it looked is gone", rep.Deleted, n)
	}
}
