package permission_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/tool"
)

// fakeTool counts its calls.
type fakeTool struct {
	name  string
	calls atomic.Int32
}

func (f *fakeTool) Name() string            { return f.name }
func (f *fakeTool) Description() string     { return "a fake " + f.name }
func (f *fakeTool) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (f *fakeTool) Call(ctx context.Context, _ *tool.Call, input json.RawMessage) (tool.Result, error) {
	f.calls.Add(1)
	return tool.Text("ran " + string(input)), nil
}

// testCall is the tool call the tests' gated tools receive.
var testCall = &tool.Call{ID: "call-7", Name: "bash", SessionID: "sess-1"}

// recorder keeps a gate's events and audit records.
type recorder struct {
	mu     sync.Mutex
	events []permission.Event
	audits []permission.Event
	calls  []*tool.Call // the tool call handed with each event and audit record
	fail   error
}

func (r *recorder) emit(_ context.Context, c *tool.Call, ev permission.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
	r.calls = append(r.calls, c)
}

func (r *recorder) audit(_ context.Context, c *tool.Call, ev permission.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, c)
	if r.fail != nil {
		return r.fail
	}
	r.audits = append(r.audits, ev)
	return nil
}

// kinds summarizes the events as "type:decision:by".
func (r *recorder) kinds() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, ev := range r.events {
		s := string(ev.Type) + ":" + ev.Decision.String() + ":" + ev.By
		if ev.Simulated {
			s += ":simulated"
		}
		out = append(out, s)
	}
	return out
}

func newGate(t *testing.T, rec *recorder, opts permission.GateOptions) *permission.Gate {
	t.Helper()
	opts.Emit = rec.emit
	opts.Audit = rec.audit
	return permission.NewGate(opts)
}

func policyOf(d permission.Decision, reason string) permission.Policy {
	return permission.PolicyFunc(func(context.Context, permission.Call) (permission.Verdict, error) {
		return permission.Verdict{Decision: d, RuleID: "r1", Reason: reason}, nil
	})
}

func approver(d permission.Decision, err error) (permission.ApprovalFunc, *atomic.Int32) {
	var n atomic.Int32
	return func(ctx context.Context, req permission.ApprovalRequest) (permission.Decision, error) {
		n.Add(1)
		return d, err
	}, &n
}

