package liteagent_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/tool"
)

// DeleteSession cancels the session's subagent group: no late autonomous
// turn recreates the deleted log.
func TestDeleteSessionCancelsItsSubagentWork(t *testing.T) {
	f := newFixture(t)
	release := make(chan struct{})
	childStarted := make(chan struct{}, 1)
	f.p = groupProvider(func(ctx context.Context) ([]model.Chunk, error) {
		childStarted <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return modeltest.Text("child found 42").Chunks(), nil
	}, nil)
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
		case <-time.After(time.Minute): // Close did not abort the call
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
	case <-time.After(30 * time.Second):
		t.Error("Send still running 30s after Close")
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
			t.Errorf("run iterated after Close completed: %q", ev.Result.Text)
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
	// A hook that waits for the turn ends at its timeout, with the
	// timeout's error: generous, so that a loaded machine does not end the
	// hook before its Send has even looked at its context.
	opts.Hooks = []hook.Hook{{Event: hook.EventToolStart, Timeout: 5 * time.Second, Func: func(ctx context.Context, p hook.Payload) error {
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
	case <-time.After(30 * time.Second):
		t.Errorf("outer Send hung 30s (hook timeout 5s): re-entrant Send deadlocks; inner=%v", inner.Load())
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
	first := make(chan struct{})
	go func() {
		defer close(first)
		_, _ = a.Send(context.Background(), "first")
	}()
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { _, err := a.Send(ctx, "second"); done <- err }()
	select {
	case <-done:
	case <-time.After(20 * time.Second): // the first turn holds the session until release
		t.Errorf("Send with a 200ms ctx still blocked after 20s waiting for the session")
	}
	close(release)
	// The first turn ends by writing its session: let it finish before the
	// test's directories are removed.
	<-first
}

// Close aborts an autonomous turn (the delivery of a subagent group's
// result) instead of waiting for its model call.
func TestCloseAbortsAnAutonomousTurn(t *testing.T) {
	f := newFixture(t)
	inDelivery := make(chan struct{}, 1)
	// The delivery's model call ends only when its context does, or when
	// the test gives up on Close: a Close that waits for it, rather than
	// aborting it, does not return by itself.
	giveUp := make(chan struct{})
	f.p = groupProvider(func(context.Context) ([]model.Chunk, error) {
		return modeltest.Text("child").Chunks(), nil
	}, func(ctx context.Context) ([]model.Chunk, error) {
		inDelivery <- struct{}{}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-giveUp:
		}
		return modeltest.Text("late").Chunks(), nil
	})
	a := f.agent(t, f.options(nil))
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	<-inDelivery
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		a.Close()
	}()
	select {
	case <-closed:
	case <-time.After(20 * time.Second):
		t.Errorf("Close still waits after 20s: the delivery turn's provider stream was not aborted")
		close(giveUp)
		<-closed
	}
}

// Query waits for the subagent group its prompt started and returns the
// result of the autonomous turn that the group's result ran.
func TestQueryWaitsForTheGroupsItsPromptStarted(t *testing.T) {
	f := newFixture(t)
	f.p = groupProvider(func(ctx context.Context) ([]model.Chunk, error) {
		select { // a child that needs 200ms
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
		return modeltest.Text("42").Chunks(), nil
	}, func(context.Context) ([]model.Chunk, error) {
		return modeltest.Text("the child said 42").Chunks(), nil
	})
	res, err := liteagent.Query(t.Context(), liteagent.QueryOptions{Options: f.options(nil), Prompt: "go"})
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
		delivered := isDelivered(req)
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
	sendAndAwait(t, a, "go")
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

func isDelivered(req model.Request) bool {
	for _, m := range req.Messages {
		if strings.Contains(m.PlainText(), "<background-task-completed") {
			return true
		}
	}
	return false
}

// groupProvider is a model for the prompt "go": it dispatches one
// general-purpose subagent (answering with child), says "dispatched", and
// answers the autonomous turn that delivers the group's result with
// delivered ("LATE AUTONOMOUS TURN" when nil).
func groupProvider(child, delivered func(ctx context.Context) ([]model.Chunk, error)) *modeltest.Provider {
	if delivered == nil {
		delivered = func(context.Context) ([]model.Chunk, error) {
			return modeltest.Text("LATE AUTONOMOUS TURN").Chunks(), nil
		}
	}
	return modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		switch {
		case strings.HasPrefix(req.System, `You are the "general-purpose" subagent`):
			return child(ctx)
		case isDelivered(req):
			return delivered(ctx)
		case len(req.Messages) == 1 && req.Messages[0].PlainText() == "go":
			return modeltest.ToolCalls(call("a1", "Agent", `{"tasks":[{"display_name":"F","subagent_type":"general-purpose","prompt":"p"}]}`)).Chunks(), nil
		}
		return modeltest.Text("dispatched").Chunks(), nil
	})
}

// DeleteSession called from a tool of the session's own turn: with the
// tool's context it is refused and removes nothing; with a fresh context it
// deletes, and the turn cannot bring the log back (nor hang).
func TestDeleteSessionFromAToolOfTheSession(t *testing.T) {
	for _, mode := range []string{"tool-ctx", "background-ctx"} {
		t.Run(mode, func(t *testing.T) {
			f := newFixture(t)
			var a *liteagent.Agent
			var derr atomic.Value
			tl, err := tool.NewRaw("wipe", "wipe", json.RawMessage(`{"type":"object"}`), func(ctx context.Context, _ *tool.Call, _ json.RawMessage) (tool.Result, error) {
				c := ctx
				if mode == "background-ctx" {
					c = context.Background()
				}
				err := a.DeleteSession(c, a.SessionID())
				derr.Store(errBox{err})
				_ = errBox{}
				return tool.Result{Content: "wiped"}, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			opts := f.options(nil)
			opts.Tools = []tool.Tool{tl}
			a, err = liteagent.New(t.Context(), opts)
			if err != nil {
				t.Fatal(err)
			}
			f.p.Reply(modeltest.ToolCalls(call("w", "wipe", `{}`)))
			f.p.Reply(modeltest.Text("done"))
			done := make(chan error, 1)
			go func() { _, err := a.Send(context.Background(), "wipe it"); done <- err }()
			select {
			case <-done:
				derr := derr.Load().(errBox).err
				_, serr := os.Stat(filepath.Join(a.Paths().SessionsDir, a.SessionID()+".jsonl"))
				switch mode {
				case "tool-ctx": // refused, nothing removed
					if !errors.Is(derr, liteagent.ErrDeletingRunningSession) || serr != nil {
						t.Errorf("DeleteSession: %v, log present %v; want ErrDeletingRunningSession and the log", derr, serr == nil)
					}
				default: // deleted; the turn cannot bring the log back
					if derr != nil || serr == nil {
						t.Errorf("DeleteSession: %v, log present %v; want it deleted", derr, serr == nil)
					}
				}
			case <-time.After(30 * time.Second):
				t.Errorf("Send hung 30s: DeleteSession from a tool waits (Exclusive) for the turn running that tool; DeleteSession=%v", derr.Load())
			}
		})
	}
}

type errBox struct{ err error }

// A run:end hook's audited decision, appended in the background, never
// recreates the log of a session deleted right after the run.
func TestAnAuditedRunEndNeverRevivesADeletedSession(t *testing.T) {
	f := newFixture(t)
	writeFile(t, filepath.Join(f.workdir, ".acme", "hooks.json"), `{"version":1,"hooks":{"run:end":[{"command":"true"}]}}`)
	opts := f.options(nil)
	opts.PermissionAudit = true
	a := f.agent(t, opts)
	const n = 20
	var ids []string
	for range n {
		a.Clear()
		id := a.SessionID()
		ids = append(ids, id)
		f.p.Reply(modeltest.Text("ok"))
		if _, err := a.Send(t.Context(), "hi"); err != nil {
			t.Fatal(err)
		}
		if err := a.DeleteSession(t.Context(), id); err != nil {
			t.Fatal(err)
		}
	}
	a.Close() // waits for audits
	back := 0
	for _, id := range ids {
		if b, err := os.ReadFile(filepath.Join(a.Paths().SessionsDir, id+".jsonl")); err == nil {
			back++
			if back == 1 {
				t.Logf("resurrected log %s:\n%s", id, b)
			}
		}
	}
	if back > 0 {
		t.Errorf("%d of %d deleted sessions have a log again (an audit appended after DeleteSession)", back, n)
	}
}

// The groups DeleteSession cancelled are not delivered into a new
// conversation the host starts under the same id while they unwind.
func TestACancelledGroupIsNotDeliveredToANewConversation(t *testing.T) {
	f := newFixture(t)
	childStarted := make(chan struct{}, 1)
	f.p = groupProvider(func(ctx context.Context) ([]model.Chunk, error) {
		childStarted <- struct{}{}
		<-ctx.Done()
		time.Sleep(300 * time.Millisecond) // a child that takes a moment to unwind
		return nil, ctx.Err()
	}, nil)
	a := f.agent(t, f.options(nil))
	id := a.SessionID()
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	<-childStarted
	if err := a.DeleteSession(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	// The host keeps using the agent: the current session id is unchanged.
	sendAndAwait(t, a, "a new conversation")
	b, _ := os.ReadFile(filepath.Join(a.Paths().SessionsDir, id+".jsonl"))
	if strings.Contains(string(b), "LATE AUTONOMOUS TURN") || strings.Contains(string(b), "background-task-completed") {
		t.Errorf("the group cancelled by DeleteSession was delivered into the new conversation on the same id:\n%s", b)
	}
}

// A call a hook schedules for after it returns, with the hook's context,
// is not refused as re-entrant.
func TestTheReentrancyGuardEndsWithTheHook(t *testing.T) {
	f := newFixture(t)
	var a *liteagent.Agent
	res := make(chan error, 1)
	opts := f.options(nil)
	var once sync.Once
	opts.Hooks = []hook.Hook{{Event: hook.EventRunEnd, Func: func(ctx context.Context, p hook.Payload) error {
		once.Do(func() {
			go func() {
				if err := a.AwaitIdle(context.Background()); err != nil {
					res <- err
					return
				}
				time.Sleep(200 * time.Millisecond) // well after the hook and its run returned
				_, err := a.Send(ctx, "follow-up")
				res <- err
			}()
		})
		return nil
	}}}
	a = f.agent(t, opts)
	f.p.Reply(modeltest.Text("ok"))
	f.p.Reply(modeltest.Text("follow-up ok"))
	if _, err := a.Send(t.Context(), "hi"); err != nil {
		t.Fatal(err)
	}
	if err := <-res; errors.Is(err, liteagent.ErrReentrant) {
		t.Errorf("a Send made after the hook returned is refused with ErrReentrant (its ctx came from the hook)")
	}
}

// run:end fires once even when the consumer stops at a run:start
// diagnostic.
func TestRunEndFiresWhenTheConsumerStopsAtARunStartDiagnostic(t *testing.T) {
	f := newFixture(t)
	var starts, ends atomic.Int32
	opts := f.options(nil)
	opts.Hooks = []hook.Hook{
		{Event: hook.EventRunStart, Func: func(context.Context, hook.Payload) error { starts.Add(1); return errors.New("boom") }},
		{Event: hook.EventRunEnd, Func: func(context.Context, hook.Payload) error { ends.Add(1); return nil }},
	}
	a := f.agent(t, opts)
	f.p.Reply(modeltest.Text("ok"))
	for range a.Run(t.Context(), "hi") {
		break // at the run:start diagnostic
	}
	if starts.Load() != ends.Load() {
		t.Errorf("run:start fired %d times, run:end %d", starts.Load(), ends.Load())
	}
}

// DeleteSession during a turn: the cancelled turn's audited run:end
// decision does not recreate the log.
func TestAnAuditedRunEndNeverRevivesASessionDeletedMidTurn(t *testing.T) {
	f := newFixture(t)
	writeFile(t, filepath.Join(f.workdir, ".acme", "hooks.json"), `{"version":1,"hooks":{"run:end":[{"command":"true"}]}}`)
	started := make(chan struct{}, 1)
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		started <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	})
	opts := f.options(nil)
	opts.PermissionAudit = true
	a := f.agent(t, opts)
	id := a.SessionID()
	done := make(chan struct{})
	go func() { defer close(done); a.Send(context.Background(), "hi") }()
	<-started
	if err := a.DeleteSession(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	<-done
	a.Close() // waits for audits
	if b, err := os.ReadFile(filepath.Join(a.Paths().SessionsDir, id+".jsonl")); err == nil {
		t.Errorf("the deleted session has a log again:\n%s", b)
	}
}

// The decisions about a subagent's and an autonomous turn's run hooks go
// to their own run's log.
func TestHookDecisionsOfSubagentAndAutonomousRunsLandInTheirLogs(t *testing.T) {
	f := newFixture(t)
	writeFile(t, filepath.Join(f.workdir, ".acme", "hooks.json"), `{"version":1,"hooks":{"run:start":[{"command":"true"}],"run:end":[{"command":"true"}]}}`)
	f.p = groupProvider(func(ctx context.Context) ([]model.Chunk, error) { return modeltest.Text("child").Chunks(), nil }, nil)
	opts := f.options(nil)
	opts.PermissionAudit = true
	a := f.agent(t, opts)
	id := a.SessionID()
	var diags []string
	for ev, err := range a.Run(t.Context(), "go") {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type == "diagnostic" {
			diags = append(diags, ev.Text)
		}
	}
	if err := a.AwaitIdle(t.Context()); err != nil {
		t.Fatal(err)
	}
	a.Close()
	entries, _ := os.ReadDir(a.Paths().SessionsDir)
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		b, _ := os.ReadFile(filepath.Join(a.Paths().SessionsDir, e.Name()))
		who := "child"
		if strings.HasPrefix(e.Name(), id) {
			who = "parent"
		}
		// The parent's prompt and its autonomous turn, and the child's
		// own run: two decisions each, in the run's own log.
		want := 2
		if who == "parent" {
			want = 4
		}
		if n := strings.Count(string(b), `"name":"hook"`); n != want {
			t.Errorf("%s log %s: %d hook decisions, want %d", who, e.Name(), n, want)
		}
	}
	if len(diags) != 0 {
		t.Errorf("diagnostics: %v", diags)
	}
}

// An autonomous turn's run:start decision is not appended through the
// dispatching turn while another turn of the session runs (a data race
// under -race before), and the log stays valid.
func TestAnAutonomousTurnsHookDecisionDoesNotRaceTheNextPrompt(t *testing.T) {
	f := newFixture(t)
	writeFile(t, filepath.Join(f.workdir, ".acme", "hooks.json"), `{"version":1,"hooks":{"run:start":[{"command":"true"}]}}`)
	releaseChild := make(chan struct{})
	inSecond := make(chan struct{}, 1)
	releaseSecond := make(chan struct{})
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		last := ""
		for _, m := range req.Messages {
			if strings.Contains(m.PlainText(), "second") {
				last = "second"
			}
		}
		switch {
		case strings.HasPrefix(req.System, `You are the "general-purpose" subagent`):
			<-releaseChild
			return modeltest.Text("child").Chunks(), nil
		case isDelivered(req):
			return modeltest.Text("delivered").Chunks(), nil
		case last == "second" && !strings.Contains(req.Messages[len(req.Messages)-1].PlainText(), "second done"):
			inSecond <- struct{}{}
			<-releaseSecond
			return modeltest.Text("second done").Chunks(), nil
		case len(req.Messages) == 1:
			return modeltest.ToolCalls(call("a1", "Agent", `{"tasks":[{"display_name":"F","subagent_type":"general-purpose","prompt":"p"}]}`)).Chunks(), nil
		}
		return modeltest.Text("dispatched").Chunks(), nil
	})
	opts := f.options(nil)
	opts.PermissionAudit = true
	a := f.agent(t, opts)
	id := a.SessionID()
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := a.Send(context.Background(), "second"); done <- err }()
	select {
	case <-inSecond:
	case err := <-done:
		t.Fatalf("second returned early: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("second never reached the model")
	}
	close(releaseChild)
	time.Sleep(300 * time.Millisecond) // the delivery's run:start hook and its decision
	close(releaseSecond)
	if err := <-done; err != nil {
		t.Errorf("second turn: %v", err)
	}
	if err := a.AwaitIdle(t.Context()); err != nil {
		t.Fatal(err)
	}
	a.Close()
	// The log reads (its frames are in order) and holds one decision per
	// run of the session: the two prompts and the autonomous turn.
	cp, err := session.NewFileCheckpointer(a.Paths().SessionsDir, session.FileOptions{Encoding: storage.Encoding{Namespace: "acme", ProjectID: a.Paths().Hash}})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := cp.Read(t.Context(), id, 0)
	if err != nil {
		t.Fatalf("the log does not read: %v", err)
	}
	decisions := 0
	for _, ev := range evs {
		if d, ok := ev.Event.(session.PermissionDecisionEvent); ok && d.Call.Name == hook.ToolName {
			decisions++
		}
	}
	if decisions != 3 {
		t.Errorf("%d hook decisions in the log, want 3", decisions)
	}
}

