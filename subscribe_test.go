package liteagent_test

import (
	"context"
	"errors"
	"slices"
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

// A subscriber sees the prompt's events and then the autonomous turn that
// delivers the subagent group's result, which no Run yields.
func TestSubscribeSeesPromptsAndAutonomousTurns(t *testing.T) {
	f := newFixture(t)
	f.p = groupProvider(func(context.Context) ([]model.Chunk, error) {
		return modeltest.Text("42").Chunks(), nil
	}, func(context.Context) ([]model.Chunk, error) {
		return modeltest.Text("the child said 42").Chunks(), nil
	})
	a := f.agent(t, f.options(nil))
	var (
		mu      sync.Mutex
		notices []liteagent.Notice
		late    int
	)
	unsubscribe, err := a.Subscribe(func(n liteagent.Notice) {
		mu.Lock()
		defer mu.Unlock()
		notices = append(notices, n)
	})
	if err != nil {
		t.Fatal(err)
	}
	// A panicking subscriber changes nothing for the runs or the others.
	if _, err := a.Subscribe(func(liteagent.Notice) { panic("boom") }); err != nil {
		t.Fatal(err)
	}
	sendAndAwait(t, a, "go")
	unsubscribe()
	unsubscribe() // harmless twice
	mu.Lock()
	got := slices.Clone(notices)
	mu.Unlock()

	var seq []string
	var autonomousText string
	for _, n := range got {
		if n.SessionID != a.SessionID() {
			t.Errorf("notice of session %q", n.SessionID)
		}
		switch n.Event.Type {
		case engine.EventDone, engine.EventBackgroundCompleted:
			seq = append(seq, string(n.Source)+":"+string(n.Event.Type))
		}
		if n.Event.Type == engine.EventBackgroundCompleted {
			c := n.Event.Completion
			if !strings.Contains(n.Event.Text, "<background-task-completed") || c == nil || !strings.HasPrefix(c.ID, "bg_g") ||
				c.Label != "Subagent group: F" || c.Status != engine.CompletionCompleted || c.IsError || !strings.Contains(c.Content, "42") {
				t.Errorf("completion %+v, text %q", c, n.Event.Text)
			}
		}
		if n.Source == hook.SourceBackground && n.Event.Type == engine.EventDone {
			autonomousText = n.Event.Result.Text
		}
	}
	want := []string{"user:done", "background:background_completed", "background:done"}
	if !slices.Equal(seq, want) {
		t.Errorf("notices %v, want %v", seq, want)
	}
	if autonomousText != "the child said 42" {
		t.Errorf("the autonomous turn's answer %q", autonomousText)
	}
	// After unsubscribe, a new prompt reaches only a new subscriber.
	if _, err := a.Subscribe(func(liteagent.Notice) { mu.Lock(); late++; mu.Unlock() }); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Send(t.Context(), "hello"); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if len(notices) != len(got) || late == 0 {
		t.Errorf("after unsubscribe: %d more notices to the old subscriber, %d to the new one", len(notices)-len(got), late)
	}
	mu.Unlock()
	a.Close()
	if _, err := a.Subscribe(func(liteagent.Notice) {}); !errors.Is(err, liteagent.ErrClosed) {
		t.Errorf("Subscribe after Close: %v", err)
	}
}

// A group that finishes while its prompt's answer is still being produced is
// delivered after the prompt: subscribers see the prompt's done first.
func TestSubscribersSeeTheDeliveryAfterThePrompt(t *testing.T) {
	f := newFixture(t)
	childDone := make(chan struct{})
	var once sync.Once
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		switch {
		case strings.HasPrefix(req.System, `You are the "general-purpose" subagent`):
			once.Do(func() { close(childDone) })
			return modeltest.Text("42").Chunks(), nil
		case isDelivered(req):
			return modeltest.Text("the child said 42").Chunks(), nil
		case len(req.Messages) == 1:
			return modeltest.ToolCalls(call("a1", "Agent", `{"tasks":[{"display_name":"F","subagent_type":"general-purpose","prompt":"p"}]}`)).Chunks(), nil
		}
		<-childDone // the prompt's last answer is slow: the group is done first
		time.Sleep(100 * time.Millisecond)
		return modeltest.Text("dispatched").Chunks(), nil
	})
	a := f.agent(t, f.options(nil))
	var (
		mu  sync.Mutex
		seq []string
	)
	if _, err := a.Subscribe(func(n liteagent.Notice) {
		switch n.Event.Type {
		case engine.EventDone, engine.EventBackgroundCompleted:
			mu.Lock()
			seq = append(seq, string(n.Source)+":"+string(n.Event.Type))
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	sendAndAwait(t, a, "go")
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"user:done", "background:background_completed", "background:done"}; !slices.Equal(seq, want) {
		t.Errorf("notices %v, want %v", seq, want)
	}
}

// AwaitIdle called from the loop over Run, at its done event, waits for the
// prompt's groups without waiting for the loop itself.
func TestAwaitIdleFromTheRunLoop(t *testing.T) {
	f := newFixture(t)
	f.p = groupProvider(func(context.Context) ([]model.Chunk, error) { return modeltest.Text("42").Chunks(), nil }, nil)
	a := f.agent(t, f.options(nil))
	for ev, err := range a.Run(t.Context(), "go") {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type == engine.EventDone {
			ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
			err := a.AwaitIdle(ctx)
			cancel()
			if err != nil {
				t.Errorf("AwaitIdle from the Run loop: %v", err)
			}
		}
	}
}

// A host steers the running prompt: the model gets the text at its next
// call; with no prompt running, Steer fails with ErrNotRunning.
func TestSteerTheRunningPrompt(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(nil))
	if err := a.Steer("hello?"); !errors.Is(err, liteagent.ErrNotRunning) {
		t.Errorf("Steer with no prompt: %v", err)
	}
	f.p.Respond(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		if err := a.Steer("answer in French"); err != nil {
			t.Errorf("Steer: %v", err)
		}
		return modeltest.Text("Done.").Chunks(), nil
	})
	f.p.Reply(modeltest.Text("Fait."))
	res, err := a.Send(t.Context(), "do it")
	if err != nil || res.Text != "Fait." {
		t.Fatalf("result %+v, %v", res, err)
	}
	if reqs := f.p.Requests(); len(reqs) != 2 || reqs[1].Messages[len(reqs[1].Messages)-1].PlainText() != "answer in French" {
		t.Errorf("requests %+v", reqs)
	}
}

