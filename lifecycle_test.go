package liteagent_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// DeleteSession cancels the session's subagent group: no late autonomous
// turn recreates the deleted log.
func TestDeleteSessionCancelsItsSubagentWork(t *testing.T) {
	f := newFixture(t)
	release := make(chan struct{})
	childStarted := make(chan struct{}, 1)
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		delivered := false
		for _, m := range req.Messages {
			delivered = delivered || strings.Contains(m.PlainText(), "<background-task-completed")
		}
		switch {
		case strings.HasPrefix(req.System, `You are the "general-purpose" subagent`):
			childStarted <- struct{}{}
			select {
			case <-release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return modeltest.Text("child found 42").Chunks(), nil
		case delivered:
			return modeltest.Text("LATE AUTONOMOUS TURN").Chunks(), nil
		case len(req.Messages) == 1:
			return modeltest.ToolCalls(call("a1", "Agent", `{"tasks":[{"display_name":"Finder","subagent_type":"general-purpose","prompt":"find"}]}`)).Chunks(), nil
		}
		return modeltest.Text("dispatched").Chunks(), nil
	})
	a := f.agent(t, f.options(nil))
	id := a.SessionID()
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	<-childStarted
	if err := a.DeleteSession(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	logf := filepath.Join(a.Paths().SessionsDir, id+".jsonl")
	if _, err := os.Stat(logf); err == nil {
		t.Fatal("DeleteSession left the log")
	}
	close(release)
	if err := a.AwaitIdle(t.Context()); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(logf); err == nil {
		t.Errorf("the deleted log is back after the group completed (late turn: %v)", strings.Contains(string(b), "LATE AUTONOMOUS TURN"))
	}
	infos, _ := a.ListSessions(t.Context())
	for _, in := range infos {
		if in.ID == id {
			t.Errorf("deleted session %s is listed again", id)
		}
	}
}

// Close aborts a running turn: its model call is cancelled.
func TestCloseAbortsARunningTurn(t *testing.T) {
	f := newFixture(t)
	started := make(chan struct{}, 1)
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		started <- struct{}{}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(3 * time.Second):
		}
		return modeltest.Text("finished after close").Chunks(), nil
	})
	a := f.agent(t, f.options(nil))
	type out struct {
		res *liteagent.Result
		err error
	}
	done := make(chan out, 1)
	go func() { r, err := a.Send(context.Background(), "hi"); done <- out{r, err} }()
	<-started
	t0 := time.Now()
	a.Close()
	t.Logf("Close returned after %v", time.Since(t0))
	select {
	case o := <-done:
		t.Logf("Send returned %v after close: %+v err=%v", time.Since(t0), o.res, o.err)
		if o.err == nil && o.res.StopReason != "aborted" {
			t.Errorf("run kept going after Close: stop=%s text=%q", o.res.StopReason, o.res.Text)
		}
	case <-time.After(5 * time.Second):
		t.Error("Send still running 5s after Close")
	}
}

// A Run made before Close but ranged over after it fails with ErrClosed.
func TestARunIteratedAfterCloseFails(t *testing.T) {
	f := newFixture(t)
	f.p.Reply(modeltest.Text("ran after close"))
	a := f.agent(t, f.options(nil))
	seq := a.Run(t.Context(), "hi")
	a.Close()
	for ev, err := range seq {
		if err != nil {
			if !errors.Is(err, liteagent.ErrClosed) {
				t.Errorf("error %v, want ErrClosed", err)
			}
			return
		}
		if ev.Type == "done" {
			t.Errorf("run iterated after Close completed: %q", ev.Done.Text)
		}
	}
	t.Error("the run ended without ErrClosed")
}

