package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// lostReply is a checkpointer whose append number lose (1-based) is
// written and then reported failed, as an append whose commit reached
// the database and whose reply was lost with the connection.
type lostReply struct {
	session.Checkpointer
	n, lose int
}

var errLostReply = errors.New("connection lost after commit")

func (c *lostReply) Append(ctx context.Context, id string, evs []session.Event, expectedHead int64) (int64, error) {
	head, err := c.Checkpointer.Append(ctx, id, evs, expectedHead)
	c.n++
	if err == nil && c.n == c.lose {
		return 0, errLostReply
	}
	return head, err
}

// An append whose records were written but whose reply was lost fails
// the turn; the next turn reloads the log and appends after what was
// written, whichever append lost its reply (the session's first one
// too): never a second copy, never a gap, never the agent's own session
// taken for another writer's.
func TestATurnAfterAnAppendWhoseReplyWasLost(t *testing.T) {
	for lose := 1; lose <= 4; lose++ {
		mem := session.NewMemoryCheckpointer()
		cp := &lostReply{Checkpointer: mem, lose: lose}
		h := newHarness(t, engine.Options{Checkpointer: cp})
		const id = "lost-1"
		var failed bool
		for i, prompt := range []string{"p1", "p2", "p3"} {
			h.p.Reply(modeltest.Text("r" + prompt))
			_, _, err := h.turn(t, t.Context(), id, prompt)
			if err != nil {
				if !errors.Is(err, errLostReply) || failed {
					t.Errorf("lose %d: turn %d: %v", lose, i+1, err)
				}
				failed = true
			}
		}
		evs, err := mem.Read(t.Context(), id, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i, ev := range evs {
			if ev.Seq != int64(i+1) {
				t.Errorf("lose %d: record %d has seq %d", lose, i, ev.Seq)
			}
		}
		got := strings.Join(logTypes(t, mem, id), ",")
		if strings.Count(got, "user") != 3 { // one per prompt: none lost, none twice
			t.Errorf("lose %d: log %s", lose, got)
		}
		t.Logf("lose %d: %s", lose, got)
	}
}