// A run:end hook may run a prompt on its session with a fresh context: the
// engine releases the session before the done event.
func TestARunEndHookMayPromptTheSessionWithAFreshContext(t *testing.T) {
	f := newFixture(t)
	var a *liteagent.Agent
	var once atomic.Bool
	opts := f.options(nil)
	opts.Hooks = []hook.Hook{{Event: hook.EventRunEnd, Timeout: 300 * time.Millisecond, Func: func(ctx context.Context, p hook.Payload) error {
		if once.CompareAndSwap(false, true) {
			a.Send(context.Background(), "from hook")
		}
		return nil
	}}}
	a, _ = liteagent.New(t.Context(), opts)
	f.p.Reply(modeltest.Text("ok"))
	f.p.Reply(modeltest.Text("ok2"))
	done := make(chan error, 1)
	go func() { _, err := a.Send(context.Background(), "hi"); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(30 * time.Second):
		t.Error("a run:end hook's prompt on its session (fresh context) did not finish in 30s")
	}
}

// sendAndAwait sends prompt and waits until the subagent groups it started
// and their deliveries are done.
func sendAndAwait(t *testing.T, a *liteagent.Agent, prompt string) {
	t.Helper()
	if _, err := a.Send(t.Context(), prompt); err != nil {
		t.Fatal(err)
	}
	if err := a.AwaitIdle(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// A subagent's tool may shut the agent down with its own context: Close
// from there would wait for that tool forever.
func TestShutdownFromASubagentsTool(t *testing.T) {
	f := newFixture(t)
	var a *liteagent.Agent
	returned := make(chan error, 1)
	stop := tool.New("stop_agent", "Stops the agent.", func(ctx context.Context, _ *tool.Call, _ struct{}) (tool.Result, error) {
		returned <- a.Shutdown(ctx)
		return tool.Text("stopping"), nil
	})
	f.p = childCalls("stop_agent")
	opts := f.options(nil)
	opts.Tools = []tool.Tool{stop}
	a = f.agent(t, opts)
	sendAndAwaitShutdown(t, a, returned)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if err := a.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown from the host: %v", err)
	}
	if _, err := a.Send(t.Context(), "again"); !errors.Is(err, liteagent.ErrClosed) {
		t.Errorf("Send after Shutdown: %v", err)
	}
}

// Shutdown stops waiting when its context ends; closing goes on.
func TestShutdownHonoursItsContext(t *testing.T) {
	a, release := stubbornChild(t, newFixture(t))
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	if err := a.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Shutdown with a stubborn tool: %v", err)
	}
	close(release)
	if err := a.Close(); err != nil { // waits for the close under way
		t.Errorf("Close: %v", err)
	}
}

