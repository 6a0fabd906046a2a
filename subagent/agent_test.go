package subagent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lite-agent/lite-agent-go/subagent"
	"github.com/lite-agent/lite-agent-go/task"
	"github.com/lite-agent/lite-agent-go/tool"
)

const parentSession = "parent-1"

// parentCall is the Agent call of the parent session the tests make.
var parentCall = &tool.Call{ID: "call-1", Name: subagent.ToolName, SessionID: parentSession}

// harness is an Agent tool with a fake Run that acts on the prompt:
//
//	ok:<text>   answers text
//	max         stops at max turns
//	empty       answers ""
//	err:<msg>   returns an error
//	panic       panics
//	block       waits for ctx, then reports aborted
//	gate:<name> waits for h.gate(name) to be closed, then answers name
type harness struct {
	t          *testing.T
	pool       *subagent.Pool
	tool       tool.Tool
	deliveries chan subagent.GroupCompletion
	onRun      func(ctx context.Context, req subagent.ChildRequest) // set before the first call
	onDone     func()                                               // set before the first call

	mu     sync.Mutex
	events []subagent.Event
	reqs   []subagent.ChildRequest
	gates  map[string]chan struct{}
}

func newHarness(t *testing.T, poolSize int, opts subagent.ToolOptions) *harness {
	t.Helper()
	pool, err := subagent.NewPool(poolSize)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, pool: pool, deliveries: make(chan subagent.GroupCompletion, 16), gates: map[string]chan struct{}{}}
	t.Cleanup(func() { pool.Close() })
	if opts.Definitions == nil {
		opts.Definitions = []subagent.Definition{
			subagent.GeneralPurpose(),
			{Name: "reviewer", Description: "reviews", Prompt: "Review carefully.", Tools: []string{"read_file", "Agent", "bash"}, Model: "medium"},
		}
	}
	opts.Pool = pool
	opts.Run = h.run
	opts.Deliver = func(ctx context.Context, sessionID string, c subagent.GroupCompletion) {
		if sessionID != parentSession {
			t.Errorf("delivered to %q", sessionID)
		}
		h.deliveries <- c
	}
	opts.Emit = func(ctx context.Context, c *tool.Call, ev subagent.Event) {
		if c == nil || c.SessionID != parentSession {
			t.Errorf("event %+v emitted through call %+v, want the Agent call", ev, c)
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		h.events = append(h.events, ev)
	}
	if opts.Workdir == "" {
		opts.Workdir = "/work"
	}
	h.tool = subagent.Tool(opts)
	return h
}

func (h *harness) gate(name string) chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.gates[name] == nil {
		h.gates[name] = make(chan struct{})
	}
	return h.gates[name]
}

func (h *harness) run(ctx context.Context, req subagent.ChildRequest) (subagent.ChildResult, error) {
	h.mu.Lock()
	h.reqs = append(h.reqs, req)
	h.mu.Unlock()
	if h.onRun != nil {
		h.onRun(ctx, req)
	}
	if h.onDone != nil {
		defer h.onDone()
	}
	kind, arg, _ := strings.Cut(req.Prompt, ":")
	switch kind {
	case "ok":
		return subagent.ChildResult{Text: arg, StopReason: subagent.StopReasonStop}, nil
	case "max":
		return subagent.ChildResult{Text: "partial", StopReason: subagent.StopReasonMaxTurns}, nil
	case "empty":
		return subagent.ChildResult{Text: " \n", StopReason: subagent.StopReasonStop}, nil
	case "err":
		return subagent.ChildResult{}, errors.New(arg)
	case "panic":
		panic("boom")
	case "block":
		<-ctx.Done()
		return subagent.ChildResult{StopReason: subagent.StopReasonAborted}, nil
	case "gate":
		select {
		case <-h.gate(arg):
		case <-ctx.Done():
			return subagent.ChildResult{}, ctx.Err()
		}
		return subagent.ChildResult{Text: arg, StopReason: subagent.StopReasonStop}, nil
	}
	return subagent.ChildResult{}, fmt.Errorf("unknown fake prompt %q", req.Prompt)
}

