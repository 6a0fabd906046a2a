package telemetry_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/telemetry"
	"github.com/lite-agent/lite-agent-go/tool"
)

// recording returns a Telemetry recording to in-memory exporters.
func recording(t *testing.T, content bool) (*telemetry.Telemetry, *tracetest.InMemoryExporter, *sdkmetric.ManualReader) {
	t.Helper()
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	tel, err := telemetry.New(telemetry.Options{TracerProvider: tp, MeterProvider: mp, ProviderName: "acme", RecordContent: content})
	if err != nil {
		t.Fatal(err)
	}
	return tel, spans, reader
}

// attrs returns the attributes of span s by key.
func attrs(s tracetest.SpanStub) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes {
		m[kv.Key] = kv.Value
	}
	return m
}

// drain ranges over seq and returns its last error.
func drain[T any](seq iter.Seq2[T, error]) error {
	var last error
	for _, err := range seq {
		if err != nil {
			last = err
		}
	}
	return last
}

func TestModelCallSpan(t *testing.T) {
	tests := []struct {
		name      string
		content   bool
		script    func(p *modeltest.Provider)
		wantErr   string // error.type; "" for success
		wantAttrs map[string]string
		absent    []string
	}{
		{
			name: "success",
			script: func(p *modeltest.Provider) {
				p.Reply(modeltest.Reply{Message: model.AssistantText("secret answer"), Usage: model.Usage{InputTokens: 12, OutputTokens: 5}})
			},
			wantAttrs: map[string]string{
				"gen_ai.operation.name":          "chat",
				"gen_ai.provider.name":           "acme",
				"gen_ai.request.model":           "m1",
				"gen_ai.response.model":          "m1",
				"gen_ai.request.max_tokens":      "100",
				"gen_ai.usage.input_tokens":      "12",
				"gen_ai.usage.output_tokens":     "5",
				"gen_ai.response.finish_reasons": `["stop"]`,
			},
			absent: []string{"gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions", "error.type"},
		},
		{
			name:    "content opted in",
			content: true,
			script: func(p *modeltest.Provider) {
				p.Reply(modeltest.Reply{Message: model.AssistantText("secret answer")})
			},
			wantAttrs: map[string]string{
				"gen_ai.input.messages":      `[{"role":"user","parts":[{"type":"text","content":"secret prompt"}]}]`,
				"gen_ai.output.messages":     `[{"role":"assistant","parts":[{"type":"text","content":"secret answer"}]}]`,
				"gen_ai.system_instructions": `[{"type":"text","content":"be brief"}]`,
			},
		},
		{
			name:    "failure",
			script:  func(p *modeltest.Provider) { p.Fail(model.NewError(model.ClassRateLimit, 429, "slow down", nil)) },
			wantErr: "rate_limit",
			absent:  []string{"gen_ai.usage.input_tokens"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tel, spans, reader := recording(t, tt.content)
			base := modeltest.New()
			tt.script(base)
			p := model.Use(base, tel.ModelMiddleware())
			err := drain(p.Stream(t.Context(), model.Request{Model: "m1", System: "be brief", MaxTokens: 100, Messages: []model.Message{model.UserText("secret prompt")}}))
			if (err != nil) != (tt.wantErr != "") {
				t.Fatalf("stream error %v", err)
			}
			got := spans.GetSpans()
			if len(got) != 1 {
				t.Fatalf("%d spans, want 1", len(got))
			}
			s := got[0]
			if s.Name != "chat m1" {
				t.Errorf("span name %q", s.Name)
			}
			a := attrs(s)
			for k, want := range tt.wantAttrs {
				if v, ok := a[attribute.Key(k)]; !ok || v.String() != want {
					t.Errorf("%s = %q, want %q", k, v.String(), want)
				}
			}
			for _, k := range tt.absent {
				if _, ok := a[attribute.Key(k)]; ok {
					t.Errorf("%s is set", k)
				}
			}
			if tt.wantErr != "" {
				if s.Status.Code != codes.Error || a["error.type"].AsString() != tt.wantErr {
					t.Errorf("status %v, error.type %q; want error %q", s.Status, a["error.type"].AsString(), tt.wantErr)
				}
				if strings.Contains(s.Status.Description, "slow down") {
					t.Error("the error message reached the span")
				}
			}
			checkModelMetrics(t, reader, tt.wantErr == "")
		})
	}
}

