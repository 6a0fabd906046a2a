package engine_test

import (
	"context"
	"slices"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/tool"
)

// During the last call the turn limit allows, nothing would answer a
// steered message, so Steer refuses it, whether the model answers or calls
// tools; the turn ends as it would have, and the log holds no unanswered
// user message.
func TestSteerIsRefusedAtTheTurnLimit(t *testing.T) {
	for _, tc := range []struct {
		name string
		tool bool
		stop engine.StopReason
		log  []string
	}{
		{"model answers", false, engine.StopDone, []string{"user", "assistant"}},
		{"model calls a tool", true, engine.StopMaxTurns, []string{"user", "assistant", "tool_result"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var eng *engine.Engine
			steer := func() {
				if eng.Steer("s", model.UserText("steered")) {
					t.Error("Steer at the turn limit reported true")
				}
			}
			w := tool.New("wait", "Waits.", func(ctx context.Context, _ *tool.Call, _ struct{}) (tool.Result, error) {
				steer()
				return tool.Text("ok"), nil
			})
			h := newHarness(t, engine.Options{MaxTurns: 1, Tools: []tool.Tool{w}})
			eng = h.eng
			if tc.tool {
				h.p.Reply(modeltest.ToolCalls(call("c1", "wait", `{}`)))
			} else {
				h.p.Respond(func(context.Context, model.Request) ([]model.Chunk, error) {
					steer()
					return modeltest.Text("Done.").Chunks(), nil
				})
			}
			evs, res, err := h.turn(t, t.Context(), "s", "go")
			if err != nil {
				t.Fatal(err)
			}
			if res.StopReason != tc.stop || slices.Contains(types(evs), engine.EventSteer) {
				t.Errorf("stop %s, events %v", res.StopReason, types(evs))
			}
			if got := logTypes(t, h.cp, "s"); !slices.Equal(got, tc.log) {
				t.Errorf("log %v, want %v", got, tc.log)
			}
		})
	}
}

// Once the turn stopped, even while its done event is being handled,
// Steer refuses.
func TestSteerIsRefusedOnceTheTurnStopped(t *testing.T) {
	h := newHarness(t, engine.Options{MaxTurns: 1})
	h.p.Reply(modeltest.ToolCalls(call("c1", "echo", `{"text":"x"}`)))
	for ev, err := range h.eng.Turn(t.Context(), "s", model.UserText("go")) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type == engine.EventDone && h.eng.Steer("s", model.UserText("lost")) {
			t.Errorf("Steer after the turn stopped (%s) reported true", ev.Done.StopReason)
		}
	}
}

// A turn cancelled right after the model's last answer, with a message
// steered in, stops as aborted: the message is dropped, nothing fails.
func TestSteerThenCancelStopsAsAborted(t *testing.T) {
	var eng *engine.Engine
	h := newHarness(t, engine.Options{})
	eng = h.eng
	h.p.Respond(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		eng.Steer("s", model.UserText("steered"))
		return modeltest.Text("Done.").Chunks(), nil
	})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var stop engine.StopReason
	for ev, err := range eng.Turn(ctx, "s", model.UserText("go")) {
		if err != nil {
			t.Fatalf("turn failed: %v", err)
		}
		switch ev.Type {
		case engine.EventTurnEnd:
			cancel()
		case engine.EventDone:
			stop = ev.Done.StopReason
		}
	}
	if stop != engine.StopAborted {
		t.Errorf("stop %s, want aborted", stop)
	}
	if got := logTypes(t, h.cp, "s"); !slices.Equal(got, []string{"user", "assistant"}) {
		t.Errorf("log %v", got)
	}
}

// A call recovered after a crash takes the turn its tool_started recorded.
func TestARecoveredCallKeepsItsTurn(t *testing.T) {
	cp := session.NewMemoryCheckpointer()
	if _, err := cp.Append(t.Context(), "s", []session.Event{
		session.UserEvent{Message: model.UserText("go")},
		session.AssistantEvent{Message: model.AssistantBlocks(call("c9", "echo", `{"text":"x"}`))},
		session.ToolStartedEvent{ID: "c9", Name: "echo", Turn: 3},
	}, session.AnyHead); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, engine.Options{Checkpointer: cp, LogToolStarts: true})
	h.p.Reply(modeltest.Text("ok"))
	evs, _, err := h.turn(t, t.Context(), "s", "continue")
	if err != nil {
		t.Fatal(err)
	}
	var turns []int
	for _, ev := range evs {
		if ev.Type == engine.EventToolRecovered {
			turns = append(turns, ev.Turn)
		}
	}
	logged, _ := cp.Read(t.Context(), "s", 0)
	tr, ok := logged[3].Event.(session.ToolResultEvent)
	if !slices.Equal(turns, []int{3}) || !ok || tr.Turn != 3 {
		t.Errorf("tool_recovered turns %v, result %+v", turns, logged[3].Event)
	}
}

// A message steered while the one before it is being added, just before
// the last call the turn limit allows, goes into that call: Steer took it.
func TestSteerRightBeforeTheLastCallIsSent(t *testing.T) {
	h := newHarness(t, engine.Options{MaxTurns: 2})
	h.p.Respond(func(context.Context, model.Request) ([]model.Chunk, error) {
		if !h.eng.Steer("s", model.UserText("first steer")) {
			t.Error("refused")
		}
		return modeltest.Text("One.").Chunks(), nil
	})
	h.p.Reply(modeltest.Text("Two."))
	accepted := false
	for ev, err := range h.eng.Turn(t.Context(), "s", model.UserText("go")) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type == engine.EventSteer && !accepted {
			accepted = h.eng.Steer("s", model.UserText("second steer"))
		}
	}
	reqs := h.p.Requests()
	last := reqs[len(reqs)-1].Messages
	if accepted && last[len(last)-1].PlainText() != "second steer" {
		t.Errorf("Steer took %q, but the last request ends with %q", "second steer", last[len(last)-1].PlainText())
	}
}