// call calls the tool with the given tasks.
func (h *harness) call(tasks ...map[string]any) tool.Result {
	h.t.Helper()
	input, err := json.Marshal(map[string]any{"tasks": tasks})
	if err != nil {
		h.t.Fatal(err)
	}
	res, err := h.tool.Call(h.t.Context(), parentCall, input)
	if err != nil {
		h.t.Fatal(err)
	}
	return res
}

// next waits for the next delivery.
func (h *harness) next() subagent.GroupCompletion {
	h.t.Helper()
	select {
	case c := <-h.deliveries:
		return c
	case <-h.t.Context().Done():
		h.t.Fatal("no delivery")
		return subagent.GroupCompletion{}
	}
}

func (h *harness) requests() []subagent.ChildRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.reqs)
}

func (h *harness) eventsOf(typ subagent.EventType) []subagent.Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []subagent.Event
	for _, ev := range h.events {
		if ev.Type == typ {
			out = append(out, ev)
		}
	}
	return out
}

func task1(display, typ, prompt string) map[string]any {
	return map[string]any{"display_name": display, "subagent_type": typ, "prompt": prompt}
}

var (
	acceptedRE = regexp.MustCompile(`^\[background:(bg_g[0-9a-z]+_[0-9a-f]{6})\] accepted group with (\d+) (subagent|subagents); results will arrive together\.$`)
	childIDRE  = regexp.MustCompile(`^agent-[A-Za-z0-9_-]+-[0-9a-f]{8}$`)
)

func TestCallReturnsAcceptedAtOnce(t *testing.T) {
	h := newHarness(t, 0, subagent.ToolOptions{})
	for _, tc := range []struct {
		tasks []map[string]any
		noun  string
	}{
		{[]map[string]any{task1("one", "general-purpose", "gate:a")}, "subagent"},
		{[]map[string]any{task1("one", "general-purpose", "gate:b"), task1("two", "reviewer", "gate:c")}, "subagents"},
	} {
		// The children are blocked, so the call cannot have waited for them.
		res := h.call(tc.tasks...)
		m := acceptedRE.FindStringSubmatch(res.Content)
		if res.IsError || m == nil || m[2] != fmt.Sprint(len(tc.tasks)) || m[3] != tc.noun {
			t.Fatalf("result %+v", res)
		}
	}
	if n := h.pool.Groups(parentSession); n != 2 {
		t.Fatalf("%d groups running, want 2", n)
	}
	for _, g := range []string{"a", "b", "c"} {
		close(h.gate(g))
	}
	ids := map[string]bool{h.next().ID: true, h.next().ID: true}
	if len(ids) != 2 {
		t.Fatalf("group ids %v", ids)
	}
	if err := h.pool.Wait(t.Context(), parentSession); err != nil || h.pool.Groups(parentSession) != 0 {
		t.Fatalf("Wait: %v, %d groups", err, h.pool.Groups(parentSession))
	}
}