// checkModelMetrics checks the metrics of one model call.
func checkModelMetrics(t *testing.T, reader *sdkmetric.ManualReader, succeeded bool) {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(t.Context(), &rm); err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			found[m.Name] = true
			switch m.Name {
			case telemetry.MetricOperationDuration:
				h := m.Data.(metricdata.Histogram[float64])
				if len(h.DataPoints) != 1 || h.DataPoints[0].Count != 1 || m.Unit != "s" {
					t.Errorf("duration: %+v", h.DataPoints)
				}
				if op, _ := h.DataPoints[0].Attributes.Value("gen_ai.operation.name"); op.AsString() != "chat" {
					t.Errorf("duration operation %q", op.AsString())
				}
			case telemetry.MetricTokenUsage:
				h := m.Data.(metricdata.Histogram[int64])
				sums := map[string]int64{}
				for _, dp := range h.DataPoints {
					typ, _ := dp.Attributes.Value("gen_ai.token.type")
					sums[typ.AsString()] += dp.Sum
				}
				if m.Unit != "{token}" || len(sums) != 2 {
					t.Errorf("token usage: unit %q, sums %v", m.Unit, sums)
				}
			}
		}
	}
	if !found[telemetry.MetricOperationDuration] {
		t.Error("no operation duration recorded")
	}
	if found[telemetry.MetricTokenUsage] != succeeded {
		t.Errorf("token usage recorded: %v, want %v", found[telemetry.MetricTokenUsage], succeeded)
	}
}

func TestToolCallSpan(t *testing.T) {
	echo := tool.New("echo", "Echoes.", func(ctx context.Context, c *tool.Call, in struct {
		S string `json:"s"`
	}) (tool.Result, error) {
		if in.S == "fail" {
			return tool.Result{}, errors.New("bad")
		}
		return tool.Result{Content: "out:" + in.S}, nil
	})
	tests := []struct {
		name    string
		content bool
		input   string
		wantErr string
		want    map[string]string
		absent  []string
	}{
		{
			name:   "success",
			input:  `{"s":"x"}`,
			want:   map[string]string{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "echo", "gen_ai.tool.call.id": "call-1", "gen_ai.conversation.id": "sess"},
			absent: []string{"gen_ai.tool.call.arguments", "gen_ai.tool.call.result", "error.type"},
		},
		{
			name:    "content",
			content: true,
			input:   `{"s":"x"}`,
			want:    map[string]string{"gen_ai.tool.call.arguments": `{"s":"x"}`, "gen_ai.tool.call.result": "out:x"},
		},
		{name: "error result", input: `{"s":"fail"}`, wantErr: "tool_error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tel, spans, _ := recording(t, tt.content)
			wrapped := tool.Use(echo, tel.ToolMiddleware())
			if _, err := wrapped.Call(t.Context(), &tool.Call{ID: "call-1", Name: "echo", SessionID: "sess", Turn: 1}, json.RawMessage(tt.input)); err != nil {
				t.Fatal(err)
			}
			got := spans.GetSpans()
			if len(got) != 1 || got[0].Name != "execute_tool echo" {
				t.Fatalf("spans %v", got)
			}
			a := attrs(got[0])
			for k, want := range tt.want {
				if v := a[attribute.Key(k)]; v.String() != want {
					t.Errorf("%s = %q, want %q", k, v.String(), want)
				}
			}
			for _, k := range tt.absent {
				if _, ok := a[attribute.Key(k)]; ok {
					t.Errorf("%s is set", k)
				}
			}
			if tt.wantErr != "" && (got[0].Status.Code != codes.Error || a["error.type"].AsString() != tt.wantErr) {
				t.Errorf("status %v error.type %q", got[0].Status, a["error.type"].AsString())
			}
		})
	}
}

