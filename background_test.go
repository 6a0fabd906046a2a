package liteagent_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// A command the model runs in the background wakes its session when it
// ends: an autonomous turn receives the completion notice.
func TestABackgroundCommandsCompletionIsDelivered(t *testing.T) {
	f := newFixture(t)
	var (
		mu        sync.Mutex
		delivered string
	)
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		last := req.Messages[len(req.Messages)-1]
		switch {
		case strings.Contains(last.PlainText(), "<background-task-completed"):
			mu.Lock()
			delivered = last.PlainText()
			mu.Unlock()
			return modeltest.Text("The build failed with 3.").Chunks(), nil
		case len(req.Messages) == 1:
			return modeltest.ToolCalls(call("b1", "bash", `{"command":"sleep 0.2; echo build-output; exit 3","run_in_background":true}`)).Chunks(), nil
		}
		return modeltest.Text("Started the build.").Chunks(), nil
	})
	a := f.agent(t, f.options(nil))
	answered := make(chan string, 1)
	completions := make(chan engine.BackgroundCompletion, 1)
	if _, err := a.Subscribe(func(n liteagent.Notice) {
		switch {
		case n.Source == hook.SourceBackground && n.Event.Type == engine.EventDone:
			answered <- n.Event.Result.Text
		case n.Event.Type == engine.EventBackgroundCompleted:
			completions <- *n.Event.Completion
		}
	}); err != nil {
		t.Fatal(err)
	}
	res, err := a.Send(t.Context(), "build it in the background")
	if err != nil || res.Text != "Started the build." {
		t.Fatalf("prompt: %+v %v", res, err)
	}
	if r := f.p.Requests()[1].Messages[2].Blocks[0].Content; !strings.Contains(r, "You will be told when it ends.") {
		t.Errorf("bash result %q", r)
	}
	select {
	case text := <-answered:
		if text != "The build failed with 3." {
			t.Errorf("autonomous answer %q", text)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the completion was not delivered")
	}
	if c := <-completions; !strings.HasPrefix(c.ID, "bg_") || c.Label != "bash: sleep 0.2; echo build-output; exit 3" ||
		c.Status != engine.CompletionError || !c.IsError || c.Content != "[exit 3] build-output" {
		t.Errorf("completion %+v", c)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.HasPrefix(delivered, `<background-task-completed id="bg_`) || !strings.Contains(delivered, `label="bash: sleep 0.2; echo build-output; exit 3" status="error">`) ||
		!strings.Contains(delivered, "[exit 3] build-output") {
		t.Errorf("notice %q", delivered)
	}
}

// Close kills background commands; their completions start no turn.
func TestCloseEndsBackgroundCommandsWithoutADelivery(t *testing.T) {
	f := newFixture(t)
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		if len(req.Messages) == 1 {
			return modeltest.ToolCalls(call("b1", "bash", `{"command":"sleep 30","run_in_background":true}`)).Chunks(), nil
		}
		return modeltest.Text("started").Chunks(), nil
	})
	a, err := liteagent.New(t.Context(), f.options(nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	n := len(f.p.Requests())
	start := time.Now()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Close took %v", d)
	}
	if m := len(f.p.Requests()); m != n {
		t.Errorf("%d model requests after Close", m-n)
	}
}

// allText returns every text, tool input and result of req's messages.
func allText(req model.Request) string {
	var b strings.Builder
	for _, m := range req.Messages {
		b.WriteString(m.PlainText())
		for _, bl := range m.Blocks {
			b.WriteString(bl.Content)
			b.Write(bl.Input)
		}
	}
	return b.String()
}

// A command a subagent runs in the background is delivered to the session
// that dispatched the subagent, never as a turn on the child's session.
func TestASubagentsBackgroundCommandWakesItsParent(t *testing.T) {
	f := newFixture(t)
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		child := strings.HasPrefix(req.System, `You are the "general-purpose" subagent`)
		all := allText(req)
		switch {
		case strings.Contains(all, `label="bash:`):
			return modeltest.Text("woken").Chunks(), nil
		case isDelivered(req):
			return modeltest.Text("group delivered").Chunks(), nil
		case child && !strings.Contains(all, "background:bg_"):
			return modeltest.ToolCalls(call("b1", "bash", `{"command":"sleep 0.2; echo hi","run_in_background":true}`)).Chunks(), nil
		case child:
			return modeltest.Text("child started it").Chunks(), nil
		case len(req.Messages) == 1:
			return modeltest.ToolCalls(call("a1", "Agent", `{"tasks":[{"display_name":"F","subagent_type":"general-purpose","prompt":"p"}]}`)).Chunks(), nil
		}
		return modeltest.Text("dispatched").Chunks(), nil
	})
	a := f.agent(t, f.options(nil))
	woken := make(chan string, 4)
	if _, err := a.Subscribe(func(n liteagent.Notice) {
		if n.Event.Type == engine.EventBackgroundCompleted && strings.Contains(n.Event.Text, `label="bash:`) {
			woken <- n.SessionID
		}
	}); err != nil {
		t.Fatal(err)
	}
	sendAndAwait(t, a, "go")
	select {
	case id := <-woken:
		if id != a.SessionID() {
			t.Errorf("the command's completion went to session %q, not the parent %q", id, a.SessionID())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the command's completion was not delivered")
	}
}

// Deleting a session kills its background commands; their completions do
// not reach a new conversation under the same id.
func TestDeleteSessionKillsItsBackgroundCommands(t *testing.T) {
	f := newFixture(t)
	delivered := make(chan string, 4)
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		all := allText(req)
		switch {
		case strings.Contains(all, `label="bash:`):
			delivered <- all
			return modeltest.Text("noted").Chunks(), nil
		case strings.Contains(all, "start it") && !strings.Contains(all, "background:bg_"):
			return modeltest.ToolCalls(call("b1", "bash", `{"command":"sleep 0.5; echo OLD-SECRET","run_in_background":true}`)).Chunks(), nil
		}
		return modeltest.Text("ok").Chunks(), nil
	})
	a := f.agent(t, f.options(nil))
	id := a.SessionID()
	if _, err := a.Send(t.Context(), "start it"); err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteSession(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	if err := a.Resume(id); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Send(t.Context(), "a new conversation"); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-delivered:
		t.Errorf("the deleted session's command reached the new conversation: %.200q", m)
	case <-time.After(time.Second):
	}
}
