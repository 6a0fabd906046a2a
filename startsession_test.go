package liteagent_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// startChildEnv makes the test binary a child that starts a new session
// of a chosen id and runs one prompt on it, as `lite-agent run
// --session-id` does. Its value is "<home>\n<workdir>\n<id>", and
// "\n<url>\n<schema>" after it to store through PostgreSQL. It exits 0
// when the prompt ran, 4 when the session was taken (ErrSessionExists), 1
// otherwise.
const startChildEnv = "LITE_AGENT_START_SESSION_CHILD"

func runStartChild(v string) int {
	parts := strings.Split(v, "\n")
	if len(parts) != 3 && len(parts) != 5 {
		fmt.Fprintln(os.Stderr, "bad", startChildEnv)
		return 2
	}
	p := modeltest.New()
	p.Reply(modeltest.Text("the other run's answer"))
	a, done, err := openChildAgent(p, parts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer done()
	err = a.StartSession(context.Background(), parts[2])
	if err == nil {
		_, err = a.Send(context.Background(), "the other run's prompt")
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, liteagent.ErrSessionExists):
		fmt.Fprintln(os.Stderr, "the session was taken:", err)
		return 4
	}
	fmt.Fprintln(os.Stderr, "the run failed:", err)
	return 1
}

// openChildAgent opens, in a child, the agent over the data home and
// workdir parts[0] and parts[1] with model p, storing through the
// PostgreSQL store parts[3:] names when there is one, and returns it with
// the function that closes it and its store. tweaks change the options
// first.
func openChildAgent(p *modeltest.Provider, parts []string, tweaks ...func(*liteagent.Options)) (*liteagent.Agent, func(), error) {
	opts := liteagent.Options{
		Model: p, ModelName: "test-model", Workdir: parts[1],
		Storage: storage.Options{Namespace: "acme", Home: parts[0]}, OnApproval: approveAll,
	}
	for _, tw := range tweaks {
		tw(&opts)
	}
	closeStore, err := withChildStore(&opts, parts[3:])
	if err != nil {
		return nil, nil, err
	}
	a, err := liteagent.New(context.Background(), opts)
	if err != nil {
		closeStore()
		return nil, nil, err
	}
	return a, func() { a.Close(); closeStore() }, nil
}

// A session started with a chosen id (StartSession, `lite-agent run
// --session-id`) is checked to be free when it starts; another writer
// that makes the id after that check, before the first record — a fork
// to the id in another process (done, or paused holding the new session)
// or another process starting the same id — owns it. Before, the
// session's first turn read that writer's log and continued it: two
// owners' records in one log. Now the turn fails with a
// *SessionExistsError matching ErrSessionExists and writes nothing.
func TestAStartedSessionIsNotContinuedFromAnotherWriter(t *testing.T) {
	checkStartRace(t, nil)
}

// The same through PostgreSQL.
func TestAStartedSessionThroughPostgresIsNotContinuedFromAnotherWriter(t *testing.T) {
	url := pgtest.URL(t)
	checkStartRace(t, pgForkStore(url))
}

