package engine_test

import (
	"errors"
	"iter"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// errOf returns the error that ended a turn's events, if any.
func errOf(seq iter.Seq2[engine.Event, error]) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
	}
	return nil
}

// A turn pinned to a session its caller then deletes (Deleting) fails
// with a *DeletedError and writes nothing, also once the id was started
// again; a turn asked for after the delete starts it again, and a delete
// that failed (its mark undone) leaves pinned turns running.
func TestAPinnedTurnFailsOnceItsSessionIsDeleted(t *testing.T) {
	h := newHarness(t, engine.Options{IdentifiedOnly: true})
	const id = "s1"
	h.p.Reply(modeltest.Text("one"), modeltest.Text("two"), modeltest.Text("three"))
	if _, _, err := h.turn(t, t.Context(), id, "first"); err != nil {
		t.Fatal(err)
	}
	undone := h.eng.Pin(id)
	h.eng.Deleting(id)()
	if err := errOf(h.eng.TurnPinned(t.Context(), undone, model.UserText("kept"))); err != nil {
		t.Fatalf("a pinned turn after a delete that failed: %v", err)
	}
	pin := h.eng.Pin(id)
	h.eng.Deleting(id)
	if err := h.cp.Delete(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	h.eng.Forget(id) // as liteagent's DeleteSession does: the cache goes
	if _, _, err := h.turn(t, t.Context(), id, "again"); err != nil {
		t.Fatalf("a turn asked for after the delete: %v", err)
	}
	err := errOf(h.eng.TurnPinned(t.Context(), pin, model.UserText("mine")))
	var de *engine.DeletedError
	if !errors.As(err, &de) || de.SessionID != id || !errors.Is(err, session.ErrNotFound) {
		t.Errorf("the pinned turn after the delete: %v; want an *engine.DeletedError matching session.ErrNotFound", err)
	}
	if got := logTypes(t, h.cp, id); len(got) != 2 {
		t.Errorf("the session started again holds %v; want the later turn's prompt and answer only", got)
	}
}