// childCalls is a model for the prompt "go": it dispatches one
// general-purpose subagent, which calls the tool name and then answers.
func childCalls(name string) *modeltest.Provider {
	return modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		child := strings.HasPrefix(req.System, `You are the "general-purpose" subagent`)
		called := false
		for _, m := range req.Messages {
			for _, b := range m.Blocks {
				called = called || b.Type == model.BlockToolResult
			}
		}
		switch {
		case child && !called:
			return modeltest.ToolCalls(call("c1", name, `{}`)).Chunks(), nil
		case child:
			return modeltest.Text("child done").Chunks(), nil
		case len(req.Messages) == 1:
			return modeltest.ToolCalls(call("a1", "Agent", `{"tasks":[{"display_name":"F","subagent_type":"general-purpose","prompt":"p"}]}`)).Chunks(), nil
		}
		return modeltest.Text("dispatched").Chunks(), nil
	})
}

// An agent run from another agent's tool keeps the decisions about its own
// hook commands: they are in its run's events, not the outer turn's.
func TestANestedRunKeepsItsHookDecisions(t *testing.T) {
	fa := newFixture(t)
	optsA := fa.options(nil)
	optsA.Hooks = []hook.Hook{{Event: hook.EventRunStart, Command: "true"}}
	a := fa.agent(t, optsA)
	fa.p.Reply(modeltest.Text("inner ok"))

	var inner []string
	ask := tool.New("ask_a", "Asks agent A.", func(ctx context.Context, _ *tool.Call, _ struct{}) (tool.Result, error) {
		for ev, err := range a.Run(ctx, "hi") {
			if err != nil {
				return tool.Result{}, err
			}
			inner = append(inner, string(ev.Type))
		}
		return tool.Text("asked"), nil
	})
	fb := newFixture(t)
	optsB := fb.options(nil)
	optsB.Tools = []tool.Tool{ask}
	b := fb.agent(t, optsB)
	fb.p.Reply(modeltest.ToolCalls(call("b1", "ask_a", `{}`)), modeltest.Text("outer ok"))
	var leaked []string
	for ev, err := range b.Run(t.Context(), "go") {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type == engine.EventPermission && ev.Tool != nil && ev.Tool.Call != nil && ev.Tool.Call.Name == hook.ToolName {
			leaked = append(leaked, ev.SessionID)
		}
	}
	hasDecision := false
	for _, s := range inner {
		hasDecision = hasDecision || s == string(engine.EventPermission)
	}
	if !hasDecision || len(leaked) > 0 {
		t.Errorf("inner run events %v (want a permission decision); A's hook decisions in B's stream, session %v (B is %s, A is %s)", inner, leaked, b.SessionID(), a.SessionID())
	}
}