// A hook that runs a prompt on its own agent, with its context, gets
// ErrReentrant instead of waiting forever for the turn that waits for it.
func TestAHookCannotRunAPromptOnItsAgent(t *testing.T) {
	f := newFixture(t)
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		if len(req.Messages) == 1 {
			return modeltest.ToolCalls(call("c1", "TaskList", `{}`)).Chunks(), nil
		}
		return modeltest.Text("ok").Chunks(), nil
	})
	var a *liteagent.Agent
	var inner atomic.Value
	opts := f.options(nil)
	opts.Hooks = []hook.Hook{{Event: hook.EventToolStart, Timeout: 300 * time.Millisecond, Func: func(ctx context.Context, p hook.Payload) error {
		_, err := a.Send(ctx, "nested")
		inner.Store(err)
		return err
	}}}
	a = f.agent(t, opts)
	done := make(chan error, 1)
	go func() { _, err := a.Send(context.Background(), "outer"); done <- err }()
	select {
	case <-done:
		if err, _ := inner.Load().(error); !errors.Is(err, liteagent.ErrReentrant) {
			t.Errorf("the hook's Send returned %v, want ErrReentrant", err)
		}
	case <-time.After(3 * time.Second):
		t.Errorf("outer Send hung (hook timeout 300ms): re-entrant Send deadlocks; inner=%v", inner.Load())
	}
}

// A prompt waiting for another turn of its session stops when its context
// ends.
func TestAQueuedPromptHonoursItsContext(t *testing.T) {
	f := newFixture(t)
	started := make(chan struct{}, 1)
	release := make(chan struct{})
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		select {
		case started <- struct{}{}:
		default:
		}
		<-release
		return modeltest.Text("x").Chunks(), nil
	})
	a := f.agent(t, f.options(nil))
	go a.Send(context.Background(), "first")
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { _, err := a.Send(ctx, "second"); done <- err }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Errorf("Send with a 200ms ctx still blocked after 2s waiting for the session")
	}
	close(release)
}

// Close aborts an autonomous turn (the delivery of a subagent group's
// result) instead of waiting for its model call.
func TestCloseAbortsAnAutonomousTurn(t *testing.T) {
	f := newFixture(t)
	inDelivery := make(chan struct{}, 1)
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		delivered := false
		for _, m := range req.Messages {
			delivered = delivered || strings.Contains(m.PlainText(), "<background-task-completed")
		}
		switch {
		case strings.HasPrefix(req.System, `You are the "general-purpose" subagent`):
			return modeltest.Text("child").Chunks(), nil
		case delivered:
			inDelivery <- struct{}{}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(4 * time.Second):
			}
			return modeltest.Text("late").Chunks(), nil
		case len(req.Messages) == 1:
			return modeltest.ToolCalls(call("a1", "Agent", `{"tasks":[{"display_name":"F","subagent_type":"general-purpose","prompt":"p"}]}`)).Chunks(), nil
		}
		return modeltest.Text("dispatched").Chunks(), nil
	})
	a := f.agent(t, f.options(nil))
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	<-inDelivery
	t0 := time.Now()
	a.Close()
	if d := time.Since(t0); d > time.Second {
		t.Errorf("Close took %v: the delivery turn's provider stream was not aborted", d)
	}
}

