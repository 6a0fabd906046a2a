package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// An engine with IdentifiedOnly takes a session with records only when
// told which one it is: a turn, a record between turns and a compaction
// on a session it knows nothing of (never told, or dropped by
// DropIdentities) fail with an *engine.UnidentifiedError and write
// nothing, even when the session is the very one it ran turns on; after
// Unidentify (take it as stored) or Identify they go on. A new session
// (no records) needs nothing.
func TestAnEngineOfIdentifiedSessionsRefusesOthers(t *testing.T) {
	cp := session.NewMemoryCheckpointer()
	h := newHarness(t, engine.Options{Checkpointer: cp, IdentifiedOnly: true, Context: &engine.ContextOptions{Window: 4000}})
	const id, other = "mine-1", "stored-1"
	h.p.Reply(modeltest.Text("one"))
	if _, _, err := h.turn(t, t.Context(), id, "first"); err != nil {
		t.Fatalf("a new session: %v", err)
	}
	if _, err := cp.Append(t.Context(), other, []session.Event{session.UserEvent{Message: model.UserText("theirs")}}, 0); err != nil {
		t.Fatal(err)
	}
	want := func(what, sid string, err error) {
		t.Helper()
		var ue *engine.UnidentifiedError
		if !errors.As(err, &ue) || ue.SessionID != sid {
			t.Errorf("%s on %s: %v; want an *engine.UnidentifiedError", what, sid, err)
		}
	}
	_, _, err := h.turn(t, t.Context(), other, "mine")
	want("a turn", other, err)
	want("a record between turns", other, h.eng.RecordBetweenTurns(t.Context(), other, session.UserEvent{Message: model.UserText("between")}, nil))
	_, err = h.eng.Compact(t.Context(), other, engine.CompactOptions{})
	want("a compaction", other, err)
	if got := logTypes(t, cp, other); strings.Join(got, ",") != "user" {
		t.Errorf("the refused session's log holds %v; want its one record", got)
	}
	if n := h.eng.DropIdentities(func(string) bool { return false }); n != 1 || h.eng.Identified(id) {
		t.Errorf("DropIdentities forgot %d sessions, still knows %s: %v; want the one forgotten", n, id, h.eng.Identified(id))
	}
	_, _, err = h.turn(t, t.Context(), id, "after the drop")
	want("a turn after DropIdentities", id, err)
	if got := logTypes(t, cp, id); len(got) != 2 {
		t.Errorf("the dropped session's log holds %v; want its 2 records", got)
	}
	h.eng.Unidentify(other)
	if err := h.eng.Identify(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	for _, sid := range []string{other, id} {
		h.p.Reply(modeltest.Text("ok"))
		if _, _, err := h.turn(t, t.Context(), sid, "told"); err != nil {
			t.Errorf("a turn on %s once told which session it is: %v", sid, err)
		}
	}
}
