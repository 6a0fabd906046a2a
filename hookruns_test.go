package liteagent_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/tool"
)

// Two prompts on one session: the second starts its run while the first
// holds the session and runs its tool (its run:start fires only once it
// holds the session). Each tool:start carries the runId of the run whose
// turn made the call, not of the run that started last.
func TestToolHooksOfQueuedPromptsKeepTheirRun(t *testing.T) {
	f := newFixture(t)
	holding := make(chan struct{})
	var first sync.Once
	var a *liteagent.Agent
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		// The first model call holds the session until the other run
		// has started and waits for it.
		first.Do(func() {
			close(holding)
			deadline := time.Now().Add(30 * time.Second)
			for liteagent.RunsLasting(a) < 2 {
				if time.Now().After(deadline) {
					t.Errorf("the second prompt's run never started while the first held the session (%d runs)", liteagent.RunsLasting(a))
					break
				}
				time.Sleep(time.Millisecond)
			}
		})
		last := req.Messages[len(req.Messages)-1]
		if last.Blocks == nil { // a prompt: call the probe with the prompt's name
			return modeltest.ToolCalls(call("call-"+last.Text, "probe", `{}`)).Chunks(), nil
		}
		return modeltest.Text("ok").Chunks(), nil
	})
	probe := tool.New("probe", "Does nothing.", func(context.Context, *tool.Call, struct{}) (tool.Result, error) {
		return tool.Text("probed"), nil
	})
	var mu sync.Mutex
	runOfPrompt := map[string]string{} // prompt -> runId, from run:start
	runOfCall := map[string]string{}   // tool call id -> runId, from tool:start
	rec := func(_ context.Context, p hook.Payload) error {
		mu.Lock()
		defer mu.Unlock()
		switch v := p.(type) {
		case hook.RunStart:
			var prompt string
			if err := json.Unmarshal(v.Input, &prompt); err != nil {
				return err
			}
			runOfPrompt[prompt] = v.RunID
		case hook.ToolStart:
			runOfCall[v.Call.ID] = v.RunID
		}
		return nil
	}
	opts := f.options(nil)
	opts.DisableTasks = true
	opts.Tools = []tool.Tool{probe}
	opts.Hooks = []hook.Hook{{Event: hook.EventRunStart, Func: rec}, {Event: hook.EventToolStart, Func: rec}}
	a = f.agent(t, opts)
	var wg sync.WaitGroup
	for _, prompt := range []string{"p1", "p2"} {
		wg.Go(func() {
			if _, err := a.Send(t.Context(), prompt); err != nil {
				t.Errorf("%s: %v", prompt, err)
			}
		})
		<-holding // p2 starts while p1 holds the session
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	for _, prompt := range []string{"p1", "p2"} {
		run, got := runOfPrompt[prompt], runOfCall["call-"+prompt]
		if run == "" || got != run {
			t.Errorf("tool:start of %s's call has runId %q, want its run's %q", prompt, got, run)
		}
	}
}

// The synthetic call of a hook command keeps its "hook-<uuid>" id in the
// audit record, for a run:start hook (decided around the turn) and a
// tool:start hook (decided within it).
func TestAuditedHookCommandsKeepTheirCallID(t *testing.T) {
	f := newFixture(t)
	f.p.Reply(modeltest.ToolCalls(call("c1", "list_dir", `{"path":"."}`)), modeltest.Text("done"))
	opts := f.options(nil)
	opts.PermissionAudit = true
	opts.Hooks = []hook.Hook{{Event: hook.EventRunStart, Command: "true"}, {Event: hook.EventToolStart, Command: "true"}}
	a := f.agent(t, opts)
	res, err := a.Send(t.Context(), "go")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil { // waits for the decision appended around the turn
		t.Fatal(err)
	}
	cp, err := session.NewFileCheckpointer(a.Paths().SessionsDir, session.FileOptions{Encoding: storage.Encoding{Namespace: "acme", ProjectID: a.Paths().Hash}})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := cp.Read(t.Context(), res.SessionID, 0)
	if err != nil {
		t.Fatal(err)
	}
	hooks := 0
	for _, ev := range evs {
		d, ok := ev.Event.(session.PermissionDecisionEvent)
		if !ok || d.Call.Name != hook.ToolName {
			continue
		}
		hooks++
		if !strings.HasPrefix(d.Call.ID, "hook-") || len(d.Call.ID) != len("hook-")+36 {
			t.Errorf("hook command decision has call id %q, want hook-<uuid>", d.Call.ID)
		}
	}
	if hooks != 2 {
		t.Errorf("%d hook command decisions audited, want 2 (run:start, tool:start)", hooks)
	}
}
