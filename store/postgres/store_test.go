package postgres_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/lite-agent/lite-agent-go/task"
)

func events(texts ...string) []session.Event {
	evs := make([]session.Event, len(texts))
	for i, s := range texts {
		evs[i] = session.UserEvent{Message: model.UserText(s)}
	}
	return evs
}

// rawRows returns every row of every table of schema as text (bytea as
// hex), as a pg_dump would show them.
func rawRows(t *testing.T, schema string) string {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	rows, err := conn.Query(t.Context(), `SELECT table_name FROM information_schema.tables WHERE table_schema = $1`, schema)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, tb := range tables {
		rows, err := conn.Query(t.Context(), `SELECT r::text FROM `+pgx.Identifier{schema, tb}.Sanitize()+` r`)
		if err != nil {
			t.Fatal(err)
		}
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(tb + ": " + strings.Join(lines, "\n") + "\n")
	}
	return b.String()
}

func TestAEADLeavesNoPlaintextInTheDatabase(t *testing.T) {
	schema := freshSchema(t)
	st := openStore(t, postgres.Options{Schema: schema})
	enc := aeadEncoding(t, "k1")
	p, err := st.Project(enc)
	if err != nil {
		t.Fatal(err)
	}
	const canary = "canary-7f3a-secret"
	ctx := t.Context()
	if _, err := p.Checkpointer().Append(ctx, "s1", events("event "+canary), session.AnyHead); err != nil {
		t.Fatal(err)
	}
	l, err := p.TaskList("s1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Create(ctx, task.CreateInput{Subject: "task " + canary, Description: canary}); err != nil {
		t.Fatal(err)
	}
	a, err := p.Archive("s1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Put(ctx, "note "+canary, map[string]any{"title": canary}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Spill().Put(ctx, "spill "+canary); err != nil {
		t.Fatal(err)
	}
	dump := rawRows(t, schema)
	for _, needle := range []string{canary, hex.EncodeToString([]byte(canary)), "note ", "task "} {
		if strings.Contains(dump, needle) {
			t.Errorf("the database shows %q:\n%s", needle, dump)
		}
	}
	for _, visible := range []string{"acme", "p0", "s1", "xchacha20poly1305"} {
		if !strings.Contains(dump, visible) && !strings.Contains(dump, hex.EncodeToString([]byte(visible))) {
			t.Errorf("documented metadata %q not visible: the test looks in the wrong place", visible)
		}
	}

	// A row copied to another session, project or namespace does not decode.
	conn, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for _, to := range []struct{ ns, project, session string }{
		{"acme", "p0", "s2"}, {"acme", "p9", "s1"}, {"other", "p0", "s1"},
	} {
		q := `INSERT INTO ` + schema + `.events SELECT $1, $2, $3, seq, data FROM ` + schema + `.events WHERE session = 's1' AND project = 'p0' AND namespace = 'acme';
			INSERT INTO ` + schema + `.sessions SELECT $1, $2, $3, head, bytes, modified FROM ` + schema + `.sessions WHERE session = 's1' AND project = 'p0' AND namespace = 'acme'`
		for _, stmt := range strings.Split(q, ";") {
			if _, err := conn.Exec(ctx, stmt, to.ns, to.project, to.session); err != nil {
				t.Fatal(err)
			}
		}
		e := enc
		e.Namespace, e.ProjectID = to.ns, to.project
		p2, err := st.Project(e)
		if err != nil {
			t.Fatal(err)
		}
		_, err = p2.Checkpointer().Read(ctx, to.session, 0)
		var se *storage.Error
		if !errors.As(err, &se) {
			t.Errorf("row copied to %v: Read = %v, want *storage.Error", to, err)
		}
	}
}

