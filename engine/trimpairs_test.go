package engine_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// checkPairs fails unless every tool call of msgs has its result in the
// next message and every result its call in the message before, as the
// Anthropic Messages API requires (it refuses anything else with a 400).
func checkPairs(t *testing.T, msgs []model.Message) {
	t.Helper()
	for i, m := range msgs {
		for _, b := range m.Blocks {
			switch b.Type {
			case model.BlockToolCall:
				found := false
				if i+1 < len(msgs) {
					for _, r := range msgs[i+1].Blocks {
						found = found || r.Type == model.BlockToolResult && r.ID == b.ID
					}
				}
				if !found {
					t.Fatalf("message %d: tool call %s has no result in the next message", i, b.ID)
				}
			case model.BlockToolResult:
				found := false
				if i > 0 {
					for _, c := range msgs[i-1].Blocks {
						found = found || c.Type == model.BlockToolCall && c.ID == b.ID
					}
				}
				if !found {
					t.Fatalf("message %d: tool result %s has no call in the message before", i, b.ID)
				}
			}
		}
	}
}

// TestTrimKeepsToolCallsWithTheirResults compacts (without a summary) a
// session of turns that each call tools, several times the window: the
// trim leaves out whole turns, so the view committed and the resumed
// request never hold a tool call without its result or the reverse.
func TestTrimKeepsToolCallsWithTheirResults(t *testing.T) {
	const window = 8000
	cp, opts := windowedStore(t, window)
	for round := range 3 {
		var evs []session.Event
		for i := range 300 {
			id := fmt.Sprintf("call_%d_%d", round, i)
			evs = append(evs,
				session.UserEvent{Message: model.UserText(fmt.Sprintf("q%d.%d %s", round, i, strings.Repeat("x", 60)))},
				session.AssistantEvent{Message: model.AssistantBlocks(model.TextBlock("looking"),
					model.ToolCallBlock(id, "bash", json.RawMessage(`{"command":"ls `+strings.Repeat("z", 40)+`"}`)),
					model.ToolCallBlock(id+"b", "bash", json.RawMessage(`{"command":"pwd"}`)))},
				session.ToolResultEvent{Result: model.ToolResultBlock(id, "out "+strings.Repeat("r", 80), false), Turn: 1},
				session.ToolResultEvent{Result: model.ToolResultBlock(id+"b", "/w", false), Turn: 1},
				session.AssistantEvent{Message: model.AssistantText(fmt.Sprintf("a%d.%d %s", round, i, strings.Repeat("y", 60)))})
		}
		if _, err := cp.Append(t.Context(), "s", evs, session.AnyHead); err != nil {
			t.Fatal(err)
		}
		h := newHarness(t, opts())
		res, err := h.eng.Compact(t.Context(), "s", engine.CompactOptions{})
		if err != nil || !res.Committed {
			t.Fatalf("round %d: Compact = %+v, %v", round, res, err)
		}
		h2 := newHarness(t, opts())
		h2.p.Reply(modeltest.Text("ok"))
		if _, _, err := h2.turn(t, t.Context(), "s", "next"); err != nil {
			t.Fatal(err)
		}
		reqs := h2.p.Requests()
		msgs := reqs[len(reqs)-1].Messages
		if !strings.Contains(fmt.Sprint(msgs[1].Text), "left out to fit the context window") {
			t.Fatalf("round %d: message 1 is %.80q, want the trim's marker", round, msgs[1].Text)
		}
		checkPairs(t, msgs)
	}
}
