package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
	"github.com/lite-agent/lite-agent-go/tool"
)

type echoIn struct {
	Text  string `json:"text"`
	Sleep int    `json:"sleep,omitempty"`
}

func echoTool() tool.Tool {
	return tool.New("echo", "Echoes its text.", func(ctx context.Context, _ *tool.Call, in echoIn) (tool.Result, error) {
		if in.Sleep > 0 {
			select {
			case <-time.After(time.Duration(in.Sleep) * time.Millisecond):
			case <-ctx.Done():
				return tool.Result{}, ctx.Err()
			}
		}
		return tool.Text("echo: " + in.Text), nil
	})
}

func call(id, name, input string) model.Block {
	return model.ToolCallBlock(id, name, json.RawMessage(input))
}

type harness struct {
	p   *modeltest.Provider
	cp  session.Checkpointer
	eng *engine.Engine
}

func newHarness(t *testing.T, opts engine.Options) *harness {
	t.Helper()
	h := &harness{p: modeltest.New(), cp: opts.Checkpointer}
	if h.cp == nil {
		h.cp = session.NewMemoryCheckpointer()
	}
	opts.Provider, opts.Checkpointer, opts.Model = h.p, h.cp, "test-model"
	if opts.Tools == nil {
		opts.Tools = []tool.Tool{echoTool()}
	}
	eng, err := engine.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	h.eng = eng
	return h
}

func (h *harness) turn(t *testing.T, ctx context.Context, id, prompt string) ([]engine.Event, *engine.Result, error) {
	t.Helper()
	var evs []engine.Event
	var res *engine.Result
	for ev, err := range h.eng.Turn(ctx, id, model.UserText(prompt)) {
		if err != nil {
			return evs, nil, err
		}
		evs = append(evs, ev)
		if ev.Type == engine.EventDone {
			res = ev.Result
		}
	}
	return evs, res, nil
}

func types(evs []engine.Event) []engine.EventType {
	var out []engine.EventType
	for _, ev := range evs {
		out = append(out, ev.Type)
	}
	return out
}