func TestAgentSpanParentsItsCalls(t *testing.T) {
	tel, spans, _ := recording(t, false)
	base := modeltest.New()
	base.Reply(modeltest.Reply{Message: model.AssistantText("done"), Usage: model.Usage{InputTokens: 3, OutputTokens: 4}})
	p := model.Use(base, tel.ModelMiddleware())
	run := func(ctx context.Context) iter.Seq2[engine.Event, error] {
		return func(yield func(engine.Event, error) bool) {
			if err := drain(p.Stream(ctx, model.Request{Model: "m"})); err != nil {
				yield(engine.Event{}, err)
				return
			}
			yield(engine.Event{Type: engine.EventDone, Result: &engine.Result{Usage: model.Usage{InputTokens: 3, OutputTokens: 4}, StopReason: engine.StopDone, Turns: 1}}, nil)
		}
	}
	if err := drain(tel.Agent(t.Context(), telemetry.Run{SessionID: "s1", Agent: "explorer", AgentID: "agent-explorer-1", Model: "m"}, run)); err != nil {
		t.Fatal(err)
	}
	got := spans.GetSpans()
	if len(got) != 2 {
		t.Fatalf("%d spans", len(got))
	}
	chat, agent := got[0], got[1] // ended in this order
	if agent.Name != "invoke_agent explorer" || chat.Parent.SpanID() != agent.SpanContext.SpanID() {
		t.Errorf("agent span %q; chat's parent %v, want %v", agent.Name, chat.Parent.SpanID(), agent.SpanContext.SpanID())
	}
	a := attrs(agent)
	for k, want := range map[string]string{
		"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "explorer", "gen_ai.agent.id": "agent-explorer-1",
		"gen_ai.conversation.id": "s1", "gen_ai.usage.input_tokens": "3", "gen_ai.usage.output_tokens": "4",
		"gen_ai.response.finish_reasons": `["stop"]`, "lite_agent.turns": "1",
	} {
		if v := a[attribute.Key(k)]; v.String() != want {
			t.Errorf("%s = %q, want %q", k, v.String(), want)
		}
	}
}

func TestAgentSpanAbandonedIsAnError(t *testing.T) {
	tel, spans, _ := recording(t, false)
	run := func(ctx context.Context) iter.Seq2[engine.Event, error] {
		return func(yield func(engine.Event, error) bool) {
			for yield(engine.Event{Type: engine.EventTextDelta}, nil) {
			}
		}
	}
	for range tel.Agent(t.Context(), telemetry.Run{}, run) {
		break
	}
	got := spans.GetSpans()
	if len(got) != 1 || got[0].Name != "invoke_agent" || got[0].Status.Code != codes.Error {
		t.Fatalf("spans %+v", got)
	}
}

func TestCompactingSpan(t *testing.T) {
	tel, spans, _ := recording(t, false)
	var calls []string
	next := func(ctx context.Context, id string, before int) func(int, error) {
		calls = append(calls, "start")
		return func(after int, err error) { calls = append(calls, "end") }
	}
	for _, n := range []telemetry.CompactingFunc{next, nil} {
		done := tel.Compacting(n)(t.Context(), "s1", 900)
		done(300, nil)
	}
	if strings.Join(calls, ",") != "start,end" {
		t.Errorf("next called %v", calls)
	}
	got := spans.GetSpans()
	if len(got) != 2 {
		t.Fatalf("%d spans", len(got))
	}
	a := attrs(got[0])
	if got[0].Name != "compaction" || a[telemetry.AttrCompactionBefore].AsInt64() != 900 || a[telemetry.AttrCompactionAfter].AsInt64() != 300 ||
		a[telemetry.AttrCompactionKind].AsString() != "auto" || a["gen_ai.conversation.id"].AsString() != "s1" {
		t.Errorf("span %q attrs %v", got[0].Name, a)
	}
}