// A turn that fails still reports its run:end hook's decision, before the
// error.
func TestRunEndDecisionsComeBeforeAFailure(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.DisableRetry = true
	opts.Hooks = []hook.Hook{{Event: hook.EventRunEnd, Command: "true"}}
	a := f.agent(t, opts)
	f.p.Fail(errors.New("boom"))
	var seq []string
	for ev := range a.Run(t.Context(), "hi") {
		seq = append(seq, string(ev.Type))
	}
	for _, s := range seq {
		if s == string(engine.EventPermission) {
			return
		}
	}
	t.Errorf("events %v: run:end hook decision not streamed", seq)
}

// Shutdown from the agent's own work returns at once, but the agent is
// closed by then: what comes next fails with ErrClosed.
func TestShutdownClosesBeforeItReturns(t *testing.T) {
	f := newFixture(t)
	var a *liteagent.Agent
	res := make(chan error, 1)
	stop := tool.New("stop_agent", "Stops.", func(ctx context.Context, _ *tool.Call, _ struct{}) (tool.Result, error) {
		if err := a.Shutdown(ctx); err != nil {
			res <- err
			return tool.Text("x"), nil
		}
		_, err := a.Subscribe(func(liteagent.Notice) {})
		res <- err
		return tool.Text("stopping"), nil
	})
	opts := f.options(nil)
	opts.Tools = []tool.Tool{stop}
	a = f.agent(t, opts)
	f.p.Reply(modeltest.ToolCalls(call("c1", "stop_agent", `{}`)), modeltest.Text("done"))
	a.Send(t.Context(), "go")
	if err := <-res; !errors.Is(err, liteagent.ErrClosed) {
		t.Errorf("Subscribe right after Shutdown returned nil: %v, want ErrClosed", err)
	}
}

