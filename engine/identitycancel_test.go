package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// cancelAfterAppend is a checkpointer that calls cancel once, right after
// the first append it makes succeeds: the turn's context ends just as
// its first record is written.
type cancelAfterAppend struct {
	session.Checkpointer
	cancel func()
}

func (c *cancelAfterAppend) Append(ctx context.Context, id string, evs []session.Event, expectedHead int64) (int64, error) {
	head, err := c.Checkpointer.Append(ctx, id, evs, expectedHead)
	if err == nil && c.cancel != nil {
		c.cancel()
		c.cancel = nil
	}
	return head, err
}

// A turn cancelled just as it writes a session's first record still
// knows the session by that record: once the session is deleted and
// started again by another writer, the next turn on the id fails with a
// *session.ReplacedError and writes nothing. Before, the read back of the
// first record failed with the cancelled context, the engine then knew
// no session under the id, and the next turn took the other writer's
// session for its own and appended to it.
func TestATurnCancelledAtItsFirstRecordStillKnowsTheSession(t *testing.T) {
	mem := session.NewMemoryCheckpointer()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	cp := &cancelAfterAppend{Checkpointer: mem, cancel: cancel}
	h := newHarness(t, engine.Options{Checkpointer: cp})
	const id = "cancelled-1"
	h.p.Reply(modeltest.Text("one"))
	_, _, _ = h.turn(t, ctx, id, "first") // cancelled, or done
	if ctx.Err() == nil {
		t.Fatal("the turn's context was not cancelled at its first record")
	}
	if got := logTypes(t, mem, id); len(got) == 0 || got[0] != "user" {
		t.Fatalf("the log after the cancelled turn holds %v; want its prompt first", got)
	}
	// Another process deletes the session and starts it again.
	if err := mem.Delete(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	if _, err := mem.Append(t.Context(), id, []session.Event{session.UserEvent{Message: model.UserText("theirs")}}, 0); err != nil {
		t.Fatal(err)
	}
	h.p.Reply(modeltest.Text("mine"))
	_, _, err := h.turn(t, t.Context(), id, "mine")
	var re *session.ReplacedError
	if !errors.As(err, &re) || re.SessionID != id {
		t.Errorf("a turn on the replaced session: %v; want a *session.ReplacedError", err)
	}
	if got := logTypes(t, mem, id); strings.Join(got, ",") != "user" {
		t.Errorf("the log holds %v; want the other writer's one record", got)
	}
}
