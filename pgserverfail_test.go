package liteagent_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// pgFailAgent is an agent on a PostgreSQL store of its own schema whose
// connections are named app.
type pgFailAgent struct {
	st  *postgres.Store
	a   *liteagent.Agent
	f   *fixture
	app string
	dsn string
}

func newPGFailAgent(t *testing.T, dsn string, opts postgres.Options, m model.Provider) *pgFailAgent {
	t.Helper()
	_, _, schema := forkStore(t, pgtest.URL(t))
	opts.Schema = schema
	dsn, app := pgtest.Named(t, dsn)
	st, err := postgres.Open(t.Context(), dsn, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	f := newFixture(t)
	o := f.options(nil)
	o.Model = m
	o.Store = st
	a := f.agent(t, o)
	return &pgFailAgent{st: st, a: a, f: f, app: app, dsn: dsn}
}

// logOf reads session id back through a Store of its own and returns its
// events, one line each: "seq kind text".
func (g *pgFailAgent) logOf(t *testing.T, id string) []string {
	t.Helper()
	st, err := postgres.Open(t.Context(), pgtest.URL(t), postgres.Options{Schema: g.st.Schema()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cp, err := st.Checkpointer(t.Context(), storage.Encoding{Namespace: "acme", ProjectID: g.projectID(t)})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := cp.Read(t.Context(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i, ev := range evs {
		if ev.Seq != int64(i+1) {
			t.Errorf("record %d has seq %d", i, ev.Seq)
		}
		line, _ := ev.MarshalJSON()
		out = append(out, fmt.Sprintf("%d %s", ev.Seq, eventText(string(line))))
	}
	return out
}

func (g *pgFailAgent) projectID(t *testing.T) string {
	t.Helper()
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Storage: storage.Options{Namespace: "acme", Home: g.f.home}, Workdir: g.f.workdir})
	if err != nil {
		t.Fatal(err)
	}
	return paths.Hash
}

// eventText keeps what tells two records apart in a log line: its type
// and its text.
func eventText(line string) string {
	typ := ""
	if i := strings.Index(line, `"type":"`); i >= 0 {
		rest := line[i+8:]
		typ = rest[:strings.IndexByte(rest, '"')]
	}
	text := ""
	if i := strings.Index(line, `"text":"`); i >= 0 {
		rest := line[i+8:]
		text = rest[:strings.IndexByte(rest, '"')]
	}
	return typ + " " + text
}

// A server process killed between two turns (pg_terminate_backend of every
// connection of the Store): the next turn runs.
func TestAPostgresBackendKilledBetweenTurns(t *testing.T) {
	m := modeltest.New()
	g := newPGFailAgent(t, pgtest.URL(t), postgres.Options{}, m)
	if err := g.a.StartSession(t.Context(), "s1"); err != nil {
		t.Fatal(err)
	}
	m.Reply(modeltest.Text("one"), modeltest.Text("two"))
	if _, err := g.a.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	if n := pgtest.Terminate(t, pgtest.Connect(t), g.app); n == 0 {
		t.Fatal("no backend to terminate")
	}
	_, err := g.a.Send(t.Context(), "second")
	if err != nil {
		t.Errorf("the turn after the kill: %v", err)
	}
	if got, want := fmt.Sprint(g.logOf(t, "s1")), "[1 user  2 assistant one 3 user  4 assistant two]"; got != want {
		t.Errorf("log %s, want %s", got, want)
	}
}

// A server that restarts between two turns (every connection cut, as
// pg_ctl restart does): the next turn runs on new connections.
func TestAPostgresRestartBetweenTurns(t *testing.T) {
	proxy, dsn := pgtest.NewProxy(t, pgtest.URL(t))
	m := modeltest.New()
	g := newPGFailAgent(t, dsn, postgres.Options{}, m)
	if err := g.a.StartSession(t.Context(), "s1"); err != nil {
		t.Fatal(err)
	}
	m.Reply(modeltest.Text("one"), modeltest.Text("two"))
	if _, err := g.a.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	proxy.Cut()
	time.Sleep(50 * time.Millisecond) // the client sees the connections closed
	if _, err := g.a.Send(t.Context(), "second"); err != nil {
		t.Errorf("the turn after the restart: %v", err)
	}
	if got, want := fmt.Sprint(g.logOf(t, "s1")), "[1 user  2 assistant one 3 user  4 assistant two]"; got != want {
		t.Errorf("log %s, want %s", got, want)
	}
}

// A server that goes down in the middle of a turn (while the model
// answers, the turn's lease held): the turn fails with a
// *postgres.DatabaseError; once the server is back, the agent's next turn
// of the session runs at once (its own lease, whose release failed, is not
// in its way), and the log holds every record once.
func TestAPostgresRestartDuringATurn(t *testing.T) {
	proxy, dsn := pgtest.NewProxy(t, pgtest.URL(t))
	var g *pgFailAgent
	calls := 0
	m := modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		calls++
		if calls == 2 {
			proxy.Down(true)
			proxy.Cut()
		}
		return modeltest.Text(fmt.Sprint("answer ", calls)).Chunks(), nil
	})
	g = newPGFailAgent(t, dsn, postgres.Options{}, m)
	if err := g.a.StartSession(t.Context(), "s1"); err != nil {
		t.Fatal(err)
	}
	if _, err := g.a.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	_, err := g.a.Send(t.Context(), "second")
	var de *postgres.DatabaseError
	if !errors.As(err, &de) {
		t.Errorf("the turn the server left: %v (%T), want a *postgres.DatabaseError", err, err)
	}
	proxy.Down(false)
	start := time.Now()
	if _, err := g.a.Send(t.Context(), "third"); err != nil {
		t.Errorf("the turn after the server came back: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the turn after took %v", d)
	}
	got := fmt.Sprint(g.logOf(t, "s1"))
	if want := "[1 user  2 assistant answer 1 3 user  4 user  5 assistant answer 3]"; got != want {
		t.Errorf("log %s, want %s", got, want)
	}
}

// A turn whose server process is killed while it appends (its statement
// waiting for the session's row, which another transaction holds): the
// turn fails with a *postgres.DatabaseError, its lease is released, the
// agent's next turn runs on a new connection, and the log holds every
// record once, with no gap.
func TestAPostgresBackendKilledDuringAnAppend(t *testing.T) {
	m := modeltest.New()
	g := newPGFailAgent(t, pgtest.URL(t), postgres.Options{}, m)
	ctx := t.Context()
	if err := g.a.StartSession(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	m.Reply(modeltest.Text("one"), modeltest.Text("two"), modeltest.Text("three"))
	if _, err := g.a.Send(ctx, "first"); err != nil {
		t.Fatal(err)
	}
	admin := pgtest.Connect(t)
	locker := pgtest.Connect(t)
	tx, err := locker.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT 1 FROM `+g.st.Schema()+`.sessions WHERE session = 's1' FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	turn := make(chan error, 1)
	go func() {
		_, err := g.a.Send(ctx, "second")
		turn <- err
	}()
	pgtest.WaitForLock(t, admin, g.app)
	if n := pgtest.Terminate(t, pgtest.Connect(t), g.app); n == 0 {
		t.Fatal("no backend to terminate")
	}
	err = <-turn
	var de *postgres.DatabaseError
	if !errors.As(err, &de) {
		t.Errorf("the killed turn: %v (%T), want a *postgres.DatabaseError", err, err)
	}
	_ = tx.Rollback(ctx)
	// The lease is not left behind: another Store takes it at once.
	other, err := postgres.Open(ctx, pgtest.URL(t), postgres.Options{Schema: g.st.Schema()})
	if err != nil {
		t.Fatal(err)
	}
	op, err := other.Project(storage.Encoding{Namespace: "acme", ProjectID: g.projectID(t)})
	if err != nil {
		t.Fatal(err)
	}
	l, err := op.Acquire(ctx, "s1", postgres.LeaseOptions{})
	if err != nil {
		t.Errorf("the killed turn's lease: %v", err)
	} else {
		_ = l.Release(ctx)
	}
	other.Close()
	if _, err := g.a.Send(ctx, "third"); err != nil {
		t.Errorf("the turn after the kill: %v", err)
	}
	if got, want := fmt.Sprint(g.logOf(t, "s1")), "[1 user  2 assistant one 3 user  4 assistant two]"; got != want {
		t.Errorf("log %s, want %s", got, want)
	}
}

// pgCtlEnv names a pg_ctl command line (without its action) for the
// database of LITE_AGENT_TEST_POSTGRES, which TestAPostgresServerRestarted
// restarts, stops and starts: give it only for a throwaway cluster of
// your own, never one that others use.
const pgCtlEnv = "LITE_AGENT_TEST_POSTGRES_CTL"

// An agent whose PostgreSQL server really restarts (pg_ctl restart) between
// two turns and in the middle of one, and stops for a while: the turns
// after run at once; a turn while the server is down returns by its ctx's
// deadline with a typed error, and leaves the session to the agent's next
// turn. Opt-in: it needs pgCtlEnv.
func TestAPostgresServerRestarted(t *testing.T) {
	ctl := os.Getenv(pgCtlEnv)
	if ctl == "" {
		t.Skip(pgCtlEnv + " is not set (a pg_ctl command line for a throwaway cluster of LITE_AGENT_TEST_POSTGRES)")
	}
	run := func(action string) {
		t.Helper()
		start := time.Now()
		// The server pg_ctl starts keeps its output open: to a file, not a
		// pipe that the command's Wait would wait on forever.
		out, err := os.CreateTemp(t.TempDir(), "pg_ctl")
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		cmd := exec.Command("sh", "-c", ctl+" -w "+action)
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Run(); err != nil {
			b, _ := os.ReadFile(out.Name())
			t.Fatalf("pg_ctl %s: %v\n%s", action, err, b)
		}
		t.Logf("pg_ctl %s: %v", action, time.Since(start).Round(time.Millisecond))
	}
	calls := 0
	m := modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		calls++
		if calls == 2 {
			run("restart")
		}
		return modeltest.Text(fmt.Sprint("answer ", calls)).Chunks(), nil
	})
	g := newPGFailAgent(t, pgtest.URL(t), postgres.Options{}, m)
	ctx := t.Context()
	if err := g.a.StartSession(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	if _, err := g.a.Send(ctx, "first"); err != nil {
		t.Fatal(err)
	}
	// In the middle of the second turn (while the model answers).
	if _, err := g.a.Send(ctx, "second"); err != nil {
		t.Errorf("a turn the server restarted during: %v", err)
	}
	run("restart")
	if _, err := g.a.Send(ctx, "third"); err != nil {
		t.Errorf("the turn after a restart: %v", err)
	}
	run("-m fast stop")
	dctx, cancel := context.WithTimeout(ctx, time.Second)
	start := time.Now()
	_, err := g.a.Send(dctx, "fourth")
	cancel()
	d := time.Since(start)
	var de *postgres.DatabaseError
	if !errors.As(err, &de) && !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a turn while the server is down: %v (%T)", err, err)
	}
	if d > 3*time.Second {
		t.Errorf("a turn while the server is down returned after %v", d)
	}
	t.Logf("a turn while the server is down: %v after %v", err, d.Round(time.Millisecond))
	run("start")
	if _, err := g.a.Send(ctx, "fifth"); err != nil {
		t.Errorf("the turn after the server came back: %v", err)
	}
	got := fmt.Sprint(g.logOf(t, "s1"))
	if want := "[1 user  2 assistant answer 1 3 user  4 assistant answer 2 5 user  6 assistant answer 3 7 user  8 assistant answer 4]"; got != want {
		t.Errorf("log %s, want %s", got, want)
	}
}
