package liteagent_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/permission"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSkillsFollowTheNamespace(t *testing.T) {
	f := newFixture(t)
	writeFile(t, filepath.Join(f.workdir, ".acme", "skills", "deploy", "SKILL.md"), "---\nname: deploy\ndescription: How to deploy acme\n---\nRun make deploy.")
	writeFile(t, filepath.Join(f.workdir, ".lite-agent", "skills", "stray", "SKILL.md"), "---\nname: stray\ndescription: must not load\n---\nNo.")
	a := f.agent(t, f.options(nil))
	f.p.Reply(modeltest.ToolCalls(call("s", "load_skill", `{"name":"deploy"}`)))
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(t.Context(), "deploy"); err != nil {
		t.Fatal(err)
	}
	reqs := f.p.Requests()
	if !strings.Contains(reqs[0].System, "deploy: How to deploy acme") || strings.Contains(reqs[0].System, "stray") {
		t.Errorf("system prompt skills:\n%s", reqs[0].System)
	}
	msgs := reqs[1].Messages
	if got := msgs[len(msgs)-1].Blocks[0].Content; !strings.Contains(got, "Run make deploy.") {
		t.Errorf("load_skill result %q", got)
	}
}

func TestHooksObserveTheRunInOrder(t *testing.T) {
	f := newFixture(t)
	var mu sync.Mutex
	var seen []string
	record := func(ctx context.Context, p hook.Payload) error {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, string(p.Event()))
		return nil
	}
	opts := f.options(nil)
	for _, ev := range []hook.Event{hook.EventRunStart, hook.EventToolStart, hook.EventToolEnd, hook.EventRunEnd} {
		opts.Hooks = append(opts.Hooks, hook.Hook{Event: ev, Func: record})
	}
	a := f.agent(t, opts)
	f.p.Reply(modeltest.ToolCalls(call("c", "read_file", `{"path":"missing.txt"}`)))
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	want := []string{"run:start", "tool:start", "tool:end", "run:end"}
	if !slices.Equal(seen, want) {
		t.Errorf("hooks saw %v, want %v", seen, want)
	}
}

func TestProjectHookCommandsNeedTheHostsGrant(t *testing.T) {
	f := newFixture(t)
	marker := filepath.Join(t.TempDir(), "pwned")
	writeFile(t, filepath.Join(f.workdir, ".acme", "hooks.json"), `{"version":1,"hooks":{"run:start":[{"command":"touch `+marker+`"}]}}`)
	opts := f.options(nil)
	opts.OnApproval = nil // the host grants nothing
	a := f.agent(t, opts)
	f.p.Reply(modeltest.Text("ok"))
	var diags []string
	for ev, err := range a.Run(t.Context(), "hi") {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type == engine.EventDiagnostic {
			diags = append(diags, ev.Diagnostic.Code)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a project hook ran without the host's grant")
	}
	if !slices.Contains(diags, "hook_failed") {
		t.Errorf("no hook_failed diagnostic: %v", diags)
	}

	// With the host's approval the same hook runs.
	granted := f.agent(t, f.options(nil))
	f.p.Reply(modeltest.Text("ok"))
	if _, err := granted.Send(t.Context(), "hi"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("an approved hook did not run: %v", err)
	}
}

func TestMalformedHooksFileFailsConstructionAndCreatesNothing(t *testing.T) {
	f := newFixture(t)
	writeFile(t, filepath.Join(f.workdir, ".acme", "hooks.json"), `{"version":1,"hooks":{"run:start":[{"command":"x","secret":"hunter2"}]}}`)
	a, err := liteagent.New(t.Context(), f.options(nil))
	if err == nil {
		a.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "hooks.json") || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("err = %v", err)
	}
	if _, err := os.Stat(f.home); err == nil {
		t.Error("the home was created")
	}
}