func TestGroupStatusAndContent(t *testing.T) {
	for _, tc := range []struct {
		name     string
		prompts  []string
		status   subagent.Status
		attr     string
		statuses []subagent.Status
		contents []string
	}{
		{"AllCompleted", []string{"ok:first answer", "ok:second"}, subagent.StatusCompleted, "",
			[]subagent.Status{"completed", "completed"}, []string{"first answer", "second"}},
		{"AllFailed", []string{"max", "empty", "err:kaput", "panic"}, subagent.StatusFailed, ` status="error"`,
			[]subagent.Status{"failed", "failed", "failed", "failed"},
			[]string{"Error: Subagent reached max turns", "Error: Subagent stopped without a final answer", "Error: kaput", "Error: subagent panicked: boom"}},
		{"Partial", []string{"ok:fine", "max"}, subagent.StatusPartial, ` status="partial"`,
			[]subagent.Status{"completed", "failed"}, []string{"fine", "Error: Subagent reached max turns"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 0, subagent.ToolOptions{})
			var tasks []map[string]any
			var names []string
			for i, p := range tc.prompts {
				name := fmt.Sprintf(`say "%d"`, i)
				names = append(names, fmt.Sprintf(`say "%d"`, i))
				tasks = append(tasks, task1(name, "general-purpose", p))
			}
			res := h.call(tasks...)
			id := acceptedRE.FindStringSubmatch(res.Content)[1]
			c := h.next()
			label := "Subagent group: " + strings.Join(names, ", ")
			if c.ID != id || c.Label != label || c.Status != tc.status || c.IsError != (tc.status != subagent.StatusCompleted) {
				t.Fatalf("completion %+v", c)
			}
			var sections []string
			for i, ch := range c.Children {
				if !childIDRE.MatchString(ch.AgentID) || !strings.HasPrefix(ch.AgentID, "agent-general-purpose-") {
					t.Errorf("agent id %q", ch.AgentID)
				}
				if ch.Status != tc.statuses[i] || ch.Content != tc.contents[i] {
					t.Errorf("child %d = %+v", i, ch)
				}
				sections = append(sections, "## "+names[i]+" (agentId: "+ch.AgentID+"; status: "+string(tc.statuses[i])+")\n"+tc.contents[i])
			}
			content := strings.Join(sections, "\n\n")
			if c.Content != content {
				t.Errorf("content:\n%s\nwant:\n%s", c.Content, content)
			}
			want := `<background-task-completed id="` + id + `" label="` + strings.ReplaceAll(label, `"`, "'") + `"` + tc.attr + ">\n" + content + "\n</background-task-completed>"
			if c.Message != want {
				t.Errorf("message:\n%s\nwant:\n%s", c.Message, want)
			}
		})
	}
}

func TestCancelledGroup(t *testing.T) {
	h := newHarness(t, 1, subagent.ToolOptions{})
	started := make(chan struct{}, 2)
	h.onRun = func(context.Context, subagent.ChildRequest) { started <- struct{}{} }
	h.call(task1("a", "general-purpose", "block"), task1("b", "general-purpose", "block"))
	<-started // a runs, b waits for the single slot
	h.pool.Cancel(parentSession)
	c := h.next()
	if c.Status != subagent.StatusCancelled || !strings.Contains(c.Message, `status="cancelled">`) {
		t.Fatalf("completion %+v", c)
	}
	if c.Children[0].Content != "Error: Subagent aborted" || c.Children[1].Content != "Error: Subagent cancelled" {
		t.Fatalf("children %+v", c.Children)
	}
	if n := len(h.requests()); n != 1 {
		t.Fatalf("%d children ran; the queued one must not", n)
	}
}

func TestCompletionKeepsInputOrderWhenChildrenFinishOutOfOrder(t *testing.T) {
	h := newHarness(t, 0, subagent.ToolOptions{})
	h.call(task1("first", "general-purpose", "gate:first"), task1("second", "general-purpose", "gate:second"), task1("third", "general-purpose", "gate:third"))
	for _, name := range []string{"third", "second"} {
		close(h.gate(name))
		for len(h.eventsOf(subagent.EventToolResult)) < map[string]int{"third": 1, "second": 2}[name] {
			if t.Context().Err() != nil {
				t.Fatal("no result")
			}
		}
	}
	close(h.gate("first"))
	c := h.next()
	var results []string
	for _, ev := range h.eventsOf(subagent.EventToolResult) {
		results = append(results, ev.Name)
	}
	if !slices.Equal(results, []string{"third", "second", "first"}) {
		t.Fatalf("results in %v; the test did not reorder", results)
	}
	var got []string
	for _, ch := range c.Children {
		got = append(got, ch.Content)
	}
	if !slices.Equal(got, []string{"first", "second", "third"}) || strings.Index(c.Content, "## first") > strings.Index(c.Content, "## third") {
		t.Fatalf("completion order %v", got)
	}
	var uses []string
	for _, ev := range h.eventsOf(subagent.EventToolUse) {
		uses = append(uses, ev.Name)
	}
	if !slices.Equal(uses, []string{"first", "second", "third"}) {
		t.Fatalf("tool_use order %v", uses)
	}
}