func TestGatePaths(t *testing.T) {
	t.Parallel()
	const input = `{"command":"ls","token":"abcdefgh"}`
	tests := []struct {
		name     string
		policy   permission.Policy
		approve  permission.Decision // 0: no handler
		err      error
		ran      bool
		text     string
		events   []string
		prompted int32
	}{
		{"Allow", policyOf(allow, "ok"), 0, nil, true, "", []string{"permission_decision:allow:policy"}, 0},
		{"DenyWithReason", policyOf(deny, "no shell"), 0, nil, false, "Error: blocked by policy rule r1: no shell", []string{"permission_decision:deny:policy"}, 0},
		{"DenyWithoutReason", mustNew(t, permission.Options{Deny: []string{"bash"}}), 0, nil, false, "Error: blocked by policy", []string{"permission_decision:deny:policy"}, 0},
		{"AskWithoutHandlerDeniesAutomatically", policyOf(ask, "r"), 0, nil, false, "Error: denied automatically: the call needs approval and no approver answered",
			[]string{"approval_request:ask:", "approval_resolved:deny:auto", "permission_decision:deny:auto"}, 0},
		{"AskApproved", policyOf(ask, "r"), allow, nil, true, "",
			[]string{"approval_request:ask:", "approval_resolved:allow:user", "permission_decision:allow:user"}, 1},
		{"AskRejected", policyOf(ask, "r"), deny, nil, false, "Error: denied by user",
			[]string{"approval_request:ask:", "approval_resolved:deny:user", "permission_decision:deny:user"}, 1},
		{"AskAnsweredAskIsDeny", policyOf(ask, "r"), ask, nil, false, "Error: denied by user",
			[]string{"approval_request:ask:", "approval_resolved:deny:user", "permission_decision:deny:user"}, 1},
		{"HandlerErrorDenies", policyOf(ask, "r"), allow, errors.New("tty gone"), false, "Error: denied automatically: the call needs approval and no approver answered",
			[]string{"approval_request:ask:", "approval_resolved:deny:auto", "permission_decision:deny:auto"}, 1},
		{"PolicyErrorDenies", permission.PolicyFunc(func(context.Context, permission.Call) (permission.Verdict, error) {
			return permission.Verdict{}, errors.New("broken file")
		}), 0, nil, false, "Error: blocked by policy: policy error: broken file", []string{"permission_decision:deny:policy"}, 0},
		{"NoDecisionDenies", policyOf(0, ""), 0, nil, false, "Error: blocked by policy: policy error: no decision", []string{"permission_decision:deny:policy"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			opts := permission.GateOptions{Policy: tt.policy}
			var prompted *atomic.Int32
			if tt.approve != 0 {
				opts.Approve, prompted = approver(tt.approve, tt.err)
			}
			g := newGate(t, rec, opts)
			ft := &fakeTool{name: "bash"}
			res, err := g.Wrap(ft).Call(t.Context(), testCall, json.RawMessage(input))
			if err != nil {
				t.Fatal(err)
			}
			if ran := ft.calls.Load() == 1; ran != tt.ran {
				t.Errorf("ran = %v, want %v", ran, tt.ran)
			}
			if !tt.ran && (res.Content != tt.text || !res.IsError) {
				t.Errorf("result %+v, want error %q", res, tt.text)
			}
			if tt.ran && (res.IsError || !strings.HasPrefix(res.Content, "ran ")) {
				t.Errorf("result %+v, want the tool's", res)
			}
			if got := rec.kinds(); !slices.Equal(got, tt.events) {
				t.Errorf("events %q, want %q", got, tt.events)
			}
			if prompted != nil && prompted.Load() != tt.prompted {
				t.Errorf("prompted %d times, want %d", prompted.Load(), tt.prompted)
			}
			if len(rec.audits) != 1 {
				t.Fatalf("%d audit records, want 1", len(rec.audits))
			}
			a := rec.audits[0]
			last := rec.events[len(rec.events)-1]
			if a.Decision != last.Decision || a.Type != permission.EventPermissionDecision || a.By != last.By || a.Call.ID != "call-7" || a.Call.Name != "bash" || a.Simulated {
				t.Errorf("audit %+v does not match the decision %+v", a, last)
			}
			if string(a.Call.Input) != `{"command":"ls","token":"[redacted]"}` {
				t.Errorf("audited input %s, want it redacted", a.Call.Input)
			}
			for _, ev := range rec.events {
				if string(ev.Call.Input) != string(a.Call.Input) || ev.Call.SessionID != "sess-1" || ev.Call.ID != "call-7" {
					t.Errorf("event %+v: input or ids wrong", ev)
				}
			}
		})
	}
}

