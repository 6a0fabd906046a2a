package liteagent_test

import (
	"context"
	"encoding/json"
	"iter"
	"log/slog"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/model/redact"
	"github.com/lite-agent/lite-agent-go/telemetry"
	"github.com/lite-agent/lite-agent-go/tool"
)

// subagentScript is a model that dispatches one general-purpose subagent
// whose answer is "42", then answers "dispatched".
func subagentScript() *modeltest.Provider {
	return modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		switch {
		case strings.HasPrefix(req.System, `You are the "general-purpose" subagent`):
			return modeltest.Text("42").Chunks(), nil
		case len(req.Messages) == 1:
			return modeltest.ToolCalls(call("a1", "Agent", `{"tasks":[{"display_name":"Finder","subagent_type":"general-purpose","prompt":"find it"}]}`)).Chunks(), nil
		}
		return modeltest.Text("dispatched").Chunks(), nil
	})
}

// steps records what middleware saw, safe for concurrent use.
type steps struct {
	mu  sync.Mutex
	got []string
}

func (s *steps) add(v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, v)
}

func (s *steps) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.got)
}

func TestMiddlewareSeesEveryCallOfTheFamilyInOrder(t *testing.T) {
	f := newFixture(t)
	f.p = subagentScript()
	rec := &steps{}
	modelMW := func(name string) model.Middleware {
		return model.Middleware{Stream: func(next model.StreamFunc) model.StreamFunc {
			return func(ctx context.Context, req model.Request) iter.Seq2[model.Chunk, error] {
				who := "parent"
				if strings.Contains(req.System, "subagent") && strings.HasPrefix(req.System, "You are the") {
					who = "child"
				}
				rec.add("model " + name + " " + who)
				return next(ctx, req)
			}
		}}
	}
	toolMW := func(name string) tool.Middleware {
		return func(next tool.CallFunc) tool.CallFunc {
			return func(ctx context.Context, c *tool.Call, in json.RawMessage) (tool.Result, error) {
				rec.add("tool " + name + " " + c.Name + " " + c.ID)
				return next(ctx, c, in)
			}
		}
	}
	opts := f.options(nil)
	opts.ModelMiddleware = []model.Middleware{modelMW("a"), modelMW("b")}
	opts.ToolMiddleware = []tool.Middleware{toolMW("a"), toolMW("b")}
	a := f.agent(t, opts)
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	if err := a.AwaitIdle(t.Context()); err != nil {
		t.Fatal(err)
	}
	got := rec.list()
	for _, want := range [][]string{
		{"model a parent", "model b parent"},
		{"tool a Agent a1", "tool b Agent a1"},
		{"model a child", "model b child"},
	} {
		i := slices.Index(got, want[0])
		if i < 0 || i+1 >= len(got) || got[i+1] != want[1] {
			t.Errorf("steps %q lack %q then %q", got, want[0], want[1])
		}
	}
}

func TestTelemetryTracesTurnsCallsAndSubagents(t *testing.T) {
	f := newFixture(t)
	f.p = subagentScript()
	exp := tracetest.NewInMemoryExporter()
	opts := f.options(nil)
	opts.Telemetry = telemetry.Options{TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))}
	a := f.agent(t, opts)
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	if err := a.AwaitIdle(t.Context()); err != nil {
		t.Fatal(err)
	}
	a.Close()
	byName := map[string][]tracetest.SpanStub{}
	for _, s := range exp.GetSpans() {
		byName[s.Name] = append(byName[s.Name], s)
	}
	root, tl, child := byName["invoke_agent"], byName["execute_tool Agent"], byName["invoke_agent general-purpose"]
	if len(root) == 0 || len(tl) != 1 || len(child) != 1 || len(byName["chat test-model"]) < 3 {
		t.Fatalf("spans by name: %v", names(exp.GetSpans()))
	}
	first := root[0]
	if tl[0].Parent.SpanID() != first.SpanContext.SpanID() {
		t.Error("the Agent tool call is not a child of its turn")
	}
	if child[0].Parent.SpanID() != tl[0].SpanContext.SpanID() {
		t.Error("the subagent run is not a child of the Agent tool call")
	}
	for _, s := range byName["chat test-model"] {
		if s.Parent.SpanID() != first.SpanContext.SpanID() && s.Parent.SpanID() != child[0].SpanContext.SpanID() && (len(root) < 2 || s.Parent.SpanID() != root[1].SpanContext.SpanID()) {
			t.Errorf("a model call's parent %v is no agent span", s.Parent.SpanID())
		}
	}
	if p := attrs(first)["gen_ai.provider.name"]; p != "modeltest" {
		t.Errorf("provider name %q", p)
	}
}