func TestBadInputIsOneClearLineWithoutThePassword(t *testing.T) {
	good := pgtest.URL(t)
	u, err := url.Parse(good)
	if err != nil {
		t.Fatal(err)
	}
	pw, _ := u.User.Password()
	wrong := *u
	wrong.User = url.UserPassword(u.User.Username(), "Wr0ngPassw0rd")
	unreachable := *u
	unreachable.Host = "127.0.0.1:1"
	nodb := *u
	nodb.Path = "/no_such_db"
	tests := []struct {
		name, dsn string
		want      any
		mention   []string
	}{
		{"wrong password", wrong.String(), new(*postgres.ConnectError), []string{u.Host, strings.TrimPrefix(u.Path, "/")}},
		{"unreachable host", unreachable.String(), new(*postgres.ConnectError), []string{"127.0.0.1:1"}},
		{"unknown database", nodb.String(), new(*postgres.ConnectError), []string{"no_such_db"}},
		{"typo in the scheme", strings.Replace(good, "postgres://", "postgre://", 1), new(*postgres.ConfigError), nil},
		{"bad port", strings.Replace(good, u.Host, u.Hostname()+":99999x", 1), new(*postgres.ConfigError), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()
			st, err := postgres.Open(ctx, tt.dsn, postgres.Options{Schema: "never_created"})
			if err == nil {
				st.Close()
				t.Fatal("Open succeeded")
			}
			msg := err.Error()
			t.Log(msg)
			switch w := tt.want.(type) {
			case **postgres.ConnectError:
				if !errors.As(err, w) {
					t.Errorf("error %T, want %T", err, *w)
				}
			case **postgres.ConfigError:
				if !errors.As(err, w) {
					t.Errorf("error %T, want %T", err, *w)
				}
			}
			for _, secret := range []string{pw, "Wr0ngPassw0rd"} {
				if secret != "" && strings.Contains(msg, secret) {
					t.Errorf("error shows a password: %s", msg)
				}
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("error is more than one line: %q", msg)
			}
			for _, m := range tt.mention {
				if !strings.Contains(msg, m) {
					t.Errorf("error does not name %q: %s", m, msg)
				}
			}
		})
	}
}

func TestSchemaOfAnotherVersionIsRefused(t *testing.T) {
	url := pgtest.URL(t)
	schema := freshSchema(t)
	openStore(t, postgres.Options{Schema: schema})
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for _, v := range []int{postgres.SchemaVersion + 1, 0} {
		if _, err := conn.Exec(t.Context(), `UPDATE `+schema+`.schema_version SET version = $1`, v); err != nil {
			t.Fatal(err)
		}
		_, err := postgres.Open(t.Context(), url, postgres.Options{Schema: schema})
		var se *postgres.SchemaError
		if !errors.As(err, &se) || se.Found != v || se.Want != postgres.SchemaVersion {
			t.Fatalf("version %d: Open = %v, want *SchemaError", v, err)
		}
		if !strings.Contains(err.Error(), "lite-agent") {
			t.Errorf("error does not say what to run: %v", err)
		}
	}

	// A schema holding someone else's tables is refused too, untouched.
	foreign := freshSchema(t)
	if _, err := conn.Exec(t.Context(), `CREATE SCHEMA `+foreign+`; CREATE TABLE `+foreign+`.theirs (x int)`); err != nil {
		t.Fatal(err)
	}
	_, err = postgres.Open(t.Context(), url, postgres.Options{Schema: foreign})
	var se *postgres.SchemaError
	if !errors.As(err, &se) || se.Found != 0 {
		t.Fatalf("foreign schema: Open = %v, want *SchemaError", err)
	}
	if _, err := postgres.Open(t.Context(), url, postgres.Options{Schema: "Bad-Name"}); !errors.As(err, new(*postgres.ConfigError)) {
		t.Errorf("bad schema name: %v, want *ConfigError", err)
	}
}