func TestPoolLimitIsSharedAcrossGroups(t *testing.T) {
	const limit = 2
	h := newHarness(t, limit, subagent.ToolOptions{})
	var running, peak, total atomic.Int32
	started := make(chan struct{}, 6)
	h.onRun = func(context.Context, subagent.ChildRequest) {
		n := running.Add(1)
		total.Add(1)
		for old := peak.Load(); n > old && !peak.CompareAndSwap(old, n); old = peak.Load() {
		}
		started <- struct{}{}
	}
	h.onDone = func() { running.Add(-1) }
	var tasks []map[string]any
	for i := range 3 {
		tasks = append(tasks, task1(fmt.Sprint(i), "general-purpose", "gate:go"))
	}
	h.call(tasks...)
	h.call(tasks...)
	<-started
	<-started
	if n := running.Load(); n != limit {
		t.Fatalf("%d running", n)
	}
	close(h.gate("go"))
	for _, c := range []subagent.GroupCompletion{h.next(), h.next()} {
		if c.Status != subagent.StatusCompleted {
			t.Fatalf("completion %+v", c)
		}
	}
	if peak.Load() != limit || total.Load() != 6 {
		t.Fatalf("peak %d (want %d), %d ran", peak.Load(), limit, total.Load())
	}
}

func TestCallValidation(t *testing.T) {
	store := func(context.Context, string) (task.Store, error) { return task.NewMemoryStore(), nil }
	gp := func(extra map[string]any) map[string]any {
		m := task1("x", "general-purpose", "ok:y")
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	for _, tc := range []struct {
		name  string
		opts  subagent.ToolOptions
		input any
		want  string // exact content, or a prefix ending in "…"
	}{
		{"NoTasks", subagent.ToolOptions{}, map[string]any{"tasks": []any{}}, "Error: invalid input for Agent: …"},
		{"NullTasks", subagent.ToolOptions{}, map[string]any{"tasks": nil}, "Error: invalid input for Agent: …"},
		{"TooManyTasks", subagent.ToolOptions{}, map[string]any{"tasks": slices.Repeat([]any{gp(nil)}, subagent.MaxTasks+1)}, "Error: invalid input for Agent: …"},
		{"RunInBackgroundIsBoolean", subagent.ToolOptions{}, map[string]any{"tasks": []any{gp(nil)}, "run_in_background": "yes"}, "Error: invalid input for Agent: …"},
		{"MissingPrompt", subagent.ToolOptions{}, map[string]any{"tasks": []any{map[string]any{"display_name": "x", "subagent_type": "y"}}}, "Error: invalid input for Agent: …"},
		{"UnknownField", subagent.ToolOptions{}, map[string]any{"tasks": []any{gp(map[string]any{"extra": 1})}}, "Error: invalid input for Agent: …"},
		{"InvisibleDisplayName", subagent.ToolOptions{}, map[string]any{"tasks": []any{gp(nil), gp(map[string]any{"display_name": " \u200b\u0007\u202e\n"})}},
			"Error: display_name must contain visible characters"},
		{"BackgroundDisabled", subagent.ToolOptions{DisableBackground: true}, map[string]any{"tasks": []any{gp(nil)}},
			"Error: Agent requires background tasks; enable background to dispatch subagents."},
		{"DuplicateTaskID", subagent.ToolOptions{Tasks: store}, map[string]any{"tasks": []any{gp(map[string]any{"task_id": "1"}), gp(map[string]any{"task_id": "1"})}},
			"Error: a task may only be dispatched once per group"},
		{"TaskIDWithoutTracking", subagent.ToolOptions{}, map[string]any{"tasks": []any{gp(map[string]any{"task_id": "1"})}},
			"Error: task_id requires task tracking"},
		{"TaskIDWithNilStore", subagent.ToolOptions{Tasks: func(context.Context, string) (task.Store, error) { return nil, nil }},
			map[string]any{"tasks": []any{gp(map[string]any{"task_id": "1"})}}, "Error: task_id requires task tracking"},
		{"TaskStoreFails", subagent.ToolOptions{Tasks: func(context.Context, string) (task.Store, error) { return nil, errors.New("locked") }},
			map[string]any{"tasks": []any{gp(nil)}}, "Error: task tracking unavailable: locked"},
		{"ModelNotInCatalog", subagent.ToolOptions{Models: []string{"simple", "complex"}}, map[string]any{"tasks": []any{gp(map[string]any{"model": "gpt-x"})}},
			"Error: model 'gpt-x' is not a configured model; choose one of: simple, complex"},
		{"ResumeNotAnAgent", subagent.ToolOptions{}, map[string]any{"tasks": []any{gp(map[string]any{"resume": "../parent-1"})}},
			"Error: resume must be the agentId of an earlier subagent"},
		// Rewriting these to agent-reviewer_v2-… would resume another
		// agent's session.
		{"ResumeWithADot", subagent.ToolOptions{}, map[string]any{"tasks": []any{gp(map[string]any{"resume": "agent-reviewer.v2-0123abcd"})}},
			"Error: resume must be the agentId of an earlier subagent"},
		{"ResumeWithASlash", subagent.ToolOptions{}, map[string]any{"tasks": []any{gp(map[string]any{"resume": "agent-x/../agent-y"})}},
			"Error: resume must be the agentId of an earlier subagent"},
		{"ResumeTwice", subagent.ToolOptions{}, map[string]any{"tasks": []any{gp(map[string]any{"resume": "agent-x-1"}), gp(map[string]any{"resume": "agent-x-1"})}},
			"Error: a subagent may only be resumed once per group"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 0, tc.opts)
			input, _ := json.Marshal(tc.input)
			res, err := h.tool.Call(t.Context(), parentCall, input)
			if err != nil {
				t.Fatal(err)
			}
			ok := res.Content == tc.want
			if prefix, cut := strings.CutSuffix(tc.want, "…"); cut {
				ok = strings.HasPrefix(res.Content, prefix)
			}
			if !ok || !res.IsError {
				t.Fatalf("result %+v, want %q", res, tc.want)
			}
			if h.pool.Groups(parentSession) != 0 || len(h.requests()) != 0 {
				t.Fatal("a group started")
			}
		})
	}
}