func names(spans tracetest.SpanStubs) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name)
	}
	return out
}

func attrs(s tracetest.SpanStub) map[string]string {
	m := map[string]string{}
	for _, kv := range s.Attributes {
		m[string(kv.Key)] = kv.Value.String()
	}
	return m
}

// observedReadme is the README's "Observing agents" program, between the
// markers; TestReadmeObservingAgents runs it against a scripted model.
func observedReadme(ctx context.Context, m model.Provider, name string, tp *sdktrace.TracerProvider, mp *sdkmetric.MeterProvider, log *slog.Logger) (*liteagent.Agent, error) {
	// readme-observe:begin
	red, err := redact.New(redact.Options{
		Patterns: []*regexp.Regexp{regexp.MustCompile(`\bACCT-\d{6}\b`)}, // besides the default patterns
		Secrets:  []string{"hunter2"},                                    // literal secrets the host knows
	})
	if err != nil {
		return nil, err
	}
	timeCalls := func(next tool.CallFunc) tool.CallFunc {
		return func(ctx context.Context, c *tool.Call, in json.RawMessage) (tool.Result, error) {
			start := time.Now()
			res, err := next(ctx, c, in)
			log.Info("tool call", "tool", c.Name, "id", c.ID, "session", c.SessionID, "took", time.Since(start))
			return res, err
		}
	}
	return liteagent.New(ctx, liteagent.Options{
		Model: m, ModelName: name,
		ModelMiddleware: []model.Middleware{red.Middleware()},
		ToolMiddleware:  []tool.Middleware{timeCalls},
		Telemetry:       telemetry.Options{TracerProvider: tp, MeterProvider: mp},
	})
	// readme-observe:end
}