// TestCompactingSpanSaysWhatWasCounted: the span of a compaction of a
// turn's request says, as its context_status event does, whether its
// size before is the provider's count (before_counted) or an estimate;
// after is an estimate (scaled to the count): after_counted false. The
// span had neither.
func TestCompactingSpanSaysWhatWasCounted(t *testing.T) {
	for _, count := range []bool{true, false} {
		tel, spans, _ := recording(t, false)
		p := modeltest.New()
		p.Reply(modeltest.Text("ok"))
		var provider model.Provider = p
		if count {
			provider = modeltest.Dense{Provider: p}
		}
		cp := session.NewMemoryCheckpointer()
		var evs []session.Event
		for i := range 6 {
			evs = append(evs, session.UserEvent{Message: model.UserText(fmt.Sprintf("question %d %s", i, strings.Repeat("q", 2000)))},
				session.AssistantEvent{Message: model.AssistantText(strings.Repeat("a", 2000))})
		}
		if _, err := cp.Append(t.Context(), "s", evs, session.AnyHead); err != nil {
			t.Fatal(err)
		}
		eng, err := engine.New(engine.Options{Provider: provider, Model: "m", Checkpointer: cp,
			Context: &engine.ContextOptions{Window: 4000, Compacting: tel.Compacting(nil)}})
		if err != nil {
			t.Fatal(err)
		}
		var status *engine.ContextStatus
		for ev, err := range eng.Turn(t.Context(), "s", model.UserText("go on")) {
			if err != nil {
				t.Fatal(err)
			}
			if ev.Type == engine.EventContextStatus {
				status = ev.Context
			}
		}
		if status == nil || status.Counted != count {
			t.Fatalf("count %v: context status %+v: want one, counted %v", count, status, count)
		}
		var span *tracetest.SpanStub
		for _, s := range spans.GetSpans() {
			if s.Name == "compaction" {
				span = &s
			}
		}
		if span == nil {
			t.Fatalf("count %v: no compaction span in %v", count, spans.GetSpans())
		}
		a := attrs(*span)
		if a[telemetry.AttrCompactionBefore].AsInt64() != int64(status.BeforeTokens) ||
			a[telemetry.AttrCompactionBeforeCounted] != attribute.BoolValue(count) || a[telemetry.AttrCompactionAfterCounted] != attribute.BoolValue(false) {
			t.Errorf("count %v: span attrs %v, want before %d, before_counted %v, after_counted false", count, a, status.BeforeTokens, count)
		}
	}
}