func TestModelFromCatalogIsAccepted(t *testing.T) {
	h := newHarness(t, 0, subagent.ToolOptions{Models: []string{"simple"}})
	if res := h.call(map[string]any{"display_name": "a", "subagent_type": "general-purpose", "prompt": "ok:x", "model": "simple"}); res.IsError {
		t.Fatal(res.Content)
	}
	h.next()
}

func TestUnknownSubagentTypeFailsOnlyThatChild(t *testing.T) {
	for _, tc := range []struct {
		name      string
		defs      []subagent.Definition
		typ       string
		idPrefix  string
		available string
	}{
		{"Plain", nil, "nope", "agent-nope-", "general-purpose, reviewer"},
		{"Sanitized", nil, "a/b c\n# x", "agent-a_b_c___x-", "general-purpose, reviewer"},
		{"Empty", nil, "", "agent-unknown-", "general-purpose, reviewer"},
		{"NoDefinitions", []subagent.Definition{}, "general-purpose", "agent-general-purpose-", "(none)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 0, subagent.ToolOptions{})
			if tc.defs != nil {
				h = newHarness(t, 0, subagent.ToolOptions{Definitions: []subagent.Definition{{Name: "other"}}})
				tc.available = "other"
			}
			h.call(task1("bad", tc.typ, "ok:never"), task1("good", "other", "ok:fine"))
			c := h.next()
			bad := c.Children[0]
			want := "Error: unknown subagent_type '" + strings.TrimSpace(strings.ReplaceAll(tc.typ, "\n", " ")) + "'. Available: " + tc.available
			if bad.Status != subagent.StatusFailed || bad.AgentID != "-" || bad.Content != want {
				t.Fatalf("child %+v, want content %q", bad, want)
			}
			if !strings.Contains(c.Content, "## bad (agentId: -; status: failed)\n"+want) {
				t.Fatalf("content %q", c.Content)
			}
			use := h.eventsOf(subagent.EventToolUse)[0]
			if !strings.HasPrefix(use.CallID, tc.idPrefix) || !childIDRE.MatchString(use.CallID) {
				t.Fatalf("event id %q, want prefix %q", use.CallID, tc.idPrefix)
			}
			for _, r := range h.requests() {
				if r.Prompt == "ok:never" {
					t.Fatal("an unknown type ran")
				}
			}
		})
	}
}

