package engine_test

import (
	"errors"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// A delete that failed (its mark undone) and a later delete of the same
// session that succeeded: a turn pinned before both is pinned to that
// session, and fails once it is deleted. Before, the failed delete left
// the pin's cell outside what the engine knows, the later Deleting marked
// only the copy that took its place, and the pinned turn started the
// deleted session again.
func TestAPinnedTurnFailsOnceDeletedAfterADeleteThatFailed(t *testing.T) {
	h := newHarness(t, engine.Options{IdentifiedOnly: true})
	const id = "s1"
	h.p.Reply(modeltest.Text("one"), modeltest.Text("two"))
	if _, _, err := h.turn(t, t.Context(), id, "first"); err != nil {
		t.Fatal(err)
	}
	pin := h.eng.Pin(id)
	h.eng.Deleting(id)() // the first delete failed
	h.eng.Deleting(id)   // the second goes through
	if err := h.cp.Delete(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	h.eng.Forget(id)
	h.eng.Reinstate(pin) // as liteagent's Run does
	err := errOf(h.eng.TurnPinned(t.Context(), pin, model.UserText("mine")))
	var de *engine.DeletedError
	if !errors.As(err, &de) {
		t.Errorf("the pinned turn after the second delete: %v (%T); want an *engine.DeletedError", err, err)
	}
	if got := logTypes(t, h.cp, id); len(got) != 0 {
		t.Errorf("the deleted session holds %v; want nothing", got)
	}
}

// A turn pinned to a session deleted since, ranged over once the engine
// forgot the id, fails; a turn asked for after that (the id resumed) runs.
// Before, the failing turn's Reinstate put the deleted session's cell
// back under the id, and every later pin took it and failed too.
func TestATurnAfterAPinnedTurnOfADeletedSessionRuns(t *testing.T) {
	h := newHarness(t, engine.Options{IdentifiedOnly: true})
	const id = "s1"
	h.p.Reply(modeltest.Text("one"), modeltest.Text("two"), modeltest.Text("three"))
	if _, _, err := h.turn(t, t.Context(), id, "first"); err != nil {
		t.Fatal(err)
	}
	pin := h.eng.Pin(id)
	h.eng.Deleting(id)
	if err := h.cp.Delete(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	h.eng.Forget(id)
	h.eng.DropIdentities(func(string) bool { return false }) // the agent left the session
	h.eng.Reinstate(pin)
	var de *engine.DeletedError
	if err := errOf(h.eng.TurnPinned(t.Context(), pin, model.UserText("mine"))); !errors.As(err, &de) {
		t.Fatalf("the pinned turn after the delete: %v (%T); want an *engine.DeletedError", err, err)
	}
	h.eng.Unidentify(id) // the agent resumes the id (Resume)
	later := h.eng.Pin(id)
	h.eng.Reinstate(later)
	if err := errOf(h.eng.TurnPinned(t.Context(), later, model.UserText("again"))); err != nil {
		t.Errorf("a turn asked for after the delete: %v", err)
	}
}