// checkStartRace runs the cases of the start race. withStore, when not
// nil, sets the agent's Store and returns what the children need to open
// it.
func checkStartRace(t *testing.T, withStore func(*testing.T, *liteagent.Options) string) {
	const newID = "chosen-0001"
	for _, tc := range []struct {
		name string
		// other makes newID in another process between the start and
		// the first prompt; the prompt, in a goroutine, is started
		// through send at the moment other chooses.
		other func(t *testing.T, env childEnv, send func())
		// prompts are the prompts the other writer's log holds.
		prompts []string
	}{
		{
			name: "a fork wrote it",
			other: func(t *testing.T, env childEnv, send func()) {
				out, err := childtest.Command(t.Context(), env.fork+"0"+env.store).CombinedOutput()
				if err != nil {
					t.Fatalf("the fork failed: %v\n%s", err, out)
				}
				send()
			},
			prompts: []string{"read big.txt", "and now?"},
		},
		{
			name: "a fork holds it",
			other: func(t *testing.T, env childEnv, send func()) {
				c := childtest.Start(t, "ready", env.fork+"1"+env.store)
				send()
				time.Sleep(300 * time.Millisecond) // the prompt waits, or fails, meanwhile
				if err := c.Release(); err != nil {
					t.Fatalf("the fork failed: %v", err)
				}
			},
			prompts: []string{"read big.txt", "and now?"},
		},
		{
			name: "another run started it",
			other: func(t *testing.T, env childEnv, send func()) {
				out, err := childtest.Command(t.Context(), env.start).CombinedOutput()
				if err != nil {
					t.Fatalf("the other run failed: %v\n%s", err, out)
				}
				send()
			},
			prompts: []string{"the other run's prompt"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			opts := f.options(nil)
			opts.ContextWindow = 4000
			hooks := recordRunHooks(t, &opts)
			store := ""
			if withStore != nil {
				store = withStore(t, &opts)
			}
			a := f.agent(t, opts)
			sessionWithData(t, f, a)
			orig := a.SessionID()
			env := childEnv{
				fork:  forkRaceChildEnv + "=" + f.home + "\n" + f.workdir + "\n" + orig + "\n" + newID + "\n",
				start: startChildEnv + "=" + f.home + "\n" + f.workdir + "\n" + newID + store,
				store: store,
			}
			ran := len(hooks())
			if err := a.StartSession(t.Context(), newID); err != nil {
				t.Fatal(err)
			}
			if a.SessionID() != newID {
				t.Fatalf("current session %q, want %q", a.SessionID(), newID)
			}
			f.p.Reply(modeltest.Text("my answer"))
			sent := make(chan error, 1)
			tc.other(t, env, func() {
				go func() {
					_, err := a.Send(t.Context(), "my prompt")
					sent <- err
				}()
			})
			err := <-sent
			var se *liteagent.SessionExistsError
			if !errors.Is(err, liteagent.ErrSessionExists) || !errors.As(err, &se) || se.SessionID != newID {
				t.Fatalf("the prompt on the taken session: %v; want a *SessionExistsError", err)
			}
			cps, err := a.Checkpoints(t.Context(), newID)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range cps {
				got = append(got, c.Prompt)
			}
			if strings.Join(got, "|") != strings.Join(tc.prompts, "|") {
				t.Errorf("the session's prompts are %q; want only the other writer's %q", got, tc.prompts)
			}
			// A later prompt, in the same agent, still does not
			// continue it; Resume does, as asked.
			if _, err := a.Send(t.Context(), "my prompt again"); !errors.Is(err, liteagent.ErrSessionExists) {
				t.Errorf("a second prompt: %v; want ErrSessionExists", err)
			}
			checkNoRunHooks(t, hooks, ran, "the prompts on the taken session")
			resumeThenPrompt(t, f, a, newID, hooks)
		})
	}
}

// childEnv is what the start race's children are given.
type childEnv struct {
	fork  string // the fork child's, without its pause and store
	start string // the start child's
	store string // the store's part of the fork child's
}

// StartSession itself refuses an id with something stored, and a
// session it started takes its first prompt as any other.
func TestStartSession(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(nil))
	f.p.Reply(modeltest.Text("one"))
	if _, err := a.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	old := a.SessionID()
	var se *liteagent.SessionExistsError
	if err := a.StartSession(t.Context(), old); !errors.As(err, &se) || !errors.Is(err, liteagent.ErrSessionExists) {
		t.Fatalf("StartSession of a stored session: %v; want a *SessionExistsError", err)
	}
	if a.SessionID() != old {
		t.Errorf("a refused StartSession changed the current session to %q", a.SessionID())
	}
	var serr *storage.Error
	if err := a.StartSession(t.Context(), "../x"); !errors.As(err, &serr) {
		t.Errorf("StartSession of a bad id: %v; want a *storage.Error", err)
	}
	if err := a.StartSession(t.Context(), "fresh-1"); err != nil {
		t.Fatal(err)
	}
	f.p.Reply(modeltest.Text("two"), modeltest.Text("three"))
	for _, p := range []string{"second", "third"} {
		if _, err := a.Send(t.Context(), p); err != nil {
			t.Fatalf("prompt %q on the started session: %v", p, err)
		}
	}
	if cps, err := a.Checkpoints(t.Context(), "fresh-1"); err != nil || len(cps) != 2 {
		t.Errorf("the started session has %d prompts (%v), want 2", len(cps), err)
	}
}

// deleteAgentChildEnv makes the test binary a child that deletes a
// session through an agent (Agent.DeleteSession, as lite-agent sessions
// delete does). Its value is "<home>\n<workdir>\n<id>", and
// "\n<url>\n<schema>" after it to store through PostgreSQL. It exits 0
// when the session was deleted, 1 otherwise.
const deleteAgentChildEnv = "LITE_AGENT_DELETE_AGENT_CHILD"