func TestChildRequest(t *testing.T) {
	h := newHarness(t, 0, subagent.ToolOptions{AllowedTools: []string{"bash", "read_file", "grep", "Agent"}, Workdir: "/repo"})
	h.call(
		map[string]any{"display_name": "line\nbreak\u202e here", "subagent_type": "reviewer", "prompt": "ok:r1"},
		map[string]any{"display_name": "gp", "subagent_type": "general-purpose", "prompt": "ok:g1", "model": "complex"},
		map[string]any{"display_name": "again", "subagent_type": "reviewer", "prompt": "ok:r2", "resume": "agent-reviewer-0123abcd"},
	)
	c := h.next()
	byPrompt := map[string]subagent.ChildRequest{}
	for _, r := range h.requests() {
		byPrompt[r.Prompt] = r
	}
	r1, g1, r2 := byPrompt["ok:r1"], byPrompt["ok:g1"], byPrompt["ok:r2"]
	if !strings.HasPrefix(r1.SessionID, "agent-reviewer-") || !childIDRE.MatchString(r1.SessionID) || r1.AgentID != r1.SessionID || r1.Resume {
		t.Errorf("r1 ids %q %q", r1.SessionID, r1.AgentID)
	}
	if r1.DisplayName != "line break  here" || !strings.Contains(c.Content, "## line break  here (agentId: "+r1.AgentID+"; status: completed)\nr1") {
		t.Errorf("display name %q; content %q", r1.DisplayName, c.Content)
	}
	if r1.System != "You are the \"reviewer\" subagent operating in /repo. Return your final answer as your last message.\n\nReview carefully." {
		t.Errorf("system %q", r1.System)
	}
	if !slices.Equal(r1.AllowedTools, []string{"read_file", "bash"}) || r1.Model != "medium" || r1.Type != "reviewer" {
		t.Errorf("r1 %+v", r1)
	}
	if !slices.Equal(g1.AllowedTools, []string{"bash", "read_file", "grep"}) || g1.Model != "complex" || g1.ParentSessionID != parentSession {
		t.Errorf("g1 %+v", g1)
	}
	if r2.SessionID != "agent-reviewer-0123abcd" || r2.AgentID != r2.SessionID || !r2.Resume || c.Children[2].AgentID != r2.SessionID {
		t.Errorf("resume: %+v", r2)
	}
	if r1.GroupID != c.ID || r1.SessionID == g1.SessionID {
		t.Errorf("group %q vs %q", r1.GroupID, c.ID)
	}
	use := h.eventsOf(subagent.EventToolUse)[0]
	var in map[string]string
	if err := json.Unmarshal(use.Input, &in); err != nil || in["prompt"] != "ok:r1" || in["subagent_type"] != "reviewer" || in["display_name"] != "line\nbreak\u202e here" || len(in) != 3 {
		t.Errorf("tool_use input %s", use.Input)
	}
}

