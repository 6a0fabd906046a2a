package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/lite-agent/lite-agent-go/task"
)

// lostProject opens a Store through a proxy on a fresh schema and returns
// the proxy and a Project of it.
func lostProject(t *testing.T) (*pgtest.Proxy, *postgres.Project) {
	t.Helper()
	proxy, dsn := pgtest.NewProxy(t, pgtest.URL(t))
	st, err := postgres.Open(t.Context(), dsn, postgres.Options{Schema: freshSchema(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return proxy, mpProject(t, st)
}

// appendN appends n records to session id.
func appendN(t *testing.T, p *postgres.Project, id string, n int) {
	t.Helper()
	evs := make([]session.Event, n)
	for i := range evs {
		evs[i] = session.UserEvent{Message: model.UserText("record")}
	}
	if _, err := p.Checkpointer().Append(t.Context(), id, evs, session.AnyHead); err != nil {
		t.Fatal(err)
	}
}

// A truncation with an expected head whose COMMIT's reply is lost is not
// idempotent (a retry finds the head moved: a *session.ConflictError for
// a truncation that was made): it asks the database whether its
// transaction committed, and succeeds when it did.
func TestATruncateWhoseReplyIsLost(t *testing.T) {
	proxy, p := lostProject(t)
	cp := p.Checkpointer()
	appendN(t, p, "s1", 4)
	proxy.LoseReplyTo([]byte("commit"))
	if err := cp.Truncate(t.Context(), "s1", 2, 4); err != nil {
		t.Errorf("Truncate = %v; want nil (it landed)", err)
	}
	if head, err := cp.Head(t.Context(), "s1"); err != nil || head != 2 {
		t.Errorf("head %d, %v; want 2", head, err)
	}
	// One whose COMMIT never reached the server still fails, and wrote
	// nothing.
	proxy.DropRequest([]byte("commit"))
	var de *postgres.DatabaseError
	if err := cp.Truncate(t.Context(), "s1", 1, 2); !errors.As(err, &de) {
		t.Errorf("Truncate with its COMMIT dropped = %v; want a *postgres.DatabaseError", err)
	}
	if head, err := cp.Head(t.Context(), "s1"); err != nil || head != 2 {
		t.Errorf("head %d, %v; want 2", head, err)
	}
}

// A task created in a transaction whose COMMIT's reply is lost is not
// retried by the caller into a second task: the Create succeeds, as it
// landed, and the list holds it once.
func TestATaskCreateWhoseReplyIsLost(t *testing.T) {
	proxy, p := lostProject(t)
	tl, err := p.TaskList("l1")
	if err != nil {
		t.Fatal(err)
	}
	proxy.LoseReplyTo([]byte("commit"))
	got, err := tl.Create(t.Context(), task.CreateInput{Subject: "once"})
	if err != nil {
		t.Errorf("Create = %v; want nil (it landed)", err)
	}
	tasks, err := tl.List(t.Context())
	if err != nil || len(tasks) != 1 || tasks[0].ID != got.ID {
		t.Errorf("List = %v, %v; want the one task %q", tasks, err, got.ID)
	}
	// An update whose COMMIT's reply is lost succeeds too.
	proxy.LoseReplyTo([]byte("commit"))
	if _, err := tl.Update(t.Context(), got.ID, task.UpdateInput{Subject: ptr("twice")}); err != nil {
		t.Errorf("Update = %v; want nil (it landed)", err)
	}
}

func ptr[T any](v T) *T { return &v }

// The writes a retry of which is harmless report a lost reply as the
// *postgres.DatabaseError it is, and the caller's retry after one that
// landed leaves the state a single call would have: deleting a session or
// its log (an unknown session is not an error), clearing a project,
// marking a list shared, putting an archive note (content-addressed: a
// note already there is not written again) and a spilled body (likewise).
func TestIdempotentWritesRetriedAfterALostReply(t *testing.T) {
	for _, tc := range []struct {
		name  string
		match string
		setup func(t *testing.T, p *postgres.Project)
		write func(ctx context.Context, p *postgres.Project) error
		check func(t *testing.T, p *postgres.Project)
	}{
		{
			name: "Checkpointer.Delete", match: "commit",
			setup: func(t *testing.T, p *postgres.Project) { appendN(t, p, "s1", 2) },
			write: func(ctx context.Context, p *postgres.Project) error { return p.Checkpointer().Delete(ctx, "s1") },
			check: func(t *testing.T, p *postgres.Project) { wantNoSession(t, p, "s1") },
		},
		{
			name: "DeleteSession", match: "commit",
			setup: func(t *testing.T, p *postgres.Project) { appendN(t, p, "s1", 2) },
			write: func(ctx context.Context, p *postgres.Project) error { return p.DeleteSession(ctx, "s1") },
			check: func(t *testing.T, p *postgres.Project) { wantNoSession(t, p, "s1") },
		},
		{
			name: "Clear", match: "commit",
			setup: func(t *testing.T, p *postgres.Project) { appendN(t, p, "s1", 2) },
			write: func(ctx context.Context, p *postgres.Project) error { return p.Clear(ctx) },
			check: func(t *testing.T, p *postgres.Project) { wantNoSession(t, p, "s1") },
		},
		{
			name: "MarkShared", match: "l-shared-xyzzy",
			write: func(ctx context.Context, p *postgres.Project) error {
				tl, err := p.TaskList("l-shared-xyzzy")
				if err != nil {
					return err
				}
				return tl.MarkShared(ctx)
			},
			check: func(t *testing.T, p *postgres.Project) {
				// A shared list outlives the session of its id.
				appendN(t, p, "l-shared-xyzzy", 1)
				tl, _ := p.TaskList("l-shared-xyzzy")
				if _, err := tl.Create(t.Context(), task.CreateInput{Subject: "kept"}); err != nil {
					t.Fatal(err)
				}
				if err := p.DeleteSession(t.Context(), "l-shared-xyzzy"); err != nil {
					t.Fatal(err)
				}
				if tasks, err := tl.List(t.Context()); err != nil || len(tasks) != 1 {
					t.Errorf("shared list after DeleteSession: %v, %v", tasks, err)
				}
			},
		},
		{
			name: "Archive.Put", match: "commit",
			write: func(ctx context.Context, p *postgres.Project) error {
				a, err := p.Archive("s1", 0)
				if err != nil {
					return err
				}
				_, err = a.Put(ctx, "the note", nil)
				return err
			},
			check: func(t *testing.T, p *postgres.Project) {
				a, _ := p.Archive("s1", 0)
				notes, err := a.(archive.Lister).Notes(t.Context())
				if err != nil || len(notes) != 1 || notes[0].Content != "the note" {
					t.Errorf("Notes = %v, %v; want the one note", notes, err)
				}
			},
		},
		{
			name: "Spill.Put", match: "spill-body-xyzzy",
			write: func(ctx context.Context, p *postgres.Project) error {
				_, err := p.Spill().Put(ctx, "spill-body-xyzzy")
				return err
			},
			check: func(t *testing.T, p *postgres.Project) {
				got, ok, err := p.Spill().Get(t.Context(), spill.Ref("spill-body-xyzzy"))
				if err != nil || !ok || got != "spill-body-xyzzy" {
					t.Errorf("Get = %q, %v, %v", got, ok, err)
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proxy, p := lostProject(t)
			if tc.setup != nil {
				tc.setup(t, p)
			}
			proxy.LoseReplyTo([]byte(tc.match))
			var de *postgres.DatabaseError
			if err := tc.write(t.Context(), p); !errors.As(err, &de) {
				t.Errorf("the write whose reply is lost = %v; want a *postgres.DatabaseError", err)
			}
			if err := tc.write(t.Context(), p); err != nil {
				t.Fatalf("the retry: %v", err)
			}
			tc.check(t, p)
		})
	}
}

// wantNoSession fails t unless session id has no log.
func wantNoSession(t *testing.T, p *postgres.Project, id string) {
	t.Helper()
	if head, err := p.Checkpointer().Head(t.Context(), id); err != nil || head != 0 {
		t.Errorf("session %s: head %d, %v; want none", id, head, err)
	}
}

// A truncation and a task write whose COMMIT's reply is lost, on a
// database that then stops answering new connections, fail within about a
// lease's TTL with an *postgres.OutcomeUnknownError naming the session or
// list, which the caller can tell from a write that did not happen.
func TestATransactionWhoseOutcomeCannotBeLearnt(t *testing.T) {
	const ttl = time.Second
	proxy, st := openProxied(t, postgres.Options{LeaseTTL: ttl, MaxConns: 1})
	p := mpProject(t, st)
	appendN(t, p, "s1", 3)
	tl, err := p.TaskList("l1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, session, list string
		write               func(ctx context.Context) error
	}{
		{"truncate", "s1", "", func(ctx context.Context) error { return p.Checkpointer().Truncate(ctx, "s1", 1, 3) }},
		{"task list write", "", "l1", func(ctx context.Context) error {
			_, err := tl.Create(ctx, task.CreateInput{Subject: "maybe"})
			return err
		}},
	} {
		// The write runs on the pool's one connection, open; its check,
		// after the lost reply, dials a new one, which never answers.
		if _, err := p.Checkpointer().Head(t.Context(), "s1"); err != nil {
			t.Fatal(err)
		}
		proxy.LoseReplyTo([]byte("commit"))
		proxy.Hole(true)
		start := time.Now()
		err := tc.write(context.Background())
		var ou *postgres.OutcomeUnknownError
		if !errors.As(err, &ou) || ou.Op != tc.name || ou.SessionID != tc.session || ou.ListID != tc.list {
			t.Errorf("%s = %v; want a *postgres.OutcomeUnknownError naming it", tc.name, err)
		}
		if d := time.Since(start); d > ttl+2*time.Second {
			t.Errorf("%s returned after %v", tc.name, d)
		}
		proxy.Hole(false)
		proxy.Cut()
	}
}

// The writes a retry of which is not harmless (it fails, finding what the
// first one wrote) succeed when their reply is lost once they landed, and
// the caller's retry after one that failed (its reply lost before it
// committed) succeeds: removing a fork's mark (a retry found no mark and
// reported the fork's copy lost, *storage.ForkMarkLostError) and the
// imports of a session, an archive, a task list and a spilled body (a
// retry found it "already exists").
func TestWritesNotRetriedHarmlesslyWhoseReplyIsLost(t *testing.T) {
	type env struct {
		st *postgres.Store
		p  *postgres.Project
	}
	for _, tc := range []struct {
		name, stmt string // stmt: a string only the write's statement holds
		setup      func(t *testing.T, e env) any
		write      func(ctx context.Context, e env, data any) error
		check      func(t *testing.T, e env)
	}{
		{
			name: "ClearForking", stmt: ".fork-incomplete:f-xyzzy",
			setup: func(t *testing.T, e env) any {
				if err := e.st.MarkForking(t.Context(), storage.Encoding{ProjectID: "mp"}, "f-xyzzy"); err != nil {
					t.Fatal(err)
				}
				return nil
			},
			write: func(ctx context.Context, e env, _ any) error {
				return e.st.ClearForking(ctx, storage.Encoding{ProjectID: "mp"}, "f-xyzzy")
			},
			check: func(t *testing.T, e env) {
				if left, err := e.p.ForkLeftover(t.Context(), "f-xyzzy"); err != nil || left {
					t.Errorf("ForkLeftover = %v, %v; want the mark gone", left, err)
				}
			},
		},
		{
			name: "ImportSession", stmt: "record-xyzzy",
			write: func(ctx context.Context, e env, _ any) error {
				return e.p.ImportSession(ctx, "s-xyzzy", [][]byte{[]byte("record-xyzzy")}, time.Now())
			},
			check: func(t *testing.T, e env) {
				if recs, _, err := e.p.ExportSession(t.Context(), "s-xyzzy"); err != nil || len(recs) != 1 {
					t.Errorf("ExportSession = %d records, %v; want 1", len(recs), err)
				}
			},
		},
		{
			name: "ImportArchive", stmt: "a-xyzzy",
			setup: func(t *testing.T, e env) any {
				a, err := e.p.Archive("a-xyzzy", 0)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := a.Put(t.Context(), "the note", nil); err != nil {
					t.Fatal(err)
				}
				index, notes, err := e.p.ExportArchive(t.Context(), "a-xyzzy")
				if err != nil {
					t.Fatal(err)
				}
				if err := e.p.Clear(t.Context()); err != nil {
					t.Fatal(err)
				}
				return [2]any{index, notes}
			},
			write: func(ctx context.Context, e env, data any) error {
				d := data.([2]any)
				return e.p.ImportArchive(ctx, "a-xyzzy", d[0].([][]byte), d[1].(map[string][]byte))
			},
			check: func(t *testing.T, e env) {
				if index, notes, err := e.p.ExportArchive(t.Context(), "a-xyzzy"); err != nil || len(index) != 1 || len(notes) != 1 {
					t.Errorf("ExportArchive = %d entries, %d notes, %v; want 1, 1", len(index), len(notes), err)
				}
			},
		},
		{
			name: "ImportTaskList", stmt: "l-xyzzy",
			write: func(ctx context.Context, e env, _ any) error {
				return e.p.ImportTaskList(ctx, "l-xyzzy", map[string][]byte{"1": []byte("task")}, false)
			},
			check: func(t *testing.T, e env) {
				if recs, _, err := e.p.ExportTaskList(t.Context(), "l-xyzzy"); err != nil || len(recs) != 1 {
					t.Errorf("ExportTaskList = %d records, %v; want 1", len(recs), err)
				}
			},
		},
		{
			name: "ImportSpill", stmt: "body-xyzzy",
			write: func(ctx context.Context, e env, _ any) error {
				return e.p.ImportSpill(ctx, spill.Ref("body-xyzzy"), []byte("body-xyzzy"), time.Now())
			},
			check: func(t *testing.T, e env) {
				n := 0
				err := e.p.ExportSpill(t.Context(), func(string, []byte, time.Time) error { n++; return nil })
				if err != nil || n != 1 {
					t.Errorf("ExportSpill = %d bodies, %v; want 1", n, err)
				}
			},
		},
	} {
		for _, match := range []string{tc.stmt, "commit"} {
			t.Run(tc.name+"/"+match, func(t *testing.T) {
				proxy, st := openProxied(t, postgres.Options{})
				e := env{st: st, p: mpProject(t, st)}
				var data any
				if tc.setup != nil {
					data = tc.setup(t, e)
				}
				proxy.LoseReplyTo([]byte(match))
				err := tc.write(t.Context(), e, data)
				if err != nil {
					t.Logf("after a lost reply: %v; retried", err)
					err = tc.write(t.Context(), e, data)
				}
				if err != nil {
					t.Errorf("%s = %v", tc.name, err)
				}
				tc.check(t, e)
			})
		}
	}
}

// strandTTL is the lease of the stranded-transaction tests' stores: the
// check that ends a stranded transaction runs halfway through it.
const strandTTL = 2 * time.Second

// strandedStore opens a Store with a lease of strandTTL through a proxy on
// a fresh schema. A stranded backend holds its locks until its connection
// is cut: the proxy is cut before the store is closed and the schema
// dropped.
func strandedStore(t *testing.T) (*pgtest.Proxy, *postgres.Store) {
	t.Helper()
	proxy, dsn := pgtest.NewProxy(t, pgtest.URL(t))
	st, err := postgres.Open(t.Context(), dsn, postgres.Options{Schema: freshSchema(t), LeaseTTL: strandTTL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	t.Cleanup(proxy.Cut)
	return proxy, st
}

// wantStrandedCommitEnded strands the next COMMIT through proxy and runs
// write (named what): it must fail within strandTTL as not written, with
// the *postgres.DatabaseError, not an *postgres.OutcomeUnknownError.
func wantStrandedCommitEnded(t *testing.T, proxy *pgtest.Proxy, what string, write func() error) {
	t.Helper()
	proxy.StrandRequest([]byte("commit"))
	start := time.Now()
	err := write()
	d := time.Since(start)
	var de *postgres.DatabaseError
	var ou *postgres.OutcomeUnknownError
	if !errors.As(err, &de) || errors.As(err, &ou) {
		t.Errorf("%s = %v after %v; want the *postgres.DatabaseError (it did not happen)", what, err, d)
	}
	if d > strandTTL {
		t.Errorf("%s returned after %v", what, d)
	}
}

// A transaction whose COMMIT never reached the server, on a connection
// the server still believes open (a network partition: its backend waits,
// idle in the transaction, for a client that is gone), is ended by the
// check halfway through its bound (pg_terminate_backend of that backend,
// still in that transaction): the write then certainly did not happen,
// and the caller gets the *postgres.DatabaseError, not an
// *postgres.OutcomeUnknownError after the whole bound; nothing was
// written, and the session's row is not left locked.
func TestAStrandedTransactionIsEnded(t *testing.T) {
	proxy, st := strandedStore(t)
	p := mpProject(t, st)
	cp := p.Checkpointer()
	appendN(t, p, "s1", 3)
	wantStrandedCommitEnded(t, proxy, "Truncate", func() error { return cp.Truncate(t.Context(), "s1", 1, 3) })
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	if err := cp.Truncate(ctx, "s1", 2, 3); err != nil {
		t.Errorf("the next Truncate = %v", err)
	}
}

// The same for an append through its transaction (the head cached was
// stale): a COMMIT stranded in a partition is ended halfway through the
// check's bound, and the append fails as not written, its seqs free for
// the next append.
func TestAStrandedAppendTransactionIsEnded(t *testing.T) {
	proxy, st := strandedStore(t)
	p1, p2 := mpProject(t, st), mpProject(t, st)
	appendN(t, p1, "s1", 1)
	appendN(t, p2, "s1", 1) // p1's cached head is stale: its next append takes the transaction
	wantStrandedCommitEnded(t, proxy, "Append", func() error {
		_, err := p1.Checkpointer().Append(t.Context(), "s1", []session.Event{session.UserEvent{Message: model.UserText("x")}}, session.AnyHead)
		return err
	})
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	if head, err := p1.Checkpointer().Append(ctx, "s1", []session.Event{session.UserEvent{Message: model.UserText("y")}}, 2); err != nil || head != 3 {
		t.Errorf("the next Append = %d, %v; want 3", head, err)
	}
}