// Another agent's tool context is not this agent's work: Shutdown with it
// waits, until its context ends, for this agent's running tool.
func TestShutdownWaitsWithAnotherAgentsToolContext(t *testing.T) {
	a, release := stubbornChild(t, newFixture(t))
	defer func() { close(release); a.Close() }()
	got := make(chan error, 1)
	sd := tool.New("shut_a", "x", func(ctx context.Context, _ *tool.Call, _ struct{}) (tool.Result, error) {
		c, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		got <- a.Shutdown(c)
		return tool.Text("ok"), nil
	})
	fb := newFixture(t)
	optsB := fb.options(nil)
	optsB.Tools = []tool.Tool{sd}
	b := fb.agent(t, optsB)
	fb.p.Reply(modeltest.ToolCalls(call("b1", "shut_a", `{}`)), modeltest.Text("ok"))
	b.Send(t.Context(), "go")
	if err := <-got; !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Shutdown from another agent's tool while A's tool still runs: %v, want DeadlineExceeded", err)
	}
}

// A subagent's run:start hook may shut the agent down with its context:
// Close there would wait for the hook's own run.
func TestShutdownFromASubagentsHook(t *testing.T) {
	f := newFixture(t)
	f.p = groupProvider(func(context.Context) ([]model.Chunk, error) { return modeltest.Text("42").Chunks(), nil }, nil)
	var a *liteagent.Agent
	returned := make(chan error, 1)
	opts := f.options(nil)
	opts.Hooks = []hook.Hook{{Event: hook.EventRunStart, Timeout: 5 * time.Second, Func: func(ctx context.Context, p hook.Payload) error {
		if idOf(p).AgentID != "" {
			returned <- a.Shutdown(ctx)
		}
		return nil
	}}}
	a = f.agent(t, opts)
	sendAndAwaitShutdown(t, a, returned)
}

// sendAndAwaitShutdown sends "go" to a, whose subagent's work calls
// Shutdown and reports its result on returned, and checks that the call
// returns nil.
func sendAndAwaitShutdown(t *testing.T, a *liteagent.Agent, returned <-chan error) {
	t.Helper()
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-returned:
		if err != nil {
			t.Errorf("Shutdown from the subagent's work: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Shutdown from the subagent's work did not return")
	}
}

// stubbornChild returns an agent whose subagent is running a tool that
// ignores cancellation until release is closed: Close waits for it. The
// caller closes release and the agent.
func stubbornChild(t *testing.T, f *fixture) (a *liteagent.Agent, release chan struct{}) {
	t.Helper()
	release, started := make(chan struct{}), make(chan struct{})
	stubborn := tool.New("stubborn", "Ignores cancellation for a while.", func(ctx context.Context, _ *tool.Call, _ struct{}) (tool.Result, error) {
		close(started)
		<-release
		return tool.Text("done"), nil
	})
	f.p = childCalls("stubborn")
	opts := f.options(nil)
	opts.Tools = []tool.Tool{stubborn}
	a, err := liteagent.New(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	<-started
	return a, release
}