func TestChildAllowedTools(t *testing.T) {
	for _, tc := range []struct {
		name        string
		def, parent []string
		want        []string
	}{
		{"Neither", nil, nil, nil},
		{"DefinitionOnly", []string{"a", "Agent", "b"}, nil, []string{"a", "b"}},
		{"ParentOnly", nil, []string{"Agent", "x"}, []string{"x"}},
		{"Intersection", []string{"a", "b", "c"}, []string{"c", "a"}, []string{"a", "c"}},
		{"OnlyAgent", []string{"Agent"}, nil, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 0, subagent.ToolOptions{Definitions: []subagent.Definition{{Name: "d", Tools: tc.def}}, AllowedTools: tc.parent})
			h.call(task1("x", "d", "ok:y"))
			h.next()
			got := h.requests()[0].AllowedTools
			if (got == nil) != (tc.want == nil) || !slices.Equal(got, tc.want) {
				t.Fatalf("allowed %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestTaskTrackingClaimsAndRecords(t *testing.T) {
	ctx := t.Context()
	store := task.NewMemoryStore()
	existing, err := store.Create(ctx, task.CreateInput{Subject: "Audit API", Description: "look"})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 0, subagent.ToolOptions{Tasks: func(context.Context, string) (task.Store, error) { return store, nil }})
	h.onRun = func(ctx context.Context, req subagent.ChildRequest) {
		tk, _, _ := store.Get(ctx, req.TaskID)
		if tk.Status != task.InProgress || tk.Owner != req.AgentID || tk.Execution == nil ||
			*tk.Execution != (task.Execution{AgentID: req.AgentID, Status: task.ExecRunning}) {
			t.Errorf("while running, task %s = %+v", req.TaskID, tk)
		}
	}
	h.call(
		map[string]any{"display_name": "api", "subagent_type": "general-purpose", "prompt": "ok:all good", "task_id": existing.ID},
		task1("ui", "general-purpose", "max"),
	)
	c := h.next()
	api, ui := c.Children[0], c.Children[1]
	if api.TaskID != existing.ID || ui.TaskID != "2" ||
		!strings.Contains(c.Content, "(agentId: "+api.AgentID+"; status: completed; task_id: 1)\nall good") ||
		!strings.Contains(c.Content, "(agentId: "+ui.AgentID+"; status: failed; task_id: 2)\nError: Subagent reached max turns") {
		t.Fatalf("completion %+v", c)
	}
	got1, _, _ := store.Get(ctx, "1")
	if got1.Status != task.Review || got1.Owner != api.AgentID ||
		*got1.Execution != (task.Execution{AgentID: api.AgentID, Status: task.ExecSucceeded, Result: "all good"}) {
		t.Errorf("task 1 = %+v", got1)
	}
	got2, _, _ := store.Get(ctx, "2")
	if got2.Subject != "ui" || got2.Description != "max" || got2.Status != task.Failed ||
		*got2.Execution != (task.Execution{AgentID: ui.AgentID, Status: task.ExecFailed, Result: "Error: Subagent reached max turns"}) {
		t.Errorf("task 2 = %+v", got2)
	}
	updates := map[string][]task.Status{}
	for _, ev := range h.eventsOf(subagent.EventTaskUpdate) {
		updates[ev.TaskID] = append(updates[ev.TaskID], ev.TaskStatus)
		if ev.Owner == "" || ev.SessionID != parentSession || ev.GroupID != c.ID {
			t.Errorf("event %+v", ev)
		}
	}
	if !slices.Equal(updates["1"], []task.Status{task.InProgress, task.Review}) || !slices.Equal(updates["2"], []task.Status{task.InProgress, task.Failed}) {
		t.Errorf("task updates %v", updates)
	}
}

func TestTaskTrackingFailures(t *testing.T) {
	ctx := t.Context()
	store := task.NewMemoryStore()
	first, _ := store.Create(ctx, task.CreateInput{Subject: "first"})
	blocked, _ := store.Create(ctx, task.CreateInput{Subject: "blocked"})
	if _, err := store.Update(ctx, blocked.ID, task.UpdateInput{AddBlockedBy: []string{first.ID}}); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 1, subagent.ToolOptions{Tasks: func(context.Context, string) (task.Store, error) { return store, nil }})
	h.call(
		map[string]any{"display_name": "missing", "subagent_type": "general-purpose", "prompt": "ok:x", "task_id": "9"},
		map[string]any{"display_name": "blocked", "subagent_type": "general-purpose", "prompt": "ok:x", "task_id": blocked.ID},
	)
	c := h.next()
	if c.Status != subagent.StatusFailed || c.Children[0].Content != "Error: no task '9'" ||
		!strings.Contains(c.Children[1].Content, "unfinished dependencies") || len(h.requests()) != 0 {
		t.Fatalf("completion %+v, %d ran", c, len(h.requests()))
	}
	if tk, _, _ := store.Get(ctx, blocked.ID); tk.Status != task.Pending || tk.Execution != nil {
		t.Errorf("blocked task changed: %+v", tk)
	}

	// A cancelled child's task is recorded as cancelled.
	h.call(map[string]any{"display_name": "slow", "subagent_type": "general-purpose", "prompt": "block", "task_id": first.ID})
	for len(h.eventsOf(subagent.EventTaskUpdate)) == 0 {
		if t.Context().Err() != nil {
			t.Fatal("never claimed")
		}
	}
	h.pool.Cancel(parentSession)
	c = h.next()
	tk, _, _ := store.Get(ctx, first.ID)
	if c.Status != subagent.StatusCancelled || tk.Status != task.Cancelled || tk.Execution.Status != task.ExecCancelled || tk.Execution.Result != "Error: Subagent aborted" {
		t.Fatalf("completion %+v, task %+v", c, tk)
	}
}

func TestCloseAbortsGroupsWithoutDelivering(t *testing.T) {
	h := newHarness(t, 1, subagent.ToolOptions{})
	started := make(chan struct{}, 1)
	var aborted atomic.Bool
	h.onRun = func(ctx context.Context, req subagent.ChildRequest) { started <- struct{}{} }
	h.onDone = func() { aborted.Store(true) }
	h.call(task1("a", "general-purpose", "block"), task1("b", "general-purpose", "block"))
	<-started
	h.pool.Close()
	if !aborted.Load() || h.pool.Groups(parentSession) != 0 {
		t.Fatal("Close returned before the running child was aborted and the group ended")
	}
	select {
	case c := <-h.deliveries:
		t.Fatalf("delivered after Close: %+v", c)
	default:
	}
	results := h.eventsOf(subagent.EventToolResult)
	if len(results) != 2 || !slices.ContainsFunc(results, func(ev subagent.Event) bool { return ev.Content == "Error: subagent pool closed" }) {
		t.Fatalf("results %+v", results)
	}
	if res := h.call(task1("late", "general-purpose", "ok:x")); res.Content != "Error: subagent pool closed" || !res.IsError {
		t.Fatalf("after Close: %+v", res)
	}
}

func TestRunErrorAfterCancelIsCancelled(t *testing.T) {
	h := newHarness(t, 0, subagent.ToolOptions{})
	started := make(chan struct{})
	h.onRun = func(context.Context, subagent.ChildRequest) { close(started) }
	h.call(task1("a", "general-purpose", "gate:never"))
	<-started
	h.pool.Cancel(parentSession)
	c := h.next()
	if c.Status != subagent.StatusCancelled || c.Children[0].Content != "Error: context canceled" {
		t.Fatalf("completion %+v", c)
	}
}

func TestWaitBlocksUntilDelivered(t *testing.T) {
	h := newHarness(t, 0, subagent.ToolOptions{})
	h.call(task1("a", "general-purpose", "gate:w"))
	waitCtx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := h.pool.Wait(waitCtx, parentSession); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait with a done ctx: %v", err)
	}
	done := make(chan error)
	go func() { done <- h.pool.Wait(t.Context(), parentSession) }()
	close(h.gate("w"))
	h.next()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := h.pool.Wait(t.Context(), "other-session"); err != nil {
		t.Fatal(err)
	}
}

