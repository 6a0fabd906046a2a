package liteagent_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// runDeletedStores are the stores the tests of a Run across its session's
// delete run with: the data home, and PostgreSQL when it is set.
func runDeletedStores() map[string]func(*testing.T, *liteagent.Options) string {
	return map[string]func(*testing.T, *liteagent.Options) string{
		"file": nil,
		"postgres": func(t *testing.T, opts *liteagent.Options) string {
			return pgForkStore(pgtest.URL(t))(t, opts)
		},
	}
}

// A Run called on a session that the agent then deletes
// (seq := a.Run(ctx, p); a.DeleteSession(ctx, id); for range seq {})
// started the deleted session again with that prompt, with the session
// current or left (Clear) before the delete, and even once a later prompt
// had started the id over. Now its turn fails with an error matching
// session.ErrNotFound and writes nothing.
func TestARunRangedAfterTheAgentDeletedItsSessionFails(t *testing.T) {
	for store, withStore := range runDeletedStores() {
		for name, between := range map[string]func(t *testing.T, a *liteagent.Agent, id string){
			"current": func(t *testing.T, a *liteagent.Agent, id string) { deleteOf(t, a, id) },
			"Clear": func(t *testing.T, a *liteagent.Agent, id string) {
				a.Clear()
				deleteOf(t, a, id)
			},
			"started again": func(t *testing.T, a *liteagent.Agent, id string) {
				deleteOf(t, a, id)
				if _, err := a.Send(t.Context(), "again"); err != nil {
					t.Fatalf("a prompt after the delete: %v", err)
				}
			},
		} {
			t.Run(store+"/"+name, func(t *testing.T) {
				f := newFixture(t)
				opts := f.options(nil)
				a, _ := agentWithStore(t, f, &opts, withStore)
				f.p.Reply(modeltest.Text("one"), modeltest.Text("two"), modeltest.Text("three"))
				if _, err := a.Send(t.Context(), "first"); err != nil {
					t.Fatal(err)
				}
				id := a.SessionID()
				seq := a.Run(t.Context(), "second")
				between(t, a, id)
				_, err := resultOfSeq(seq)
				if !errors.Is(err, session.ErrNotFound) {
					t.Errorf("the Run called before the delete: %v (%T); want an error matching session.ErrNotFound", err, err)
				}
				want := ""
				if name == "started again" {
					want = "again"
				}
				if got := storedPrompts(t, f, opts, id); got != want {
					t.Errorf("session %s has the prompts %q after the delete; want %q", id, got, want)
				}
			})
		}
	}
}

// A Run called on a session before its first record, whose session a
// prompt then started and the agent deleted, is refused the same way: the
// agent knew no first record at the call, and learned it after.
func TestARunCalledBeforeItsSessionStartedFailsOnceDeleted(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	a := f.agent(t, opts)
	f.p.Reply(modeltest.Text("one"), modeltest.Text("two"))
	id := a.SessionID()
	seq := a.Run(t.Context(), "second")
	if _, err := a.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	deleteOf(t, a, id)
	_, err := resultOfSeq(seq)
	var de *engine.DeletedError
	if !errors.As(err, &de) || de.SessionID != id {
		t.Errorf("the Run called before the session started: %v (%T); want an *engine.DeletedError of %s", err, err, id)
	}
	if got := storedPrompts(t, f, opts, id); got != "" {
		t.Errorf("session %s has the prompts %q after the delete", id, got)
	}
}

// A Run ranged over while the agent deletes its session either ends
// before the delete (which then removes what it wrote) or fails: the
// session is never left stored. Rounds race the two.
func TestARunRacingTheDeleteOfItsSessionLeavesNothing(t *testing.T) {
	for store, withStore := range runDeletedStores() {
		t.Run(store, func(t *testing.T) {
			f := newFixture(t)
			opts := f.options(nil)
			ok := modeltest.Text("ok").Chunks()
			f.p = modeltest.NewFunc(func(context.Context, model.Request) ([]model.Chunk, error) { return ok, nil })
			opts.Model = f.p
			a, _ := agentWithStore(t, f, &opts, withStore)
			for round := range 12 {
				a.Clear()
				if _, err := a.Send(t.Context(), "first"); err != nil {
					t.Fatal(err)
				}
				id := a.SessionID()
				seq := a.Run(t.Context(), "second")
				var wg sync.WaitGroup
				wg.Go(func() { _, _ = resultOfSeq(seq) })
				if err := a.DeleteSession(t.Context(), id); err != nil {
					t.Fatalf("round %d: the delete: %v", round, err)
				}
				wg.Wait()
				if got := storedPrompts(t, f, opts, id); got != "" {
					t.Errorf("round %d: session %s has the prompts %q after its delete", round, id, got)
				}
			}
		})
	}
}

// deleteOf deletes session id through a.
func deleteOf(t *testing.T, a *liteagent.Agent, id string) {
	t.Helper()
	if err := a.DeleteSession(t.Context(), id); err != nil {
		t.Fatalf("delete %s: %v", id, err)
	}
}

// storedPrompts returns the prompts of session id as another agent of
// opts reads them, "" when it is not stored.
func storedPrompts(t *testing.T, f *fixture, opts liteagent.Options, id string) string {
	t.Helper()
	b := f.agent(t, opts)
	infos, err := b.ListSessions(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(infos, func(in session.Info) bool { return in.ID == id }) {
		return ""
	}
	return promptsOf(t, b, id)
}