// Query waits for the subagent group its prompt started and returns the
// result of the autonomous turn that the group's result ran.
func TestQueryWaitsForTheGroupsItsPromptStarted(t *testing.T) {
	f := newFixture(t)
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		delivered := false
		for _, m := range req.Messages {
			delivered = delivered || strings.Contains(m.PlainText(), "<background-task-completed")
		}
		switch {
		case strings.HasPrefix(req.System, `You are the "general-purpose" subagent`):
			select { // a child that needs 200ms
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(200 * time.Millisecond):
			}
			return modeltest.Text("42").Chunks(), nil
		case delivered:
			return modeltest.Text("the child said 42").Chunks(), nil
		case len(req.Messages) == 1:
			return modeltest.ToolCalls(call("a1", "Agent", `{"tasks":[{"display_name":"F","subagent_type":"general-purpose","prompt":"p"}]}`)).Chunks(), nil
		}
		return modeltest.Text("dispatched").Chunks(), nil
	})
	res, err := liteagent.Query(t.Context(), liteagent.QueryOptions{Options: f.options(nil), Prompt: "ask a child"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "the child said 42" {
		t.Errorf("Query returned the initial result; the Agent group was cancelled by Close instead of awaited")
	}
}

func idOf(p hook.Payload) hook.Identity {
	switch v := p.(type) {
	case hook.RunStart:
		return v.Identity
	case hook.RunEnd:
		return v.Identity
	case hook.ToolStart:
		return v.Identity
	case hook.ToolEnd:
		return v.Identity
	}
	return hook.Identity{}
}

// TestSubagentAndBackgroundRunsHaveTheirOwnHookIdentity checks that a
// subagent's run and the autonomous turn its result starts fire run hooks,
// each with its own runId, which their tool hooks share; the subagent's
// carry its agentId, the autonomous turn's the source background.
func TestSubagentAndBackgroundRunsHaveTheirOwnHookIdentity(t *testing.T) {
	f := newFixture(t)
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		delivered := false
		for _, m := range req.Messages {
			delivered = delivered || strings.Contains(m.PlainText(), "<background-task-completed")
		}
		hasResult, bgResult := false, false
		for _, m := range req.Messages {
			for _, b := range m.Blocks {
				hasResult = hasResult || b.Type == model.BlockToolResult
				bgResult = bgResult || (b.Type == model.BlockToolResult && b.ID == "b1")
			}
		}
		switch {
		case strings.HasPrefix(req.System, `You are the "general-purpose" subagent`):
			if !hasResult {
				return modeltest.ToolCalls(call("k1", "TaskList", `{}`)).Chunks(), nil
			}
			return modeltest.Text("child").Chunks(), nil
		case delivered && !bgResult:
			return modeltest.ToolCalls(call("b1", "TaskList", `{}`)).Chunks(), nil
		case delivered:
			return modeltest.Text("bg done").Chunks(), nil
		case len(req.Messages) == 1:
			return modeltest.ToolCalls(call("a1", "Agent", `{"tasks":[{"display_name":"F","subagent_type":"general-purpose","prompt":"p"}]}`)).Chunks(), nil
		}
		return modeltest.Text("dispatched").Chunks(), nil
	})
	type seen struct {
		event hook.Event
		tool  string
		id    hook.Identity
	}
	var mu sync.Mutex
	var log []seen
	rec := func(ctx context.Context, p hook.Payload) error {
		s := seen{event: p.Event(), id: idOf(p)}
		if v, ok := p.(hook.ToolStart); ok {
			s.tool = v.Call.ID
		}
		mu.Lock()
		log = append(log, s)
		mu.Unlock()
		return nil
	}
	opts := f.options(nil)
	for _, e := range []hook.Event{hook.EventRunStart, hook.EventRunEnd, hook.EventToolStart} {
		opts.Hooks = append(opts.Hooks, hook.Hook{Event: e, Func: rec})
	}
	a := f.agent(t, opts)
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	if err := a.AwaitIdle(t.Context()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	runs := map[string]hook.Identity{} // runId -> the run's identity, from run:start
	for _, s := range log {
		if s.event == hook.EventRunStart {
			runs[s.id.RunID] = s.id
		}
	}
	if len(runs) != 3 {
		t.Fatalf("%d runs started, want the prompt's, the subagent's and the autonomous turn's: %+v", len(runs), log)
	}
	want := map[string]func(hook.Identity) bool{ // tool call id -> what its run must be
		"a1": func(id hook.Identity) bool { return id.AgentID == "" && id.Source == hook.SourceUser },
		"k1": func(id hook.Identity) bool {
			return strings.HasPrefix(id.AgentID, "agent-general-purpose-") && id.AgentID == id.SessionID
		},
		"b1": func(id hook.Identity) bool { return id.AgentID == "" && id.Source == hook.SourceBackground },
	}
	for _, s := range log {
		if s.event != hook.EventToolStart {
			continue
		}
		run, ok := runs[s.id.RunID]
		if !ok || run != s.id || !want[s.tool](s.id) {
			t.Errorf("tool:start of %s: %+v, in run %+v", s.tool, s.id, run)
		}
		delete(want, s.tool)
	}
	if len(want) != 0 {
		t.Errorf("no tool:start for %v", want)
	}
}