// TestCompactSpan records manual compactions: a span "compaction" with the
// attributes of an automatic one (kind manual), the parent of the spans
// of the passes the compaction runs.
func TestCompactSpan(t *testing.T) {
	injected := errors.New("injected")
	tests := []struct {
		name    string
		res     engine.CompactResult
		err     error
		wantErr string // error.type; "" for success
		absent  []attribute.Key
	}{
		{"committed", engine.CompactResult{Before: 900, After: 300, Generation: 2, Committed: true}, nil, "", nil},
		{"counted", engine.CompactResult{Before: 900, After: 300, BeforeCounted: true, AfterCounted: true, Generation: 2, Committed: true}, nil, "", nil},
		{"counted before only", engine.CompactResult{Before: 900, After: 300, BeforeCounted: true, Generation: 2, Committed: true}, nil, "", nil},
		{"nothing to do", engine.CompactResult{Before: 40, After: 40}, nil, "", nil},
		{"failed after measuring", engine.CompactResult{Before: 900, BeforeCounted: true}, injected, "*errors.errorString", []attribute.Key{telemetry.AttrCompactionAfter, telemetry.AttrCompactionAfterCounted}},
		{"failed before measuring", engine.CompactResult{}, injected, "*errors.errorString",
			[]attribute.Key{telemetry.AttrCompactionBefore, telemetry.AttrCompactionAfter, telemetry.AttrCompactionBeforeCounted, telemetry.AttrCompactionAfterCounted}},
		{"cancelled", engine.CompactResult{Before: 900}, context.Canceled, "cancelled", []attribute.Key{telemetry.AttrCompactionAfter, telemetry.AttrCompactionAfterCounted}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tel, spans, _ := recording(t, false)
			pass := tel.Pass(compaction.PassFunc("summary", func(_ context.Context, m []model.Message) ([]model.Message, error) { return m[1:], nil }))
			res, err := tel.Compact(t.Context(), "s1", func(ctx context.Context) (engine.CompactResult, error) {
				if _, err := pass.Apply(ctx, []model.Message{model.UserText("a"), model.UserText("b")}); err != nil {
					t.Fatal(err)
				}
				return tt.res, tt.err
			})
			if res != tt.res || err != tt.err {
				t.Errorf("Compact = %+v, %v; want what compact returned", res, err)
			}
			got := spans.GetSpans()
			if len(got) != 2 || got[0].Name != "compaction summary" || got[1].Name != "compaction" {
				t.Fatalf("spans %v", got)
			}
			span := got[1]
			if got[0].Parent.SpanID() != span.SpanContext.SpanID() {
				t.Error("the pass span is not a child of the compaction span")
			}
			a := attrs(span)
			want := map[attribute.Key]attribute.Value{
				"gen_ai.conversation.id":       attribute.StringValue("s1"),
				telemetry.AttrCompactionKind:   attribute.StringValue("manual"),
				telemetry.AttrCompactionBefore: attribute.IntValue(tt.res.Before),
				telemetry.AttrCompactionAfter:  attribute.IntValue(tt.res.After),
				// As the compaction events' BeforeCounted and AfterCounted.
				telemetry.AttrCompactionBeforeCounted: attribute.BoolValue(tt.res.BeforeCounted),
				telemetry.AttrCompactionAfterCounted:  attribute.BoolValue(tt.res.AfterCounted),
			}
			if tt.wantErr != "" {
				want["error.type"] = attribute.StringValue(tt.wantErr)
			}
			for _, k := range tt.absent {
				delete(want, k)
			}
			if len(a) != len(want) {
				t.Errorf("attrs %v, want %v", a, want)
			}
			for k, v := range want {
				if a[k] != v {
					t.Errorf("%s = %v, want %v", k, a[k].String(), v.String())
				}
			}
			if (tt.wantErr != "") != (span.Status.Code == codes.Error) {
				t.Errorf("status %v", span.Status)
			}
		})
	}
}

func TestProviderName(t *testing.T) {
	p := modeltest.New()
	if got := telemetry.ProviderName(model.WithRetry(p, model.RetryOptions{})); got != "modeltest" {
		t.Errorf("ProviderName = %q", got)
	}
	if got := telemetry.ProviderName(nil); got != "" {
		t.Errorf("ProviderName(nil) = %q", got)
	}
}

func TestPassSpansOnlyWhenSomethingHappened(t *testing.T) {
	msgs := []model.Message{model.UserText("a"), model.AssistantText("b"), model.UserText("c")}
	tests := []struct {
		name     string
		apply    func(context.Context, []model.Message) ([]model.Message, error)
		wantSpan bool
		wantErr  bool
	}{
		{"unchanged", func(_ context.Context, m []model.Message) ([]model.Message, error) { return m, nil }, false, false},
		{"dropped one", func(_ context.Context, m []model.Message) ([]model.Message, error) { return m[1:], nil }, true, false},
		{"failed", func(context.Context, []model.Message) ([]model.Message, error) { return nil, errors.New("no") }, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tel, spans, _ := recording(t, false)
			p := tel.Pass(compaction.PassFunc("snip", tt.apply))
			if p.Name() != "snip" {
				t.Errorf("name %q", p.Name())
			}
			_, err := p.Apply(t.Context(), msgs)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err %v", err)
			}
			got := spans.GetSpans()
			if (len(got) == 1) != tt.wantSpan || len(got) > 1 {
				t.Fatalf("%d spans", len(got))
			}
			if !tt.wantSpan {
				return
			}
			a := attrs(got[0])
			if got[0].Name != "compaction snip" || a[telemetry.AttrMessagesBefore].AsInt64() != 3 {
				t.Errorf("span %q attrs %v", got[0].Name, a)
			}
			if tt.wantErr != (got[0].Status.Code == codes.Error) {
				t.Errorf("status %v", got[0].Status)
			}
			if !tt.wantErr && a[telemetry.AttrMessagesAfter].AsInt64() != 2 {
				t.Errorf("messages after %v", a[telemetry.AttrMessagesAfter])
			}
		})
	}
}
