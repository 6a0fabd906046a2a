package liteagent_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// The model asks through ask_user; the host's answer comes back as the
// tool's result, framed by input_request and input_resolved events.
func TestAskUserAsksTheHost(t *testing.T) {
	f := newFixture(t)
	var asked []liteagent.Question
	opts := f.options(nil)
	opts.OnAskUser = func(ctx context.Context, q liteagent.Question) (liteagent.Answer, error) {
		asked = append(asked, q)
		switch q.Text {
		case "Which colour?":
			return liteagent.Answer{Selected: []string{"red", "blue"}}, nil
		case "Anything else?":
			return liteagent.Answer{Text: "  "}, nil
		}
		return liteagent.Answer{}, errors.New("the user left")
	}
	a := f.agent(t, opts)
	f.p.Reply(
		modeltest.ToolCalls(call("q1", "ask_user", `{"question":"Which colour?","options":["red","green","blue"],"multiSelect":true}`)),
		modeltest.ToolCalls(call("q2", "ask_user", `{"question":"Anything else?"}`)),
		modeltest.ToolCalls(call("q3", "ask_user", `{"question":"Still there?"}`)),
		modeltest.ToolCalls(call("q4", "ask_user", `{"question":""}`)),
		modeltest.Text("Painting it red and blue."),
	)
	var frames []string
	for ev, err := range a.Run(t.Context(), "paint the fence") {
		if err != nil {
			t.Fatal(err)
		}
		switch ev.Type {
		case engine.EventInputRequest, engine.EventInputResolved:
			frames = append(frames, string(ev.Type)+" "+ev.Tool.Call.ID+": "+ev.Text)
		}
	}
	wantFrames := []string{
		"input_request q1: Which colour?", "input_resolved q1: red, blue",
		"input_request q2: Anything else?", "input_resolved q2: (no answer)",
		"input_request q3: Still there?",
	}
	if !slices.Equal(frames, wantFrames) {
		t.Errorf("events %q, want %q", frames, wantFrames)
	}
	if len(asked) != 3 || !asked[0].MultiSelect || !slices.Equal(asked[0].Options, []string{"red", "green", "blue"}) ||
		asked[0].CallID != "q1" || asked[0].SessionID != a.SessionID() {
		t.Errorf("questions %+v", asked)
	}
	reqs := f.p.Requests()
	results := func(i int) string {
		m := reqs[i].Messages[len(reqs[i].Messages)-1]
		return m.Blocks[0].Content
	}
	if results(1) != "red, blue" || results(2) != "(no answer)" ||
		!strings.Contains(results(3), "the user could not be asked: the user left") || !strings.Contains(results(4), "invalid input for ask_user") {
		t.Errorf("results %q | %q | %q | %q", results(1), results(2), results(3), results(4))
	}
}

func TestAskUserIsOfferedOnlyWithAHandler(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(nil))
	f.p.Reply(modeltest.Text("hi"))
	if _, err := a.Send(t.Context(), "hello"); err != nil {
		t.Fatal(err)
	}
	for _, s := range f.p.Requests()[0].Tools {
		if s.Name == liteagent.AskUserTool {
			t.Error("ask_user offered without OnAskUser")
		}
	}
}