func runDeleteAgentChild(v string) int {
	parts := strings.Split(v, "\n")
	if len(parts) != 3 && len(parts) != 5 {
		fmt.Fprintln(os.Stderr, "bad", deleteAgentChildEnv)
		return 2
	}
	a, done, err := openChildAgent(modeltest.New(), parts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer done()
	if err := a.DeleteSession(context.Background(), parts[2]); err != nil {
		fmt.Fprintln(os.Stderr, "the delete failed:", err)
		return 1
	}
	return 0
}

// A session resumed as a stored one (ResumeStored, `lite-agent run
// --resume`/`--continue`) is checked to be stored when it is resumed; a
// delete of it in another process after that check, before the first
// turn loads it, is final. Before, the turn found no log and started the
// deleted session over under its id: the session came back with only the
// new prompt, its history gone and the delete undone. Now the turn fails
// with a *session.NotFoundError and writes nothing.
func TestAResumedSessionDeletedMeanwhileIsNotStartedOver(t *testing.T) {
	checkResumeDeleteRace(t, nil, false)
}

// The same through PostgreSQL.
func TestAResumedSessionDeletedMeanwhileThroughPostgresIsNotStartedOver(t *testing.T) {
	url := pgtest.URL(t)
	checkResumeDeleteRace(t, pgForkStore(url), false)
}

// checkResumeDeleteRace resumes a stored session in a second agent (or,
// between, keeps it current in the agent that wrote it), deletes it in a
// child and checks that the next two prompts neither run nor bring it
// back, and that Resume then starts the id over. withStore, when not nil,
// sets the agents' Store and returns what the child needs to open it.
func checkResumeDeleteRace(t *testing.T, withStore func(*testing.T, *liteagent.Options) string, between bool) {
	f := newFixture(t)
	opts := f.options(nil)
	hooks := recordRunHooks(t, &opts)
	a, store := agentWithStore(t, f, &opts, withStore)
	f.p.Reply(modeltest.Text("one"))
	if _, err := a.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	id := a.SessionID()
	b := a
	if !between {
		a.Close()
		b = f.agent(t, opts)
		if err := b.ResumeStored(t.Context(), "no-such-session"); !errors.Is(err, session.ErrNotFound) {
			t.Errorf("ResumeStored of an unknown id: %v; want session.ErrNotFound", err)
		}
		if err := b.ResumeStored(t.Context(), id); err != nil {
			t.Fatal(err)
		}
	}
	ran := len(hooks())
	out, err := childtest.Command(t.Context(), deleteAgentChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id+store).CombinedOutput()
	if err != nil {
		t.Fatalf("the delete failed: %v\n%s", err, out)
	}
	for _, prompt := range []string{"after the delete", "and again"} {
		f.p.Reply(modeltest.Text("two"))
		if _, err := b.Send(t.Context(), prompt); !errors.Is(err, session.ErrNotFound) {
			t.Errorf("%q on the session deleted meanwhile: %v; want session.ErrNotFound", prompt, err)
		}
	}
	infos, err := b.ListSessions(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range infos {
		if in.ID == id {
			t.Errorf("the deleted session %s is back", id)
		}
	}
	checkNoRunHooks(t, hooks, ran, "the prompts on the deleted session")
	// Resume (not ResumeStored) starts the id over, as asked.
	resumeThenPrompt(t, f, b, id, hooks)
}

// A session of the data home restored to before its first prompt keeps
// an empty log: it is still stored, and ResumeStored resumes it (as the
// CLI's --resume did before it used ResumeStored).
func TestResumeStoredOfAnEmptiedLog(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(nil))
	f.p.Reply(modeltest.Text("one"))
	if _, err := a.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	id := a.SessionID()
	if _, err := a.Restore(t.Context(), id, 0, liteagent.RestoreOptions{ConversationOnly: true}); err != nil {
		t.Fatal(err)
	}
	b := f.agent(t, f.options(nil))
	if err := b.ResumeStored(t.Context(), id); err != nil {
		t.Fatalf("ResumeStored of a session restored to its start: %v", err)
	}
	f.p.Reply(modeltest.Text("two"))
	if _, err := b.Send(t.Context(), "again"); err != nil {
		t.Errorf("a prompt on it: %v", err)
	}
}

// ctxLeaser is a checkpointer whose lease fails with its context's error,
// as a store's does when the run is cancelled or times out while taking it.
type ctxLeaser struct{ session.Checkpointer }

func (ctxLeaser) LeaseSession(ctx context.Context, _ string) (func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return func() {}, nil
}

// A run of a started session whose context ends while it takes the lease
// was not beaten by another writer: its error is the context's, not a
// *SessionExistsError saying the session "already exists" (which the
// caller reads as "pick another id"); the session is still free and can
// be started by the next run.
func TestStartSessionLeaseCancelledIsNotTaken(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.Checkpointer = ctxLeaser{session.NewMemoryCheckpointer()}
	a := f.agent(t, opts)
	if err := a.StartSession(t.Context(), "fresh-1"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), -time.Second)
	defer cancel()
	_, err := a.Send(ctx, "hello")
	if errors.Is(err, liteagent.ErrSessionExists) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a run whose lease timed out: %v; want the deadline, not ErrSessionExists", err)
	}
	f.p.Reply(modeltest.Text("hi"))
	if _, err := a.Send(t.Context(), "hello"); err != nil {
		t.Fatalf("the next run of the free session: %v", err)
	}
}