// An autonomous turn that delivers background work is not a prompt: Steer
// does not reach it.
func TestSteerDoesNotReachAnAutonomousTurn(t *testing.T) {
	f := newFixture(t)
	var a *liteagent.Agent
	steerErr := make(chan error, 1)
	f.p = groupProvider(func(context.Context) ([]model.Chunk, error) {
		return modeltest.Text("42").Chunks(), nil
	}, func(context.Context) ([]model.Chunk, error) {
		steerErr <- a.Steer("host text")
		return modeltest.Text("the child said 42").Chunks(), nil
	})
	a = f.agent(t, f.options(nil))
	sendAndAwait(t, a, "go")
	if err := <-steerErr; !errors.Is(err, liteagent.ErrNotRunning) {
		t.Errorf("Steer during an autonomous turn: %v, want ErrNotRunning", err)
	}
}

// SubscribeAll adds the events of subagents' own runs, stamped with the
// subagent's id and session; Subscribe does not see them.
func TestSubscribeAllSeesSubagentRuns(t *testing.T) {
	f := newFixture(t)
	f.p = groupProvider(func(context.Context) ([]model.Chunk, error) {
		return modeltest.Text("42").Chunks(), nil
	}, func(context.Context) ([]model.Chunk, error) {
		return modeltest.Text("the child said 42").Chunks(), nil
	})
	a := f.agent(t, f.options(nil))
	var (
		mu         sync.Mutex
		all, plain []liteagent.Notice
	)
	if _, err := a.SubscribeAll(func(n liteagent.Notice) { mu.Lock(); all = append(all, n); mu.Unlock() }); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Subscribe(func(n liteagent.Notice) { mu.Lock(); plain = append(plain, n); mu.Unlock() }); err != nil {
		t.Fatal(err)
	}
	sendAndAwait(t, a, "go")
	mu.Lock()
	defer mu.Unlock()
	for _, n := range plain {
		if n.SessionID != a.SessionID() || n.Event.AgentID != "" && n.Event.Type != engine.EventTaskUpdate && n.Event.Type != engine.EventDiagnostic {
			t.Errorf("Subscribe saw a subagent's event: %+v", n)
		}
	}
	var seq []string
	childDone := false
	for _, n := range all {
		if n.SessionID == a.SessionID() {
			if n.Event.Type == engine.EventDone || n.Event.Type == engine.EventBackgroundCompleted {
				seq = append(seq, string(n.Event.Type))
			}
			continue
		}
		if !strings.HasPrefix(n.SessionID, "agent-") || n.Event.AgentID != n.SessionID || n.Event.SessionID != n.SessionID || n.Source != hook.SourceUser {
			t.Errorf("a subagent's notice: session %q, event session %q, agent %q, source %q", n.SessionID, n.Event.SessionID, n.Event.AgentID, n.Source)
		}
		if n.Event.Type == engine.EventDone {
			childDone = n.Event.Result.Text == "42"
			seq = append(seq, "child:done")
		}
	}
	if !childDone {
		t.Error("SubscribeAll did not see the subagent's done event")
	}
	if want := []string{"done", "child:done", "background_completed", "done"}; !slices.Equal(seq, want) && !slices.Equal(seq, []string{"child:done", "done", "background_completed", "done"}) {
		t.Errorf("notices %v, want the child's done before the delivery", seq)
	}
}