func TestConcurrentFirstOpensCreateTheSchemaOnce(t *testing.T) {
	url := pgtest.URL(t)
	schema := freshSchema(t)
	errs := make(chan error, 6)
	for range 6 {
		go func() {
			st, err := postgres.Open(t.Context(), url, postgres.Options{Schema: schema})
			if err == nil {
				st.Close()
			}
			errs <- err
		}()
	}
	for range 6 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func TestLeaseFencing(t *testing.T) {
	st := openStore(t, postgres.Options{LeaseTTL: time.Second})
	a, err := st.Project(storage.Encoding{ProjectID: "p"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := st.Project(storage.Encoding{ProjectID: "p"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	la, err := a.Acquire(ctx, "s1", postgres.LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Acquire(ctx, "s1", postgres.LeaseOptions{}); !errors.Is(err, postgres.ErrBusy) {
		t.Errorf("second Acquire by the holder = %v, want busy", err)
	}
	// Renewal keeps the lease past its TTL.
	time.Sleep(1500 * time.Millisecond)
	if _, err := a.Checkpointer().Append(ctx, "s1", events("a1"), 0); err != nil {
		t.Fatalf("holder's append after a TTL: %v", err)
	}
	for name, op := range map[string]func() error{
		"Append":        func() error { _, err := b.Checkpointer().Append(ctx, "s1", events("b"), session.AnyHead); return err },
		"Truncate":      func() error { return b.Checkpointer().Truncate(ctx, "s1", 0, session.AnyHead) },
		"Delete":        func() error { return b.Checkpointer().Delete(ctx, "s1") },
		"DeleteSession": func() error { return b.DeleteSession(ctx, "s1") },
	} {
		if err := op(); !errors.Is(err, postgres.ErrBusy) {
			t.Errorf("%s by another Project = %v, want busy", name, err)
		}
	}
	// Other sessions are not affected.
	if _, err := b.Checkpointer().Append(ctx, "s2", events("b"), 0); err != nil {
		t.Errorf("append to another session: %v", err)
	}
	// The lease passes on behind the holder's back: its writes are fenced.
	conn, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	// The holder's renewer still runs, every third of the TTL, and may
	// extend the lease again between the UPDATE and the Acquire: expire it
	// once more and retry then (a renewal of a lease nobody took is right).
	var lb *postgres.Lease
	for attempt := 1; ; attempt++ {
		if _, err := conn.Exec(ctx, `UPDATE `+st.Schema()+`.leases SET expires = now() - interval '1 second' WHERE session = 's1'`); err != nil {
			t.Fatal(err)
		}
		lb, err = b.Acquire(ctx, "s1", postgres.LeaseOptions{})
		if err == nil {
			break
		}
		if !errors.Is(err, postgres.ErrBusy) || attempt == 20 {
			t.Fatalf("Acquire of an expired lease (attempt %d): %v", attempt, err)
		}
	}
	if lb.Token() <= la.Token() {
		t.Errorf("token %d after %d: fencing tokens must grow", lb.Token(), la.Token())
	}
	_, err = a.Checkpointer().Append(ctx, "s1", events("a2"), session.AnyHead)
	var lost *postgres.LeaseLostError
	if !errors.As(err, &lost) {
		t.Errorf("append by the old holder = %v, want *LeaseLostError", err)
	}
	if _, err := b.Checkpointer().Append(ctx, "s1", events("b1"), 1); err != nil {
		t.Errorf("append by the new holder: %v", err)
	}
	if err := la.Release(ctx); err != nil {
		t.Errorf("releasing a lost lease: %v", err)
	}
	if err := lb.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Checkpointer().Append(ctx, "s1", events("a3"), 2); err != nil {
		t.Errorf("append after release: %v", err)
	}
}

func TestDeleteSessionKeepsSharedLists(t *testing.T) {
	p := project(t, storage.Encoding{ProjectID: "p"})
	ctx := t.Context()
	for _, id := range []string{"s1", "s2"} {
		if _, err := p.Checkpointer().Append(ctx, id, events("hi"), 0); err != nil {
			t.Fatal(err)
		}
		l, err := p.TaskList(id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Create(ctx, task.CreateInput{Subject: "t"}); err != nil {
			t.Fatal(err)
		}
		a, err := p.Archive(id, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Put(ctx, "note of "+id, nil); err != nil {
			t.Fatal(err)
		}
	}
	shared, err := p.TaskList("s2")
	if err != nil {
		t.Fatal(err)
	}
	if err := shared.MarkShared(ctx); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"s1", "s2", "unknown"} {
		if err := p.DeleteSession(ctx, id); err != nil {
			t.Fatalf("DeleteSession(%s): %v", id, err)
		}
	}
	infos, err := p.Checkpointer().List(ctx)
	if err != nil || len(infos) != 0 {
		t.Errorf("sessions after delete: %v, %v", infos, err)
	}
	for id, want := range map[string]int{"s1": 0, "s2": 1} {
		l, _ := p.TaskList(id)
		ts, err := l.List(ctx)
		if err != nil || len(ts) != want {
			t.Errorf("list %s after delete: %d tasks, %v; want %d", id, len(ts), err, want)
		}
		a, _ := p.Archive(id, 0)
		out, err := a.Search(ctx, archiveQuery(""))
		if err != nil || strings.Contains(out, "ref") {
			t.Errorf("archive %s after delete: %q, %v", id, out, err)
		}
	}
}

func TestSweepByAgeAndSizeWithoutDecoding(t *testing.T) {
	st := openStore(t, postgres.Options{})
	ctx := t.Context()
	p, err := st.Project(aeadEncoding(t, "k1"))
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 4000)
	for _, id := range []string{"old", "mid", "new", "held"} {
		if _, err := p.Checkpointer().Append(ctx, id, events(big), 0); err != nil {
			t.Fatal(err)
		}
	}
	conn, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for id, age := range map[string]string{"old": "40 days", "mid": "2 days", "held": "50 days"} {
		if _, err := conn.Exec(ctx, `UPDATE `+st.Schema()+`.sessions SET modified = now() - $1::interval WHERE session = $2`, age, id); err != nil {
			t.Fatal(err)
		}
	}
	l, err := p.Acquire(ctx, "held", postgres.LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release(ctx)

	dry, err := st.Sweep(ctx, postgres.SweepOptions{Namespace: "acme", MaxAge: 30 * 24 * time.Hour, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(dry.Deleted) != 1 || dry.Deleted[0].Session != "old" || dry.Leased != 1 {
		t.Fatalf("dry run = %+v, want old deleted and held kept", dry)
	}
	if h, _ := p.Checkpointer().Head(ctx, "old"); h != 1 {
		t.Fatal("dry run deleted")
	}
	// With a size limit the oldest go first, until the rest fit; the leased
	// session does not count against the limit (counted, it would make the
	// sweep delete "new" too).
	rep, err := st.Sweep(ctx, postgres.SweepOptions{Namespace: "acme", MaxAge: 30 * 24 * time.Hour, MaxBytes: 6000}) // each session ~5.5 KB encoded
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range rep.Deleted {
		got = append(got, d.Session+":"+d.Reason)
	}
	if strings.Join(got, " ") != "old:age mid:size" {
		t.Errorf("swept %v, want [old:age mid:size]", got)
	}
	infos, _ := p.Checkpointer().List(ctx)
	var left []string
	for _, in := range infos {
		left = append(left, in.ID)
	}
	if strings.Join(left, " ") != "new held" {
		t.Errorf("left %v, want [new held]", left)
	}
	// MaxBytes 0 is no limit unless LimitBytes says it is one
	// (cleanup --max-bytes 0): then every session not leased goes.
	if rep, err := st.Sweep(ctx, postgres.SweepOptions{Namespace: "acme"}); err != nil || len(rep.Deleted) != 0 {
		t.Fatalf("sweep without limits = %+v, %v; want nothing deleted", rep, err)
	}
	rep, err = st.Sweep(ctx, postgres.SweepOptions{Namespace: "acme", LimitBytes: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Deleted) != 1 || rep.Deleted[0].Session != "new" || rep.Deleted[0].Reason != "size" {
		t.Errorf("sweep with a zero limit = %+v, want new deleted for size", rep)
	}
	if h, _ := p.Checkpointer().Head(ctx, "held"); h != 1 {
		t.Error("the leased session was deleted")
	}
}

func TestAppendIsAllOrNothing(t *testing.T) {
	p := project(t, storage.Encoding{ProjectID: "p"})
	ctx := t.Context()
	if _, err := p.Checkpointer().Append(ctx, "s1", events("a", "b"), 0); err != nil {
		t.Fatal(err)
	}
	// An event too large for the wire protocol fails the batch whole.
	huge := session.UserEvent{Message: model.UserText(string(bytes.Repeat([]byte("z"), 1<<20)))}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := p.Checkpointer().Append(cctx, "s1", []session.Event{huge, huge}, 2); err == nil {
		t.Fatal("append under a cancelled context succeeded")
	}
	if _, err := p.Checkpointer().Append(ctx, "s1", events("c"), 2); err != nil {
		t.Fatalf("next append: %v", err)
	}
	evs, err := p.Checkpointer().Read(ctx, "s1", 0)
	if err != nil || len(evs) != 3 {
		t.Fatalf("read %d records, %v; want 3", len(evs), err)
	}
}

func TestNextCallWorksAfterTheConnectionIsLost(t *testing.T) {
	// The store's connections carry their own application_name, so that
	// only they are killed, not those of tests running beside this one.
	app := freshSchema(t)
	st, err := postgres.Open(t.Context(), withParam(pgtest.URL(t), "application_name", app), postgres.Options{Schema: app})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := st.Project(storage.Encoding{ProjectID: "p"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if _, err := p.Checkpointer().Append(ctx, "s1", events("a"), 0); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	// Kill the store's connections.
	var killed int
	if err := conn.QueryRow(ctx, `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1`, app).Scan(&killed); err != nil {
		t.Fatal(err)
	}
	if killed == 0 {
		t.Fatal("no connection of the store to kill")
	}
	var head int64
	for range 3 { // a call may meet a dead pooled connection: it fails whole
		head, err = p.Checkpointer().Append(ctx, "s1", events("b"), 1)
		if err == nil {
			break
		}
		var de *postgres.DatabaseError
		if !errors.As(err, &de) || strings.Contains(err.Error(), "\n") {
			t.Fatalf("append on a lost connection: %v, want a one-line *DatabaseError", err)
		}
	}
	if err != nil || head != 2 {
		t.Fatalf("append after reconnect = %d, %v; want 2", head, err)
	}
	evs, err := p.Checkpointer().Read(ctx, "s1", 0)
	if err != nil || len(evs) != 2 {
		t.Fatalf("read %d, %v; want 2 records", len(evs), err)
	}
}

// withParam adds the query parameter k=v to the URL u.
func withParam(u, k, v string) string {
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	return u + sep + url.QueryEscape(k) + "=" + url.QueryEscape(v)
}

func TestEnumerateForMigration(t *testing.T) {
	st := openStore(t, postgres.Options{})
	ctx := t.Context()
	p, err := st.Project(aeadEncoding(t, "k1"))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := p.Archive("s1", 0)
	e1, err := a.Put(ctx, "first note", map[string]any{"tool": "bash"})
	if err != nil {
		t.Fatal(err)
	}
	e2, err := a.Put(ctx, "second note", nil)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := p.TaskList("shared-list")
	if err := l.MarkShared(ctx); err != nil {
		t.Fatal(err)
	}
	ref, err := p.Spill().Put(ctx, "body")
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.ArchiveEntries(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Ref != e1.Ref || got[0].Content != "first note" || got[0].Metadata["tool"] != "bash" ||
		got[1].Ref != e2.Ref || got[1].Metadata != nil {
		t.Errorf("ArchiveEntries = %+v", got)
	}
	if ids, err := p.Archives(ctx); err != nil || strings.Join(ids, ",") != "s1" {
		t.Errorf("Archives = %v, %v", ids, err)
	}
	if ls, err := p.TaskLists(ctx); err != nil || len(ls) != 1 || ls[0] != (postgres.TaskListInfo{ID: "shared-list", Shared: true}) {
		t.Errorf("TaskLists = %v, %v", ls, err)
	}
	if refs, err := p.SpillRefs(ctx); err != nil || strings.Join(refs, ",") != ref {
		t.Errorf("SpillRefs = %v, %v", refs, err)
	}
	if ps, err := st.Projects(ctx, "acme"); err != nil || strings.Join(ps, ",") != "p0" {
		t.Errorf("Projects = %v, %v", ps, err)
	}
}

func TestAppendsRacingDeletesLeaveNoOrphans(t *testing.T) {
	st := openStore(t, postgres.Options{})
	p, err := st.Project(storage.Encoding{ProjectID: "p"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	cp := p.Checkpointer()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				if w == 0 && i%4 == 0 {
					if err := cp.Delete(ctx, "s1"); err != nil {
						t.Error(err)
					}
					continue
				}
				if _, err := cp.Append(ctx, "s1", events("x", "y"), session.AnyHead); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	head, err := cp.Head(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	evs, err := cp.Read(ctx, "s1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(evs)) != head {
		t.Fatalf("head %d but %d records", head, len(evs))
	}
	for i, ev := range evs {
		if ev.Seq != int64(i+1) {
			t.Fatalf("record %d has seq %d", i, ev.Seq)
		}
	}
	conn, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var orphans int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM `+st.Schema()+`.events e WHERE NOT EXISTS
		(SELECT 1 FROM `+st.Schema()+`.sessions s WHERE s.namespace = e.namespace AND s.project = e.project AND s.session = e.session)`).Scan(&orphans); err != nil {
		t.Fatal(err)
	}
	if orphans != 0 {
		t.Errorf("%d events without a session row", orphans)
	}
}

func TestMissingPermissionIsOneClearLine(t *testing.T) {
	good := pgtest.URL(t)
	conn, err := pgx.Connect(t.Context(), good)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	role := freshSchema(t) // a fresh name; the schema itself is never created
	const pw = "R0lePassw0rd"
	if _, err := conn.Exec(t.Context(), `CREATE ROLE `+role+` LOGIN PASSWORD '`+pw+`'`); err != nil {
		t.Skipf("cannot create a role on the test database: %v", err)
	}
	t.Cleanup(func() { conn.Exec(context.Background(), `DROP ROLE IF EXISTS `+role) })
	// A new role has no CREATE on the database (PUBLIC never gets it), so
	// it cannot create the store's schema.
	u, _ := url.Parse(good)
	u.User = url.UserPassword(role, pw)
	_, err = postgres.Open(t.Context(), u.String(), postgres.Options{Schema: role})
	var ce *postgres.ConnectError
	if !errors.As(err, &ce) {
		t.Fatalf("Open without CREATE = %v, want *ConnectError", err)
	}
	msg := err.Error()
	t.Log(msg)
	if strings.Contains(msg, pw) || strings.Contains(msg, "\n") || !strings.Contains(msg, "permission denied") || !strings.Contains(msg, ce.Database()) {
		t.Errorf("error is not one clear line naming the database without the password: %q", msg)
	}
}

// TestAppendWithAKnownHeadKeepsTheRules covers appends whose head is right
// (given, or remembered from this Project's last write), which take the
// one-statement path: the lease and the head are still checked in the
// database, and a head another Project moved is followed, not overwritten.
func TestAppendWithAKnownHeadKeepsTheRules(t *testing.T) {
	st := openStore(t, postgres.Options{})
	ctx := t.Context()
	project := func() *postgres.Project {
		p, err := st.Project(storage.Encoding{ProjectID: "known"})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := project(), project()
	for _, tc := range []struct {
		name     string
		expected int64 // b's expectedHead
	}{
		{"exact head", 1},
		{"remembered head", session.AnyHead},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := strings.ReplaceAll(tc.name, " ", "-")
			if _, err := b.Checkpointer().Append(ctx, id, events("b1"), 0); err != nil {
				t.Fatal(err)
			}
			l, err := a.Acquire(ctx, id, postgres.LeaseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := b.Checkpointer().Append(ctx, id, events("b2"), tc.expected); !errors.Is(err, postgres.ErrBusy) {
				t.Errorf("append while another Project holds the lease = %v, want busy", err)
			}
			// The holder's append moves the head behind b's back.
			if _, err := a.Checkpointer().Append(ctx, id, events("a2"), 1); err != nil {
				t.Fatalf("holder's append: %v", err)
			}
			if err := l.Release(ctx); err != nil {
				t.Fatal(err)
			}
			head, err := b.Checkpointer().Append(ctx, id, events("b3"), tc.expected)
			if tc.expected >= 0 {
				var conflict *session.ConflictError
				if !errors.As(err, &conflict) || conflict.Head != 2 {
					t.Fatalf("append at a stale head = %v, want *session.ConflictError at head 2", err)
				}
				return
			}
			if err != nil || head != 3 {
				t.Fatalf("append after another Project's = %d, %v; want head 3", head, err)
			}
			evs, err := b.Checkpointer().Read(ctx, id, 0)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, ev := range evs {
				got = append(got, ev.Event.(session.UserEvent).Message.Text)
			}
			if strings.Join(got, ",") != "b1,a2,b3" {
				t.Errorf("log = %v, want b1,a2,b3", got)
			}
		})
	}
}