// TestHookCommandsRunUnderAuditAndDryRun runs project hooks for run:start,
// tool:start and run:end with the host's approval, with permission audit
// and then with a permission dry run: under audit every hook runs and its
// decision is in the session log (those around the turn too); under a dry
// run the hooks are still put to the approval handler, and run.
func TestHookCommandsRunUnderAuditAndDryRun(t *testing.T) {
	for _, mode := range []string{"audit", "dry-run"} {
		t.Run(mode, func(t *testing.T) {
			f := newFixture(t)
			dir := t.TempDir()
			writeFile(t, filepath.Join(f.workdir, ".acme", "hooks.json"), `{"version":1,"hooks":{`+
				`"run:start":[{"command":"touch `+filepath.Join(dir, "start")+`"}],`+
				`"tool:start":[{"command":"touch `+filepath.Join(dir, "tool")+`"}],`+
				`"run:end":[{"command":"touch `+filepath.Join(dir, "end")+`"}]}}`)
			opts := f.options(nil)
			var asked int
			var mu sync.Mutex
			opts.OnApproval = func(ctx context.Context, req permission.ApprovalRequest) (permission.Decision, error) {
				mu.Lock()
				defer mu.Unlock()
				if req.Call.Name == hook.ToolName {
					asked++
				}
				return permission.Allow, nil
			}
			opts.PermissionAudit = mode == "audit"
			opts.PermissionDryRun = mode == "dry-run"
			a := f.agent(t, opts)
			f.p.Reply(modeltest.ToolCalls(call("c", "read_file", `{"path":"missing.txt"}`)))
			f.p.Reply(modeltest.Text("ok"))
			var diags []string
			for ev, err := range a.Run(t.Context(), "go") {
				if err != nil {
					t.Fatal(err)
				}
				if ev.Type == engine.EventDiagnostic {
					diags = append(diags, ev.Diagnostic.Code+": "+ev.Text)
				}
			}
			for _, name := range []string{"start", "tool", "end"} {
				if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
					t.Errorf("the %s hook did not run: %v; diagnostics %v", name, err, diags)
				}
			}
			if asked != 3 {
				t.Errorf("the approval handler was asked about %d hooks, want 3", asked)
			}
			if mode != "audit" {
				return
			}
			// The run:end decision is appended after the turn: the next
			// turn appends after it.
			f.p.Reply(modeltest.Text("again"))
			if _, err := a.Send(t.Context(), "again"); err != nil {
				t.Fatalf("the next turn: %v", err)
			}
			a.Close() // waits for the decisions made around the turns
			evs, err := os.ReadFile(filepath.Join(a.Paths().SessionsDir, a.SessionID()+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			// run:start, tool:start and run:end, then run:start and run:end.
			if n := strings.Count(string(evs), `"name":"`+hook.ToolName+`"`); n != 5 {
				t.Errorf("the log holds %d decisions about hooks, want 5:\n%s", n, evs)
			}
		})
	}
}

// TestAuditedHookDecisionsDoNotConflictWithTurns runs turns on one session
// from several goroutines, with a command hook on run:start and run:end and
// permission audit: the decisions made around each turn are appended
// between the session's turns, so no turn meets a conflicting head.
func TestAuditedHookDecisionsDoNotConflictWithTurns(t *testing.T) {
	f := newFixture(t)
	writeFile(t, filepath.Join(f.workdir, ".acme", "hooks.json"), `{"version":1,"hooks":{"run:start":[{"command":"true"}],"run:end":[{"command":"true"}]}}`)
	opts := f.options(nil)
	opts.PermissionAudit = true
	a := f.agent(t, opts)
	const turns = 6
	for range turns {
		f.p.Reply(modeltest.Text("ok"))
	}
	var wg sync.WaitGroup
	errs := make(chan error, turns)
	for range turns {
		wg.Go(func() {
			_, err := a.Send(t.Context(), "hi")
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	a.Close() // waits for the decisions made around the turns
	log, err := os.ReadFile(filepath.Join(a.Paths().SessionsDir, a.SessionID()+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(log), `"name":"`+hook.ToolName+`"`); n != 2*turns {
		t.Errorf("the log holds %d hook decisions, want %d", n, 2*turns)
	}
}

// TestRunEndHooksRunBeforeTheDoneEvent checks the order the reference
// gives: the done event comes after the run:end handlers.
func TestRunEndHooksRunBeforeTheDoneEvent(t *testing.T) {
	f := newFixture(t)
	var mu sync.Mutex
	var order []string
	opts := f.options(nil)
	opts.Hooks = []hook.Hook{{Event: hook.EventRunEnd, Func: func(ctx context.Context, p hook.Payload) error {
		mu.Lock()
		defer mu.Unlock()
		order = append(order, "run:end")
		return nil
	}}}
	a := f.agent(t, opts)
	f.p.Reply(modeltest.Text("ok"))
	for ev, err := range a.Run(t.Context(), "hi") {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type == engine.EventDone {
			mu.Lock()
			order = append(order, "done")
			mu.Unlock()
		}
	}
	if !slices.Equal(order, []string{"run:end", "done"}) {
		t.Errorf("order %v, want run:end before done", order)
	}
}

// Decisions about hook commands around a turn (run:start, run:end) are in
// the run's event stream: run:start's before the turn's events, run:end's
// before done.
func TestHookCommandDecisionsAreRunEvents(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.Hooks = []hook.Hook{{Event: hook.EventRunStart, Command: "true"}, {Event: hook.EventRunEnd, Command: "true"}}
	a := f.agent(t, opts)
	f.p.Reply(modeltest.Text("ok"))
	var seq []string
	for ev, err := range a.Run(t.Context(), "hi") {
		if err != nil {
			t.Fatal(err)
		}
		switch ev.Type {
		case engine.EventPermission:
			if ev.Tool.Call.Name != hook.ToolName || ev.SessionID != a.SessionID() {
				t.Errorf("decision %+v", ev)
			}
			seq = append(seq, string(ev.Type)+":"+string(ev.Permission.Decision))
		case engine.EventTurnStart, engine.EventDone:
			seq = append(seq, string(ev.Type))
		}
	}
	want := []string{"permission_decision:allow", "turn_start", "permission_decision:allow", "done"}
	if !slices.Equal(seq, want) {
		t.Errorf("events %v, want %v", seq, want)
	}
}