// A session the agent started (StartSession) and then left for another
// (a second StartSession, ResumeStored, Clear) without a turn on it is no
// longer the agent's to start: its check does not follow it. Before, the
// check stayed, and a compaction of that session once another writer had
// made it (its rightful owner) failed with a *SessionExistsError.
func TestALeftStartedSessionKeepsNoCheck(t *testing.T) {
	for _, leave := range []struct {
		name string
		do   func(*testing.T, *liteagent.Agent)
	}{
		{"StartSession", func(t *testing.T, a *liteagent.Agent) {
			if err := a.StartSession(t.Context(), "next-2"); err != nil {
				t.Fatal(err)
			}
		}},
		{"Clear", func(_ *testing.T, a *liteagent.Agent) { a.Clear() }},
	} {
		t.Run(leave.name, func(t *testing.T) {
			f := newFixture(t)
			a := f.agent(t, f.options(nil))
			if err := a.StartSession(t.Context(), "left-1"); err != nil {
				t.Fatal(err)
			}
			leave.do(t, a)
			owner := f.agent(t, f.options(nil))
			if err := owner.StartSession(t.Context(), "left-1"); err != nil {
				t.Fatal(err)
			}
			f.p.Reply(modeltest.Text("mine"))
			if _, err := owner.Send(t.Context(), "hello"); err != nil {
				t.Fatal(err)
			}
			if _, err := a.CompactSession(t.Context(), "left-1", liteagent.CompactOptions{}); err != nil {
				t.Errorf("compacting the session the agent left: %v", err)
			}
		})
	}
}

// A session deleted by another process between two turns of an agent
// that keeps it current is not started over by the next turn, nor by the
// one after: before, the next turn found the log gone, took the session
// for a new one and wrote it again under its id with only the new prompt,
// undoing the delete.
func TestASessionDeletedBetweenTurnsIsNotStartedOver(t *testing.T) {
	checkResumeDeleteRace(t, nil, true)
}

// The same through PostgreSQL.
func TestASessionDeletedBetweenTurnsThroughPostgresIsNotStartedOver(t *testing.T) {
	url := pgtest.URL(t)
	checkResumeDeleteRace(t, pgForkStore(url), true)
}

// A session of the data home restored to before its first prompt by
// another agent (another process) between two turns keeps its emptied
// log: it is still stored, and the next turn goes on.
func TestASessionEmptiedBetweenTurnsGoesOn(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(nil))
	f.p.Reply(modeltest.Text("one"))
	if _, err := a.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	id := a.SessionID()
	b := f.agent(t, f.options(nil))
	if _, err := b.Restore(t.Context(), id, 0, liteagent.RestoreOptions{ConversationOnly: true}); err != nil {
		t.Fatal(err)
	}
	b.Close()
	f.p.Reply(modeltest.Text("two"))
	if _, err := a.Send(t.Context(), "after the restore"); err != nil {
		t.Fatalf("a prompt on the emptied session: %v", err)
	}
	fc, err := session.NewFileCheckpointer(a.Paths().SessionsDir, session.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if head, err := fc.Head(t.Context(), id); err != nil || head == 0 {
		t.Fatalf("the emptied session after a turn: head %d, %v", head, err)
	}
}

// errLeaser fails every lease with err.
type errLeaser struct {
	session.Checkpointer
	err error
}

func (l errLeaser) LeaseSession(context.Context, string) (func(), error) { return nil, l.err }

// A run of a started session whose lease cannot be taken is reported as
// a *SessionExistsError only when another holder leases the session (the
// error matches session.ErrLeased, as a *postgres.BusyError does): a store
// that cannot be reached is its own error. Before, every lease error but
// the context's read "already exists", which the caller takes for "pick
// another id".
func TestStartSessionLeaseErrorsSayWhatHappened(t *testing.T) {
	down := errors.New("connect: connection refused")
	for _, tc := range []struct {
		name   string
		err    error
		exists bool
	}{
		{"leased by another", fmt.Errorf("session x is busy: %w", session.ErrLeased), true},
		{"store down", down, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			opts := f.options(nil)
			opts.Checkpointer = errLeaser{session.NewMemoryCheckpointer(), tc.err}
			a := f.agent(t, opts)
			if err := a.StartSession(t.Context(), "fresh-1"); err != nil {
				t.Fatal(err)
			}
			_, err := a.Send(t.Context(), "hello")
			if got := errors.Is(err, liteagent.ErrSessionExists); got != tc.exists || !errors.Is(err, tc.err) {
				t.Errorf("Send: %v; ErrSessionExists %v, want %v, wrapping %v", err, got, tc.exists, tc.err)
			}
		})
	}
}
