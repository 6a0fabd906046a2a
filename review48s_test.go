package liteagent_test

import (
	"errors"
	"testing"

	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// A Run called on a session the agent then left (Clear), deleted, and
// resumed and prompted again fails and writes nothing, as when the
// session stayed current: the prompt was given before the delete. It
// failed (2 subtests): the agent forgot the session at Clear, so the
// delete's engine.Deleting found nothing to mark, and the Run's pin was
// not what the engine knows once the id is resumed; its prompt went into
// the session started again. Deleting now marks the cells of every pin of
// the id still alive (the engine keeps them weakly).
func TestARunOfASessionLeftDeletedAndResumedFails(t *testing.T) {
	for store, withStore := range runDeletedStores() {
		t.Run(store, func(t *testing.T) {
			f := newFixture(t)
			opts := f.options(nil)
			a, _ := agentWithStore(t, f, &opts, withStore)
			f.p.Reply(modeltest.Text("one"), modeltest.Text("two"), modeltest.Text("three"))
			if _, err := a.Send(t.Context(), "first"); err != nil {
				t.Fatal(err)
			}
			id := a.SessionID()
			seq := a.Run(t.Context(), "second")
			a.Clear()
			deleteOf(t, a, id)
			if err := a.Resume(id); err != nil {
				t.Fatal(err)
			}
			if _, err := a.Send(t.Context(), "again"); err != nil {
				t.Fatalf("a prompt after the delete: %v", err)
			}
			_, err := resultOfSeq(seq)
			if !errors.Is(err, session.ErrNotFound) {
				t.Errorf("the Run called before the delete: %v (%T); want an error matching session.ErrNotFound", err, err)
			}
			if got := storedPrompts(t, f, opts, id); got != "again" {
				t.Errorf("session %s has the prompts %q; want %q", id, got, "again")
			}
		})
	}
}