func logTypes(t *testing.T, cp session.Checkpointer, id string) []string {
	t.Helper()
	evs, err := cp.Read(t.Context(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range evs {
		out = append(out, e.Event.EventType())
	}
	return out
}

func TestTextTurnStreamsAndPersists(t *testing.T) {
	h := newHarness(t, engine.Options{})
	h.p.Reply(modeltest.Text("hello there"))
	evs, res, err := h.turn(t, t.Context(), "s1", "hi")
	if err != nil {
		t.Fatal(err)
	}
	got := slices.Compact(types(evs))
	want := []engine.EventType{engine.EventTurnStart, engine.EventModelCallStart, engine.EventTextDelta, engine.EventModelCallEnd, engine.EventMessage, engine.EventTurnEnd, engine.EventDone}
	if !slices.Equal(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
	if res.Text != "hello there" || res.StopReason != engine.StopDone || res.Turns != 1 {
		t.Errorf("result %+v", res)
	}
	if lt := logTypes(t, h.cp, "s1"); !slices.Equal(lt, []string{"user", "assistant"}) {
		t.Errorf("log %v", lt)
	}
}

func TestToolResultsReturnInInputOrder(t *testing.T) {
	h := newHarness(t, engine.Options{})
	h.p.Reply(modeltest.ToolCalls(call("c1", "echo", `{"text":"slow","sleep":50}`), call("c2", "echo", `{"text":"fast"}`)))
	h.p.Reply(modeltest.Text("done"))
	evs, res, err := h.turn(t, t.Context(), "s", "go")
	if err != nil {
		t.Fatal(err)
	}
	// Results stream in completion order...
	var order []string
	for _, ev := range evs {
		if ev.Type == engine.EventToolResult {
			order = append(order, ev.Tool.Result.ID)
		}
	}
	if !slices.Equal(order, []string{"c2", "c1"}) {
		t.Errorf("result events %v, want completion order c2, c1", order)
	}
	// ...but go back to the model, and into the log, in input order.
	reqs := h.p.Requests()
	last := reqs[1].Messages[len(reqs[1].Messages)-1]
	if len(last.Blocks) != 2 || last.Blocks[0].ID != "c1" || last.Blocks[1].ID != "c2" || last.Blocks[0].Content != "echo: slow" {
		t.Errorf("second request's tool results: %+v", last)
	}
	if lt := logTypes(t, h.cp, "s"); !slices.Equal(lt, []string{"user", "assistant", "tool_result", "tool_result", "assistant"}) {
		t.Errorf("log %v", lt)
	}
	if res.Turns != 2 || res.Text != "done" {
		t.Errorf("result %+v", res)
	}
}

func TestToolFailuresBecomeErrorResults(t *testing.T) {
	panicky := tool.New("boom", "Panics.", func(ctx context.Context, _ *tool.Call, in struct{}) (tool.Result, error) { panic("kaboom") })
	failing := tool.New("fail", "Fails.", func(ctx context.Context, _ *tool.Call, in struct{}) (tool.Result, error) {
		return tool.Result{}, errors.New("disk on fire")
	})
	h := newHarness(t, engine.Options{Tools: []tool.Tool{echoTool(), panicky, failing}})
	h.p.Reply(modeltest.ToolCalls(
		call("a", "nope", `{}`),
		call("b", "echo", `{"text":5}`),
		call("c", "boom", `{}`),
		call("d", "fail", `{}`),
	))
	h.p.Reply(modeltest.Text("ok"))
	if _, _, err := h.turn(t, t.Context(), "s", "go"); err != nil {
		t.Fatal(err)
	}
	res := h.p.Requests()[1].Messages
	blocks := res[len(res)-1].Blocks
	wants := []string{"Error: unknown tool 'nope'", "Error: invalid input for echo", "Error: tool boom panicked: kaboom", "Error: disk on fire"}
	for i, w := range wants {
		if !blocks[i].IsError || !strings.HasPrefix(blocks[i].Content, w) {
			t.Errorf("result %d = %+v, want prefix %q", i, blocks[i], w)
		}
	}
}

func TestMaxTurnsStopsTheLoop(t *testing.T) {
	h := newHarness(t, engine.Options{MaxTurns: 2})
	for i := 0; i < 3; i++ {
		h.p.Reply(modeltest.ToolCalls(call(fmt.Sprint("c", i), "echo", `{"text":"x"}`)))
	}
	_, res, err := h.turn(t, t.Context(), "s", "loop")
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != engine.StopMaxTurns || res.Turns != 2 || h.p.Pending() != 1 {
		t.Errorf("result %+v, pending %d", res, h.p.Pending())
	}
}

func TestCancelDuringToolsKeepsTheLogResumable(t *testing.T) {
	h := newHarness(t, engine.Options{})
	h.p.Reply(modeltest.ToolCalls(call("c1", "echo", `{"text":"a"}`), call("c2", "echo", `{"text":"b","sleep":5000}`)))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var res *engine.Result
	for ev, err := range h.eng.Turn(ctx, "s", model.UserText("go")) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type == engine.EventToolResult && ev.Tool.Result.ID == "c1" {
			cancel()
		}
		if ev.Type == engine.EventDone {
			res = ev.Result
		}
	}
	if res == nil || res.StopReason != engine.StopAborted {
		t.Fatalf("result %+v", res)
	}
	if lt := logTypes(t, h.cp, "s"); !slices.Equal(lt, []string{"user", "assistant", "tool_result", "tool_result"}) {
		t.Errorf("log %v", lt)
	}
	// The next prompt continues from a well-formed conversation.
	h.p.Reply(modeltest.Text("resumed"))
	if _, _, err := h.turn(t, t.Context(), "s", "again"); err != nil {
		t.Fatal(err)
	}
	msgs := h.p.Requests()[1].Messages
	if len(msgs) != 4 || msgs[2].Blocks[1].ID != "c2" || !msgs[2].Blocks[1].IsError {
		t.Errorf("resumed conversation: %+v", msgs)
	}
}

func TestBreakingOutOfTheLoopAborts(t *testing.T) {
	h := newHarness(t, engine.Options{})
	h.p.Reply(modeltest.Text("one two three four"))
	var seen string
	for ev := range h.eng.Turn(t.Context(), "s", model.UserText("go")) {
		if ev.Type == engine.EventTextDelta {
			seen = ev.Text
			break
		}
	}
	// The user event is in the log, and the text seen so far, marked
	// aborted.
	if lt := logTypes(t, h.cp, "s"); !slices.Equal(lt, []string{"user", "assistant"}) {
		t.Fatalf("log %v", lt)
	}
	evs, err := h.cp.Read(t.Context(), "s", 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := evs[0].Event.(session.AssistantEvent).Message.PlainText(); seen == "" || got != seen+engine.AbortedMark {
		t.Errorf("stored %q, want %q", got, seen+engine.AbortedMark)
	}
}

func TestProviderErrorEndsTheTurnWithOneError(t *testing.T) {
	h := newHarness(t, engine.Options{})
	perr := model.NewError(model.ClassAuth, 401, "bad key", nil)
	h.p.Fail(perr)
	var errs int
	var last engine.Event
	for ev, err := range h.eng.Turn(t.Context(), "s", model.UserText("hi")) {
		if err != nil {
			errs++
			if !errors.Is(err, perr) {
				t.Errorf("err = %v", err)
			}
		}
		last = ev
	}
	if errs != 1 || last.Type != engine.EventError || !last.Fatal {
		t.Errorf("errors %d, last event %+v", errs, last)
	}
	if lt := logTypes(t, h.cp, "s"); !slices.Equal(lt, []string{"user"}) {
		t.Errorf("log %v", lt)
	}
}

func TestDanglingCallsAreAnsweredOnResume(t *testing.T) {
	cp := session.NewMemoryCheckpointer()
	// A crash left a tool call without its result.
	_, err := cp.Append(t.Context(), "s", []session.Event{
		session.UserEvent{Message: model.UserText("go")},
		session.AssistantEvent{Message: model.AssistantBlocks(call("c9", "echo", `{"text":"x"}`))},
	}, session.AnyHead)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, engine.Options{Checkpointer: cp})
	h.p.Reply(modeltest.Text("ok"))
	evs, _, err := h.turn(t, t.Context(), "s", "continue")
	if err != nil {
		t.Fatal(err)
	}
	msgs := h.p.Requests()[0].Messages
	if len(msgs) != 4 || msgs[2].Blocks[0].ID != "c9" || !strings.Contains(msgs[2].Blocks[0].Content, "interrupted before completion (echo)") {
		t.Errorf("conversation %+v", msgs)
	}
	var recovered []string
	for _, ev := range evs {
		if ev.Type == engine.EventToolRecovered {
			recovered = append(recovered, ev.Tool.Call.ID+" "+ev.Tool.Call.Name)
		}
	}
	if !slices.Equal(recovered, []string{"c9 echo"}) {
		t.Errorf("tool_recovered events %v", recovered)
	}
}

func TestReminderIsSentButNeverPersisted(t *testing.T) {
	h := newHarness(t, engine.Options{Reminder: func(ctx context.Context, id string) (string, error) {
		return "<system-reminder>\nCurrent tasks:\n[ ] #1 x (pending)\n</system-reminder>", nil
	}})
	h.p.Reply(modeltest.Text("ok"))
	if _, _, err := h.turn(t, t.Context(), "s", "hi"); err != nil {
		t.Fatal(err)
	}
	msgs := h.p.Requests()[0].Messages
	if !strings.Contains(msgs[len(msgs)-1].Text, "Current tasks") {
		t.Errorf("reminder not sent: %+v", msgs)
	}
	evs, _ := h.cp.Read(t.Context(), "s", 0)
	for _, e := range evs {
		b, _ := session.MarshalEvent(e.Event)
		if strings.Contains(string(b), "Current tasks") {
			t.Error("reminder persisted")
		}
	}
}

// TestReminderErrorEndsTheRun checks that a reminder that fails (a task
// list the configured codec cannot read) stops the run before the model
// is called, with the store's error, instead of showing no tasks.
func TestReminderErrorEndsTheRun(t *testing.T) {
	failure := &storage.Error{Op: "decode", Kind: storage.KindTask, Message: "Storage format or codec id mismatch; explicit migration is required"}
	h := newHarness(t, engine.Options{Reminder: func(ctx context.Context, id string) (string, error) {
		return "", failure
	}})
	h.p.Reply(modeltest.Text("ok"))
	_, _, err := h.turn(t, t.Context(), "s", "hi")
	var se *storage.Error
	if !errors.As(err, &se) || se != failure {
		t.Fatalf("run error %v, want the reminder's *storage.Error", err)
	}
	if n := len(h.p.Requests()); n != 0 {
		t.Errorf("the model was called %d times", n)
	}
}

func TestSnapshotsAreAppendedBeforeTheResultAndEmitReachesTheStream(t *testing.T) {
	var kept *tool.Call
	writer := tool.New("write", "Writes.", func(ctx context.Context, c *tool.Call, in struct{}) (tool.Result, error) {
		if c.ID != "w" || c.Name != "write" || c.SessionID != "s" || c.Turn != 1 {
			t.Errorf("call %+v", *c)
		}
		before := "old"
		if err := engine.Record(ctx, c, session.FileSnapshotEvent{Path: "a.txt", Before: &before, Encoding: "utf8", After: "abc"}); err != nil {
			return tool.Result{}, err
		}
		if !c.Emit(engine.Event{Type: engine.EventTaskUpdate, Task: &engine.TaskEvent{ID: "1", Status: task.InProgress}}) {
			t.Error("Emit during the call reported no turn")
		}
		if c.Emit("not an event") {
			t.Error("Emit took a value that is not an engine.Event")
		}
		if c.Detach().Emit(engine.Event{Type: engine.EventDiagnostic}) {
			t.Error("a detached call reached the turn")
		}
		kept = c
		return tool.Text("written"), nil
	})
	h := newHarness(t, engine.Options{Tools: []tool.Tool{writer}})
	h.p.Reply(modeltest.ToolCalls(call("w", "write", `{}`)))
	h.p.Reply(modeltest.Text("ok"))
	evs, _, err := h.turn(t, t.Context(), "s", "go")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(types(evs), engine.EventTaskUpdate) {
		t.Error("task update not streamed")
	}
	if lt := logTypes(t, h.cp, "s"); !slices.Equal(lt, []string{"user", "assistant", "file_snapshot", "tool_result", "assistant"}) {
		t.Errorf("log %v", lt)
	}
	stored, _ := h.cp.Read(t.Context(), "s", 2)
	if snap := stored[0].Event.(session.FileSnapshotEvent); snap.Turn != 1 {
		t.Errorf("snapshot turn %d", snap.Turn)
	}
	if err := engine.Record(t.Context(), nil, session.FileSnapshotEvent{Path: "x"}); err == nil {
		t.Error("snapshot outside a turn accepted")
	}
	if kept.Emit(engine.Event{Type: engine.EventDiagnostic}) {
		t.Error("a call kept past its turn still reached the stream")
	}
}

func TestAnotherWriterMidTurnIsAConflict(t *testing.T) {
	cp := session.NewMemoryCheckpointer()
	var once atomic.Bool
	intruder := tool.New("intrude", "Appends behind the engine's back.", func(ctx context.Context, _ *tool.Call, in struct{}) (tool.Result, error) {
		if once.CompareAndSwap(false, true) {
			cp.Append(ctx, "s", []session.Event{session.UserEvent{Message: model.UserText("other writer")}}, session.AnyHead)
		}
		return tool.Text("ok"), nil
	})
	h := newHarness(t, engine.Options{Checkpointer: cp, Tools: []tool.Tool{intruder}})
	h.p.Reply(modeltest.ToolCalls(call("i", "intrude", `{}`)))
	_, _, err := h.turn(t, t.Context(), "s", "go")
	if !errors.Is(err, session.ErrConflict) {
		t.Fatalf("err = %v, want a session conflict", err)
	}
	// Changes between turns are picked up, not conflicts.
	h.p.Reply(modeltest.Text("fine"))
	if _, _, err := h.turn(t, t.Context(), "s", "again"); err != nil {
		t.Fatalf("next turn: %v", err)
	}
}

func TestResumeWithAFreshEngineSeesTheHistory(t *testing.T) {
	cp, err := session.NewFileCheckpointer(t.TempDir(), session.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h1 := newHarness(t, engine.Options{Checkpointer: cp})
	h1.p.Reply(modeltest.Text("first answer"))
	if _, _, err := h1.turn(t, t.Context(), "s", "first"); err != nil {
		t.Fatal(err)
	}
	h2 := newHarness(t, engine.Options{Checkpointer: cp})
	h2.p.Reply(modeltest.Text("second answer"))
	if _, _, err := h2.turn(t, t.Context(), "s", "second"); err != nil {
		t.Fatal(err)
	}
	msgs := h2.p.Requests()[0].Messages
	if len(msgs) != 3 || msgs[1].PlainText() != "first answer" || msgs[2].PlainText() != "second" {
		t.Errorf("history %+v", msgs)
	}
}

func TestNewValidatesOptions(t *testing.T) {
	if _, err := engine.New(engine.Options{}); err == nil {
		t.Error("no provider accepted")
	}
	if _, err := engine.New(engine.Options{Provider: modeltest.New()}); err == nil {
		t.Error("no checkpointer accepted")
	}
	if _, err := engine.New(engine.Options{Provider: modeltest.New(), Checkpointer: session.NewMemoryCheckpointer(), MaxTurns: -1}); err == nil {
		t.Error("negative MaxTurns accepted")
	}
}

func TestExtraToolsAreOfferedPerPrompt(t *testing.T) {
	calls := 0
	h := newHarness(t, engine.Options{ExtraTools: func(ctx context.Context, _ string) ([]tool.Tool, error) {
		calls++
		return []tool.Tool{tool.New("mcp__srv__ping", "Pings.", func(ctx context.Context, _ *tool.Call, in struct{}) (tool.Result, error) {
			return tool.Text("pong"), nil
		})}, nil
	}})
	h.p.Reply(modeltest.ToolCalls(call("p", "mcp__srv__ping", `{}`)))
	h.p.Reply(modeltest.Text("ok"))
	if _, _, err := h.turn(t, t.Context(), "s", "ping"); err != nil {
		t.Fatal(err)
	}
	reqs := h.p.Requests()
	if n := len(reqs[0].Tools); n != 2 || reqs[0].Tools[1].Name != "mcp__srv__ping" {
		t.Errorf("tools sent: %+v", reqs[0].Tools)
	}
	if got := reqs[1].Messages[len(reqs[1].Messages)-1].Blocks[0].Content; got != "pong" || calls != 1 {
		t.Errorf("result %q, ExtraTools called %d times", got, calls)
	}
}

func TestSetOutputBelongsToTheRunningPrompt(t *testing.T) {
	if (&tool.Call{}).SetOutput(json.RawMessage(`{}`)) {
		t.Error("SetOutput outside a turn reported a turn")
	}
	answer := tool.New("answer", "Answers.", func(ctx context.Context, c *tool.Call, in struct {
		N int `json:"n"`
	}) (tool.Result, error) {
		c.SetOutput(json.RawMessage(fmt.Sprintf(`{"n":%d}`, in.N)))
		return tool.Text("ok"), nil
	})
	h := newHarness(t, engine.Options{Tools: []tool.Tool{answer}})
	h.p.Reply(modeltest.ToolCalls(call("a", "answer", `{"n":1}`)), modeltest.ToolCalls(call("b", "answer", `{"n":2}`)), modeltest.Text("done"))
	_, res, err := h.turn(t, t.Context(), "s", "go")
	if err != nil || string(res.Output) != `{"n":2}` {
		t.Errorf("output %s, %v; want the last call's", res.Output, err)
	}
	h.p.Reply(modeltest.Text("again"))
	if _, res, _ := h.turn(t, t.Context(), "s", "go"); res.Output != nil {
		t.Errorf("the next prompt has output %s", res.Output)
	}
}

// With LogToolStarts, each call's start is in the log before it runs, so a
// crash leaves a record of what may have had effects.
func TestToolStartsAreLoggedBeforeTheCallsRun(t *testing.T) {
	cp := session.NewMemoryCheckpointer()
	var seenInLog []string
	probe := tool.New("probe", "Looks at the log.", func(ctx context.Context, _ *tool.Call, in struct{}) (tool.Result, error) {
		seenInLog = logTypes(t, cp, "s")
		return tool.Text("ok"), nil
	})
	h := newHarness(t, engine.Options{LogToolStarts: true, Tools: []tool.Tool{probe}, Checkpointer: cp})
	h.p.Reply(modeltest.ToolCalls(call("p1", "probe", `{}`)), modeltest.Text("done"))
	if _, _, err := h.turn(t, t.Context(), "s", "go"); err != nil {
		t.Fatal(err)
	}
	if want := []string{"user", "assistant", "tool_started"}; !slices.Equal(seenInLog, want) {
		t.Errorf("log while the tool ran %v, want %v", seenInLog, want)
	}
	if got := logTypes(t, h.cp, "s"); !slices.Equal(got, []string{"user", "assistant", "tool_started", "tool_result", "assistant"}) {
		t.Errorf("log %v", got)
	}
	// The log still folds into a valid conversation.
	h.p.Reply(modeltest.Text("again"))
	if _, _, err := h.turn(t, t.Context(), "s", "more"); err != nil {
		t.Fatal(err)
	}
	if msgs := h.p.Requests()[2].Messages; len(msgs) != 5 || msgs[2].Blocks[0].ID != "p1" {
		t.Errorf("conversation %+v", msgs)
	}
}

// Messages steered into a running turn reach the model at its next call:
// after the running tools, or, when the model has just answered, in one
// more call. Steer outside a turn reports false.
func TestSteerAddsMessagesToTheRunningTurn(t *testing.T) {
	var eng *engine.Engine
	gate := make(chan struct{})
	wait := tool.New("wait", "Waits.", func(ctx context.Context, _ *tool.Call, _ struct{}) (tool.Result, error) {
		if !eng.Steer("s", model.UserText("also check the tests")) {
			t.Error("Steer during a tool call was refused")
		}
		close(gate)
		return tool.Text("waited"), nil
	})
	h := newHarness(t, engine.Options{Tools: []tool.Tool{wait}})
	eng = h.eng
	if eng.Steer("s", model.UserText("nobody listens")) {
		t.Error("Steer without a running turn reported true")
	}
	h.p.Reply(modeltest.ToolCalls(call("w1", "wait", `{}`)))
	h.p.Respond(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		// While the model answers, another message comes in.
		if !eng.Steer("s", model.UserText("and be brief")) {
			t.Error("Steer during a model call was refused")
		}
		return modeltest.Text("Tests checked.").Chunks(), nil
	})
	h.p.Reply(modeltest.Text("Brief."))
	evs, res, err := h.turn(t, t.Context(), "s", "do it")
	if err != nil {
		t.Fatal(err)
	}
	<-gate
	var steered []string
	for _, ev := range evs {
		if ev.Type == engine.EventSteer {
			steered = append(steered, ev.Message.PlainText())
		}
	}
	if !slices.Equal(steered, []string{"also check the tests", "and be brief"}) {
		t.Errorf("steer events %q", steered)
	}
	reqs := h.p.Requests()
	if len(reqs) != 3 || reqs[1].Messages[len(reqs[1].Messages)-1].PlainText() != "also check the tests" ||
		reqs[2].Messages[len(reqs[2].Messages)-1].PlainText() != "and be brief" {
		t.Fatalf("requests %+v", reqs)
	}
	if res.Text != "Brief." || res.Turns != 3 {
		t.Errorf("result %+v", res)
	}
	want := []string{"user", "assistant", "tool_result", "user", "assistant", "user", "assistant"}
	if got := logTypes(t, h.cp, "s"); !slices.Equal(got, want) {
		t.Errorf("log %v, want %v", got, want)
	}
	if eng.Steer("s", model.UserText("too late")) {
		t.Error("Steer after the turn reported true")
	}
}