func TestRunInBackgroundIsIgnored(t *testing.T) {
	h := newHarness(t, 0, subagent.ToolOptions{})
	input, _ := json.Marshal(map[string]any{"tasks": []any{task1("a", "general-purpose", "gate:bg")}, "run_in_background": false})
	res, err := h.tool.Call(t.Context(), parentCall, input)
	if err != nil || !acceptedRE.MatchString(res.Content) {
		t.Fatalf("result %+v, %v", res, err)
	}
	close(h.gate("bg"))
	h.next()
}

func TestResumedSessionRunsOnceAtATime(t *testing.T) {
	h := newHarness(t, 0, subagent.ToolOptions{})
	started := make(chan struct{}, 2)
	h.onRun = func(context.Context, subagent.ChildRequest) { started <- struct{}{} }
	resume := map[string]any{"display_name": "a", "subagent_type": "general-purpose", "prompt": "gate:r", "resume": "agent-general-purpose-0000aaaa"}
	h.call(resume)
	<-started
	h.call(resume)
	second := h.next()
	if second.Children[0].Content != "Error: subagent agent-general-purpose-0000aaaa is already running" {
		t.Fatalf("second group %+v", second)
	}
	close(h.gate("r"))
	if first := h.next(); first.Status != subagent.StatusCompleted || first.Children[0].AgentID != "agent-general-purpose-0000aaaa" {
		t.Fatalf("first group %+v", first)
	}
}