// The host reports a wrapped tool's decisions through the call value the
// tool received; decisions made through Authorize and Check have none.
func TestGateHandsTheToolCallToEmitAndAudit(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	g := newGate(t, rec, permission.GateOptions{Policy: policyOf(permission.Allow, "")})
	if _, err := g.Wrap(&fakeTool{name: "bash"}).Call(t.Context(), testCall, json.RawMessage(`{"command":"ls"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Check(t.Context(), "hook", nil); err != nil {
		t.Fatal(err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.calls) != 4 || rec.calls[0] != testCall || rec.calls[1] != testCall || rec.calls[2] != nil || rec.calls[3] != nil {
		t.Errorf("calls handed to Emit and Audit: %v, want the tool call twice, then nil twice", rec.calls)
	}
}

func TestGateRedactsReasonsAndUsesTheHostRedactor(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	g := newGate(t, rec, permission.GateOptions{
		Policy: policyOf(deny, "matched password=hunter22"),
		Redact: func(json.RawMessage) json.RawMessage { return json.RawMessage(`{"hidden":true}`) },
	})
	if _, err := g.Wrap(&fakeTool{name: "x"}).Call(t.Context(), testCall, json.RawMessage(`{"a":"b"}`)); err != nil {
		t.Fatal(err)
	}
	if got := string(rec.audits[0].Call.Input); got != `{"hidden":true}` {
		t.Errorf("audited input %s, want the host redactor's", got)
	}
	// The host redactor hides the reason entirely here (it does not
	// return a JSON string), so the default one applies.
	if got := rec.audits[0].Reason; got != "matched password=[redacted]" {
		t.Errorf("audited reason %q", got)
	}
}

func TestGateDryRunRunsEverythingAndMarksDecisionsSimulated(t *testing.T) {
	t.Parallel()
	for _, d := range []permission.Decision{allow, ask, deny} {
		rec := &recorder{}
		approve, prompted := approver(allow, nil)
		g := newGate(t, rec, permission.GateOptions{Policy: policyOf(d, "r"), DryRun: true, Approve: approve})
		ft := &fakeTool{name: "bash"}
		res, err := g.Wrap(ft).Call(t.Context(), testCall, json.RawMessage(`{}`))
		if err != nil || res.IsError || ft.calls.Load() != 1 {
			t.Errorf("%s: result %+v, %v, calls %d; want the tool to run", d, res, err, ft.calls.Load())
		}
		want := []string{"permission_decision:" + d.String() + ":policy:simulated"}
		if got := rec.kinds(); !slices.Equal(got, want) {
			t.Errorf("%s: events %q, want %q", d, got, want)
		}
		if len(rec.audits) != 1 || !rec.audits[0].Simulated || rec.audits[0].Decision != d {
			t.Errorf("%s: audits %+v", d, rec.audits)
		}
		if prompted.Load() != 0 {
			t.Errorf("%s: prompted in a dry run", d)
		}
	}
}

func TestGateAuditFailureStopsTheCall(t *testing.T) {
	t.Parallel()
	rec := &recorder{fail: errors.New("disk full")}
	g := newGate(t, rec, permission.GateOptions{Policy: policyOf(allow, "")})
	ft := &fakeTool{name: "bash"}
	if _, err := g.Wrap(ft).Call(t.Context(), testCall, json.RawMessage(`{}`)); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("error %v, want the audit failure", err)
	}
	if ft.calls.Load() != 0 {
		t.Error("the tool ran although the decision was not audited")
	}
}

func TestGateWithoutAuditOrEmitStillGates(t *testing.T) {
	t.Parallel()
	g := permission.NewGate(permission.GateOptions{})
	ft := &fakeTool{name: "bash"}
	res, err := g.Wrap(ft).Call(t.Context(), testCall, json.RawMessage(`{"command":"ls"}`))
	if err != nil || res.Content != "Error: denied automatically: the call needs approval and no approver answered" || ft.calls.Load() != 0 {
		t.Errorf("default gate on bash: %+v, %v, calls %d", res, err, ft.calls.Load())
	}
	rf := &fakeTool{name: "read_file"}
	if res, _ := g.Wrap(rf).Call(t.Context(), testCall, json.RawMessage(`{"path":"a"}`)); res.IsError || rf.calls.Load() != 1 {
		t.Errorf("default gate on read_file: %+v", res)
	}
}

func TestWrappedToolKeepsItsIdentity(t *testing.T) {
	t.Parallel()
	ft := &fakeTool{name: "write_file"}
	w := permission.NewGate(permission.GateOptions{}).Wrap(ft)
	if w.Name() != "write_file" || w.Description() != "a fake write_file" || string(w.Schema()) != `{"type":"object"}` {
		t.Errorf("wrapped tool %s %q %s", w.Name(), w.Description(), w.Schema())
	}
	if u, ok := w.(interface{ Unwrap() tool.Tool }); !ok || u.Unwrap() != ft {
		t.Error("Unwrap does not return the tool")
	}
	ws := permission.NewGate(permission.GateOptions{}).WrapAll([]tool.Tool{ft, &fakeTool{name: "b"}})
	if len(ws) != 2 || ws[1].Name() != "b" {
		t.Errorf("WrapAll = %v", ws)
	}
}

func TestGateCheckGatesHooksAndMCPConnections(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	approve, prompted := approver(allow, nil)
	g := newGate(t, rec, permission.GateOptions{Approve: approve})
	v, err := g.Check(t.Context(), "hook", map[string]string{"command": "make lint", "event": "tool:start"})
	if err != nil || v.Decision != allow || prompted.Load() != 1 {
		t.Errorf("hook approved: %+v, %v, prompted %d", v, err, prompted.Load())
	}
	g = newGate(t, rec, permission.GateOptions{})
	v, err = g.Check(t.Context(), "mcp_connect", json.RawMessage(`{"server":"github"}`))
	if err != nil || v.Decision != deny {
		t.Errorf("mcp_connect without a handler: %+v, %v", v, err)
	}
	v, err = g.Check(t.Context(), "custom", nil)
	if err != nil || v.Decision != allow {
		t.Errorf("custom: %+v, %v", v, err)
	}
	if _, err := g.Check(t.Context(), "x", make(chan int)); err == nil {
		t.Error("unmarshalable input accepted")
	}
	last := rec.audits[len(rec.audits)-2]
	if last.Call.Name != "mcp_connect" || last.Call.ID != "" || last.Decision != deny || last.By != "auto" {
		t.Errorf("audit of mcp_connect %+v", last)
	}
}

func TestChildGateCannotWidenItsParent(t *testing.T) {
	t.Parallel()
	parent := permission.NewGate(permission.GateOptions{Policy: mustNew(t, permission.Options{Deny: []string{"bash"}})})
	child := parent.Child(mustNew(t, permission.Options{Allow: []string{"*"}}))
	ft := &fakeTool{name: "bash"}
	if res, _ := child.Wrap(ft).Call(t.Context(), testCall, json.RawMessage(`{"command":"ls"}`)); !res.IsError || ft.calls.Load() != 0 {
		t.Errorf("child ran what the parent denies: %+v", res)
	}
	narrower := parent.Child(mustNew(t, permission.Options{Deny: []string{"read_file"}}))
	if v, _ := narrower.Check(t.Context(), "read_file", nil); v.Decision != deny {
		t.Errorf("child policy did not restrict: %+v", v)
	}
	if v, _ := parent.Child(nil).Check(t.Context(), "bash", nil); v.Decision != deny {
		t.Errorf("Child(nil): %+v", v)
	}
}

func TestApprovalsAreSerializedAcrossConcurrentCallsAndGates(t *testing.T) {
	t.Parallel()
	const n = 8
	q := permission.NewApprovalQueue()
	var active, maxActive, prompts atomic.Int32
	started := make(chan struct{})
	release := make(chan struct{})
	approve := func(ctx context.Context, req permission.ApprovalRequest) (permission.Decision, error) {
		a := active.Add(1)
		for {
			m := maxActive.Load()
			if a <= m || maxActive.CompareAndSwap(m, a) {
				break
			}
		}
		prompts.Add(1)
		started <- struct{}{}
		<-release
		active.Add(-1)
		if req.Call.Name == "reject" {
			return deny, nil
		}
		return allow, nil
	}
	// Two gates (a root and a child) share one queue.
	root := permission.NewGate(permission.GateOptions{Policy: policyOf(ask, ""), Approve: approve, Queue: q})
	child := root.Child(nil)
	var wg sync.WaitGroup
	results := make([]tool.Result, n)
	for i := range n {
		g := root
		name := "accept"
		if i%2 == 1 {
			g, name = child, "reject"
		}
		wg.Go(func() {
			results[i], _ = g.Wrap(&fakeTool{name: name}).Call(context.Background(), testCall, json.RawMessage(`{}`))
		})
	}
	for range n {
		<-started
		release <- struct{}{}
	}
	wg.Wait()
	if maxActive.Load() != 1 || prompts.Load() != n {
		t.Errorf("max concurrent prompts %d, prompts %d; want 1 and %d", maxActive.Load(), prompts.Load(), n)
	}
	for i, r := range results {
		if want := i%2 == 1; r.IsError != want {
			t.Errorf("call %d: %+v", i, r)
		}
	}
}

func TestApprovalCancelledWhileQueuedDeniesWithoutPrompting(t *testing.T) {
	t.Parallel()
	q := permission.NewApprovalQueue()
	hold := make(chan struct{})
	holding := make(chan struct{})
	var prompts atomic.Int32
	approve := func(ctx context.Context, req permission.ApprovalRequest) (permission.Decision, error) {
		prompts.Add(1)
		if req.Call.ID == "first" {
			close(holding)
			<-hold
		}
		return allow, nil
	}
	done := make(chan permission.Decision)
	go func() {
		d, _ := q.Ask(context.Background(), permission.ApprovalRequest{Call: permission.Call{ID: "first"}}, approve)
		done <- d
	}()
	<-holding
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d, err := q.Ask(ctx, permission.ApprovalRequest{Call: permission.Call{ID: "second"}}, approve)
	if d != deny || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled while queued: %s, %v; want deny, context.Canceled", d, err)
	}
	close(hold)
	if d := <-done; d != allow {
		t.Errorf("first = %s", d)
	}
	if prompts.Load() != 1 {
		t.Errorf("%d prompts, want 1 (the cancelled call must not prompt)", prompts.Load())
	}
	// The queue still works afterwards.
	if d, _ := q.Ask(context.Background(), permission.ApprovalRequest{}, approve); d != allow {
		t.Errorf("after a cancellation: %s", d)
	}
}

func TestLateApprovalAfterCancelIsADeny(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	approve := func(ctx context.Context, req permission.ApprovalRequest) (permission.Decision, error) {
		cancel() // the turn is closed while the prompt is open
		<-ctx.Done()
		return allow, nil // the user clicks "allow" too late
	}
	rec := &recorder{}
	g := newGate(t, rec, permission.GateOptions{Policy: policyOf(ask, ""), Approve: approve})
	ft := &fakeTool{name: "write_file"}
	res, err := g.Wrap(ft).Call(ctx, testCall, json.RawMessage(`{"path":"a","content":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	if ft.calls.Load() != 0 || !strings.HasPrefix(res.Content, "Error: denied") {
		t.Errorf("a late approval ran the tool: %+v", res)
	}
	want := []string{"approval_request:ask:", "approval_resolved:deny:auto", "permission_decision:deny:auto"}
	if got := rec.kinds(); !slices.Equal(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
}

func TestApprovalHandlerPanicDeniesAndTheQueueAdvances(t *testing.T) {
	t.Parallel()
	q := &permission.ApprovalQueue{} // the zero value works
	d, err := q.Ask(t.Context(), permission.ApprovalRequest{}, func(context.Context, permission.ApprovalRequest) (permission.Decision, error) {
		panic("boom")
	})
	if d != deny || err == nil {
		t.Errorf("panicking handler: %s, %v", d, err)
	}
	d, err = q.Ask(t.Context(), permission.ApprovalRequest{}, func(context.Context, permission.ApprovalRequest) (permission.Decision, error) {
		return allow, nil
	})
	if d != allow || err != nil {
		t.Errorf("after a panic: %s, %v", d, err)
	}
	if d, err := q.Ask(t.Context(), permission.ApprovalRequest{}, nil); d != deny || err == nil {
		t.Errorf("nil handler: %s, %v", d, err)
	}
}

func TestApprovalRequestShowsTheUnredactedCallAndTheVerdict(t *testing.T) {
	t.Parallel()
	var got permission.ApprovalRequest
	g := permission.NewGate(permission.GateOptions{
		Policy: mustNew(t, permission.Options{Rules: []permission.Rule{permission.BashCommand("git push:*", ask)}}),
		Approve: func(ctx context.Context, req permission.ApprovalRequest) (permission.Decision, error) {
			got = req
			return deny, nil
		},
	})
	in := `{"command":"git push https://token:abcdefgh@host"}`
	if _, err := g.Wrap(&fakeTool{name: "bash"}).Call(t.Context(), testCall, json.RawMessage(in)); err != nil {
		t.Fatal(err)
	}
	if string(got.Call.Input) != in || got.Verdict.Decision != ask || got.Verdict.RuleID != "rule-0" || !strings.Contains(got.Verdict.Reason, "bash git push:*") {
		t.Errorf("request %+v", got)
	}
}
