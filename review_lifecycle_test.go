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
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/tool"
)

func isDelivered(req model.Request) bool {
	for _, m := range req.Messages {
		if strings.Contains(m.PlainText(), "<background-task-completed") {
			return true
		}
	}
	return false
}

func groupProvider(child func(ctx context.Context) ([]model.Chunk, error)) *modeltest.Provider {
	return modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		switch {
		case strings.HasPrefix(req.System, `You are the "general-purpose" subagent`):
			return child(ctx)
		case isDelivered(req):
			return modeltest.Text("LATE AUTONOMOUS TURN").Chunks(), nil
		case len(req.Messages) == 1 && req.Messages[0].PlainText() == "go":
			return modeltest.ToolCalls(call("a1", "Agent", `{"tasks":[{"display_name":"F","subagent_type":"general-purpose","prompt":"p"}]}`)).Chunks(), nil
		}
		return modeltest.Text("dispatched").Chunks(), nil
	})
}

// C: DeleteSession from a tool of a turn of the same session.
func TestDeleteSessionFromAToolOfTheSession(t *testing.T) {
	for _, mode := range []string{"tool-ctx", "background-ctx"} {
		t.Run(mode, func(t *testing.T) {
			f := newFixture(t)
			var a *liteagent.Agent
			var derr atomic.Value
			tl, err := tool.NewRaw("wipe", "wipe", json.RawMessage(`{"type":"object"}`), func(ctx context.Context, _ json.RawMessage) (tool.Result, error) {
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
			case <-time.After(3 * time.Second):
				t.Errorf("Send hung 3s: DeleteSession from a tool waits (Exclusive) for the turn running that tool; DeleteSession=%v", derr.Load())
			}
		})
	}
}

type errBox struct{ err error }

// D: an audited run:end decision is appended after DeleteSession removed the log.
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

// E: a cancelled group's late delivery runs on the session after a new prompt clears the tombstone.
var unwind = 300 * time.Millisecond

func TestACancelledGroupIsNotDeliveredToANewConversation(t *testing.T) {
	f := newFixture(t)
	childStarted := make(chan struct{}, 1)
	f.p = groupProvider(func(ctx context.Context) ([]model.Chunk, error) {
		childStarted <- struct{}{}
		<-ctx.Done()
		time.Sleep(unwind) // a child that takes a moment to unwind
		return nil, ctx.Err()
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
	// The host keeps using the agent: the current session id is unchanged.
	if _, err := a.Send(t.Context(), "a new conversation"); err != nil {
		t.Fatal(err)
	}
	if err := a.AwaitIdle(t.Context()); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(a.Paths().SessionsDir, id+".jsonl"))
	if strings.Contains(string(b), "LATE AUTONOMOUS TURN") || strings.Contains(string(b), "background-task-completed") {
		t.Errorf("the group cancelled by DeleteSession was delivered into the new conversation on the same id:\n%s", b)
	}
}

// F: a call scheduled by a hook after it returns, with the hook's context, is refused.
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

// G: run:end after a consumer breaks at a run:start diagnostic.
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

// D2: DeleteSession during a turn: the turn's run:end audit is appended after the delete.
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

// H: where do the decisions about a subagent's and a delivery turn's run hooks go?
func TestHookDecisionsOfSubagentAndAutonomousRunsLandInTheirLogs(t *testing.T) {
	f := newFixture(t)
	writeFile(t, filepath.Join(f.workdir, ".acme", "hooks.json"), `{"version":1,"hooks":{"run:start":[{"command":"true"}],"run:end":[{"command":"true"}]}}`)
	f.p = groupProvider(func(ctx context.Context) ([]model.Chunk, error) { return modeltest.Text("child").Chunks(), nil })
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

// I: a delivery turn's run:start decision is appended through the dispatching
// turn's (finished) run while another turn of the session holds its lock.
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
		if os.Getenv("REVIEW_DEBUG") != "" {
			println("REQ", len(req.Messages), last)
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
	case <-time.After(3 * time.Second):
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
	b, _ := os.ReadFile(filepath.Join(a.Paths().SessionsDir, id+".jsonl"))
	var kinds []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var v struct {
			Event struct {
				Type    string `json:"type"`
				Message struct {
					Content any `json:"content"`
				} `json:"message"`
			} `json:"event"`
		}
		json.Unmarshal([]byte(line), &v)
		k := v.Event.Type
		if s, ok := v.Event.Message.Content.(string); ok {
			k += "(" + s[:min(len(s), 20)] + ")"
		}
		kinds = append(kinds, k)
	}
	t.Logf("log order: %v", kinds)
}

// J: run:end Func hook runs a prompt on the same session with a fresh context.
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
	case <-time.After(5 * time.Second):
		t.Error("a run:end hook's prompt on its session (fresh context) did not finish in 5s")
	}
}