// TestReadmeObservingAgents runs the README's program and checks that the
// README quotes it verbatim.
func TestReadmeObservingAgents(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("LITE_AGENT_HOME", t.TempDir())
	m := modeltest.New()
	m.Reply(modeltest.ToolCalls(call("c1", "read_file", `{"path":"missing.txt"}`)))
	m.Reply(modeltest.Text("done"))
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	var logged strings.Builder
	agent, err := observedReadme(t.Context(), m, "test-model", tp, mp, slog.New(slog.NewTextHandler(&logged, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close()
	if _, err := agent.Send(t.Context(), "my password is hunter2, close ACCT-123456"); err != nil {
		t.Fatal(err)
	}
	if got := m.Requests()[0].Messages[0].Text; got != "my password is [redacted], close [redacted]" {
		t.Errorf("sent %q", got)
	}
	if !strings.Contains(logged.String(), "tool=read_file id=c1") {
		t.Errorf("log %q", logged.String())
	}
	if n := len(spans.GetSpans()); n != 4 { // the turn, two model calls, one tool call
		t.Errorf("%d spans: %v", n, names(spans.GetSpans()))
	}

	readme, src := readRepoFile(t, "README.md"), readRepoFile(t, "observe_test.go")
	_, body, _ := strings.Cut(src, "\t// readme-observe:begin\n")
	body, _, _ = strings.Cut(body, "\t// readme-observe:end\n")
	var dedented strings.Builder
	for _, line := range strings.SplitAfter(body, "\n") {
		dedented.WriteString(strings.TrimPrefix(line, "\t"))
	}
	if !strings.Contains(readme, dedented.String()) {
		t.Errorf("README does not quote the program:\n%s", dedented.String())
	}
}

func TestTelemetryTracesCompactionsWithinTheirTurn(t *testing.T) {
	f := newFixture(t)
	exp := tracetest.NewInMemoryExporter()
	big := tool.New("big", "Returns a lot.", func(ctx context.Context, c *tool.Call, in struct{}) (tool.Result, error) {
		return tool.Text(strings.Repeat("x ", 20000)), nil
	})
	opts := f.options(nil)
	opts.System, opts.Tools, opts.ContextWindow = "Be brief.", []tool.Tool{big}, 8000
	opts.AllowedTools = []string{"big"}
	opts.Telemetry = telemetry.Options{TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))}
	f.p.Reply(modeltest.ToolCalls(call("b1", "big", `{}`)), modeltest.Text("seen"), modeltest.Text("again"))
	a := f.agent(t, opts)
	for _, p := range []string{"fetch", "more"} {
		if _, err := a.Send(t.Context(), p); err != nil {
			t.Fatal(err)
		}
	}
	turns := map[string]bool{}
	var compactions []tracetest.SpanStub
	for _, s := range exp.GetSpans() {
		switch s.Name {
		case "invoke_agent":
			turns[s.SpanContext.SpanID().String()] = true
		case "compaction":
			compactions = append(compactions, s)
		}
	}
	if len(compactions) == 0 {
		t.Fatalf("no compaction span among %v", names(exp.GetSpans()))
	}
	for _, c := range compactions {
		a := attrs(c)
		if !turns[c.Parent.SpanID().String()] || a["lite_agent.compaction.before_tokens"] == "" || a["lite_agent.compaction.after_tokens"] == "" {
			t.Errorf("compaction span parent %v attrs %v", c.Parent.SpanID(), a)
		}
	}
}

// TestTelemetryTracesManualCompaction compacts a session by hand: one
// span "compaction" with the attributes of an automatic one (kind manual),
// the parent of its summary pass's span.
func TestTelemetryTracesManualCompaction(t *testing.T) {
	f := newFixture(t)
	exp := tracetest.NewInMemoryExporter()
	opts := f.options(nil)
	opts.CompactSummary = true
	opts.Telemetry = telemetry.Options{TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))}
	a := f.agent(t, opts)
	for i := range 6 {
		f.p.Reply(modeltest.Text("answer " + string(rune('a'+i))))
		if _, err := a.Send(t.Context(), "question "+string(rune('a'+i))); err != nil {
			t.Fatal(err)
		}
	}
	exp.Reset()
	f.p.Reply(modeltest.Text("the user asked six questions"))
	res, err := a.Compact(t.Context(), liteagent.CompactOptions{})
	if err != nil || !res.Committed {
		t.Fatalf("Compact = %+v, %v", res, err)
	}
	byName := map[string][]tracetest.SpanStub{}
	for _, s := range exp.GetSpans() {
		byName[s.Name] = append(byName[s.Name], s)
	}
	c, summary := byName["compaction"], byName["compaction summary"]
	if len(c) != 1 || len(summary) != 1 {
		t.Fatalf("spans %v, want one compaction and its summary pass", names(exp.GetSpans()))
	}
	got, want := attrs(c[0]), map[string]string{
		"gen_ai.conversation.id":              a.SessionID(),
		"lite_agent.compaction.kind":          "manual",
		"lite_agent.compaction.before_tokens": strconv.Itoa(res.Before),
		"lite_agent.compaction.after_tokens":  strconv.Itoa(res.After),
		// Estimates: the provider counts no tokens.
		"lite_agent.compaction.before_counted": "false",
		"lite_agent.compaction.after_counted":  "false",
	}
	if !maps.Equal(got, want) {
		t.Errorf("compaction span attrs %v, want %v", got, want)
	}
	if c[0].Parent.IsValid() || summary[0].Parent.SpanID() != c[0].SpanContext.SpanID() {
		t.Error("the manual compaction is not a root span with its summary pass as its child")
	}
}
