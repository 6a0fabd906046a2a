package liteagent_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"runtime"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// twoAgentsOneStore is what Example_twoAgentsOnePostgresStore shows: two
// agents of one process (two request handlers, say) share one PostgreSQL
// store. While the first runs a turn of a session, the second is refused
// that session with a *postgres.BusyError naming the holder; once the turn
// ends, the second resumes the session and its model sees the first's turn.
func twoAgentsOneStore(ctx context.Context, dsn string, opts postgres.Options, home, work string) ([]string, error) {
	st, err := postgres.Open(ctx, dsn, opts)
	if err != nil {
		return nil, err // one line naming host and database, never the password
	}
	defer st.Close() // after both agents: an agent never closes the Store

	// The first agent's model answers once the test lets it, so that its
	// turn holds the session's lease meanwhile.
	inTurn, finish := make(chan struct{}), make(chan struct{})
	first := modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		close(inTurn)
		<-finish
		return modeltest.Text("Ticket 7 is a duplicate of 3.").Chunks(), nil
	})
	second := modeltest.New()
	second.Reply(modeltest.Text("It duplicates ticket 3."))
	agent := func(p model.Provider) (*liteagent.Agent, error) {
		return liteagent.New(ctx, liteagent.Options{
			Model: p, ModelName: "claude-sonnet-4-5", Workdir: work,
			Storage: storage.Options{Namespace: "acme", Home: home},
			Store:   st,
		})
	}
	a, err := agent(first)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	b, err := agent(second)
	if err != nil {
		return nil, err
	}
	defer b.Close()

	var out []string
	if err := a.StartSession(ctx, "ticket-7"); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() {
		res, err := a.Send(ctx, "Triage ticket 7.")
		if err == nil {
			out = append(out, "first: "+res.Text)
		}
		done <- err
	}()
	<-inTurn
	if err := b.Resume("ticket-7"); err != nil {
		return nil, err
	}
	_, err = b.Send(ctx, "What did you find on ticket 7?")
	// session.ErrLeased is the backend-neutral test; *postgres.BusyError
	// names the holder. (liteagent.ErrSessionBusy is another thing: a
	// restore or compaction of this agent in the way.)
	var busy *postgres.BusyError
	out = append(out, fmt.Sprintf("second, meanwhile: busy %v, leased %v", errors.As(err, &busy), errors.Is(err, session.ErrLeased)))
	close(finish)
	if err := <-done; err != nil {
		return nil, err
	}
	res, err := b.Send(ctx, "What did you find on ticket 7?")
	if err != nil {
		return nil, err
	}
	out = append(out, "second, after: "+res.Text,
		fmt.Sprint("messages the second model saw: ", len(second.Requests()[0].Messages)))
	return out, nil
}

// Two agents in one process share one PostgreSQL store: one session at a
// time is written by one of them. It needs a database, so it has no
// checked output here; TestTwoAgentsOnePostgresStore runs it against
// LITE_AGENT_TEST_POSTGRES's.
func Example_twoAgentsOnePostgresStore() {
	ctx := context.Background()
	home, _ := os.MkdirTemp("", "acme-home")
	defer os.RemoveAll(home)
	out, err := twoAgentsOneStore(ctx, "postgres://agent@db.internal/agents", postgres.Options{}, home, ".")
	if err != nil {
		log.Print(err)
		return
	}
	for _, line := range out {
		fmt.Println(line)
	}
}

// TestTwoAgentsOnePostgresStore runs Example_twoAgentsOnePostgresStore's
// program against the test database (skipped without one, failing under
// CI).
func TestTwoAgentsOnePostgresStore(t *testing.T) {
	_, url, schema := forkStore(t, pgtest.URL(t))
	before := runtime.NumGoroutine()
	out, err := twoAgentsOneStore(t.Context(), url, postgres.Options{Schema: schema}, t.TempDir(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"second, meanwhile: busy true, leased true",
		"first: Ticket 7 is a duplicate of 3.",
		"second, after: It duplicates ticket 3.",
		"messages the second model saw: 3",
	}
	if fmt.Sprint(out) != fmt.Sprint(want) {
		t.Errorf("got\n%q\nwant\n%q", out, want)
	}
	// The agents are closed and so is the store the program opened: what
	// they started has ended.
	deadline := time.Now().Add(10 * time.Second) // room for a loaded machine running -race
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines left after Close (%d before):\n%s", n-before, before, buf[:runtime.Stack(buf, true)])
	}
}
