package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/openai"
)

func TestTextDeltasThenDoneWithUsage(t *testing.T) {
	f := newFake(t, sse(
		`{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`,
		text("Hel"), text("lo"), text(", world"), finish("stop"), usage(12, 3, 8), done))
	r := collect(t, f.provider().Stream(t.Context(), model.Request{Model: "m", Messages: []model.Message{model.UserText("hi")}}))
	if r.err != nil {
		t.Fatal(r.err)
	}
	var texts []string
	for _, c := range r.chunks {
		if c.Kind == model.ChunkText {
			texts = append(texts, c.Text)
		}
	}
	if want := []string{"Hel", "lo", ", world"}; !reflect.DeepEqual(texts, want) {
		t.Errorf("text chunks = %q, want %q", texts, want)
	}
	d := r.done
	if want := model.AssistantBlocks(model.TextBlock("Hello, world")); !reflect.DeepEqual(d.Message, want) {
		t.Errorf("message = %+v, want %+v", d.Message, want)
	}
	if want := (model.Usage{InputTokens: 12, OutputTokens: 3, CacheReadTokens: 8}); d.Usage != want {
		t.Errorf("usage = %+v, want %+v", d.Usage, want)
	}
	if d.StopReason != model.StopEndTurn {
		t.Errorf("stop reason = %q, want %q", d.StopReason, model.StopEndTurn)
	}
}

func TestToolRoundTripOverTwoRequests(t *testing.T) {
	f := newFake(t,
		sse(text("Let me look."),
			toolStart(0, "call_abc", "get_weather"),
			toolArgs(0, `{"ci`), toolArgs(0, `ty":"Par`), toolArgs(0, `is"}`),
			finish("tool_calls"), usage(20, 10, 0), done),
		sse(text("It is sunny in Paris."), finish("stop"), usage(40, 6, 0), done),
	)
	p := f.provider()
	tools := []model.ToolSpec{{Name: "get_weather", Description: "Weather by city", InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}}
	req := model.Request{Model: "m", System: "Be brief.", Tools: tools, Messages: []model.Message{model.UserText("Weather in Paris?")}}

	first := collect(t, p.Stream(t.Context(), req))
	if first.err != nil {
		t.Fatal(first.err)
	}
	call := model.ToolCallBlock("call_abc", "get_weather", json.RawMessage(`{"city":"Paris"}`))
	if got := first.toolCalls(); !reflect.DeepEqual(got, []model.Block{call}) {
		t.Fatalf("tool call chunks = %+v, want %+v", got, call)
	}
	if want := model.AssistantBlocks(model.TextBlock("Let me look."), call); !reflect.DeepEqual(first.done.Message, want) {
		t.Errorf("message = %+v, want %+v", first.done.Message, want)
	}
	if first.done.StopReason != model.StopToolUse {
		t.Errorf("stop reason = %q, want %q", first.done.StopReason, model.StopToolUse)
	}

	req.Messages = append(req.Messages, first.done.Message, model.UserBlocks(model.ToolResultBlock("call_abc", "sunny, 21°C", false)))
	second := collect(t, p.Stream(t.Context(), req))
	if second.err != nil {
		t.Fatal(second.err)
	}
	if got := second.done.Message.PlainText(); got != "It is sunny in Paris." {
		t.Errorf("second answer = %q", got)
	}

	reqs := f.requests()
	if len(reqs) != 2 {
		t.Fatalf("got %d requests, want 2", len(reqs))
	}
	wantMessages := `[
		{"role":"system","content":"Be brief."},
		{"role":"user","content":"Weather in Paris?"},
		{"role":"assistant","content":"Let me look.","tool_calls":[{"id":"call_abc","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},
		{"role":"tool","content":"sunny, 21°C","tool_call_id":"call_abc"}
	]`
	assertJSON(t, "second request messages", reqs[1].body["messages"], wantMessages)
	assertJSON(t, "tools", reqs[1].body["tools"], `[{"type":"function","function":{"name":"get_weather","description":"Weather by city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}]`)
}

func TestParallelToolCallsAreAccumulatedByIndex(t *testing.T) {
	f := newFake(t, sse(
		toolStart(0, "call_a", "read"),
		toolStart(1, "call_b", "list"),
		toolArgs(1, `{"dir":`),
		toolArgs(0, `{"path":`),
		toolArgs(0, `"a.txt"}`),
		toolArgs(1, `"src"}`),
		finish("tool_calls"), usage(5, 5, 0), done))
	r := collect(t, f.provider().Stream(t.Context(), model.Request{Model: "m", Messages: []model.Message{model.UserText("go")}}))
	if r.err != nil {
		t.Fatal(r.err)
	}
	want := []model.Block{
		model.ToolCallBlock("call_a", "read", json.RawMessage(`{"path":"a.txt"}`)),
		model.ToolCallBlock("call_b", "list", json.RawMessage(`{"dir":"src"}`)),
	}
	if got := r.toolCalls(); !reflect.DeepEqual(got, want) {
		t.Errorf("tool call chunks = %+v, want %+v", got, want)
	}
	if got := r.done.Message; !reflect.DeepEqual(got, model.AssistantBlocks(want...)) {
		t.Errorf("message = %+v", got)
	}
	if r.done.StopReason != model.StopToolUse {
		t.Errorf("stop reason = %q", r.done.StopReason)
	}
}

func TestToolCallsAreYieldedInIndexOrder(t *testing.T) {
	// Index 1 starts first; the chunks still come in index order.
	f := newFake(t, sse(
		toolStart(1, "call_b", "second"), toolArgs(1, `{}`),
		toolStart(0, "call_a", "first"), toolArgs(0, `{}`),
		finish("tool_calls"), done))
	r := collect(t, f.provider().Stream(t.Context(), model.Request{Model: "m"}))
	if r.err != nil {
		t.Fatal(r.err)
	}
	calls := r.toolCalls()
	if len(calls) != 2 || calls[0].Name != "first" || calls[1].Name != "second" {
		t.Errorf("tool calls = %+v, want first then second", calls)
	}
}

func TestMalformedArgumentsBecomeEmptyObject(t *testing.T) {
	for name, args := range map[string]string{
		"cut off":    `{"path":"a.t`,
		"not JSON":   `path=a.txt`,
		"empty":      ``,
		"not object": `["a.txt"]`,
		"null":       `null`,
	} {
		t.Run(name, func(t *testing.T) {
			f := newFake(t, sse(toolStart(0, "call_1", "read"), toolArgs(0, args), finish("length"), done))
			r := collect(t, f.provider().Stream(t.Context(), model.Request{Model: "m"}))
			if r.err != nil {
				t.Fatal(r.err)
			}
			want := model.ToolCallBlock("call_1", "read", json.RawMessage(`{}`))
			if got := r.toolCalls(); !reflect.DeepEqual(got, []model.Block{want}) {
				t.Errorf("tool calls = %+v, want %+v", got, want)
			}
			if r.done.StopReason != model.StopMaxTokens {
				t.Errorf("stop reason = %q, want %q", r.done.StopReason, model.StopMaxTokens)
			}
		})
	}
}

func TestFinishReasonMapsToStopReason(t *testing.T) {
	tests := []struct {
		finish    string
		toolCalls bool
		want      model.StopReason
	}{
		{"stop", false, model.StopEndTurn},
		{"tool_calls", true, model.StopToolUse},
		{"length", false, model.StopMaxTokens},
		{"content_filter", false, model.StopOther},
		{"something_new", false, model.StopOther},
		{"stop", true, model.StopToolUse}, // servers that say stop after tool calls
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s tools=%v", tt.finish, tt.toolCalls), func(t *testing.T) {
			events := []string{text("x")}
			if tt.toolCalls {
				events = append(events, toolStart(0, "c", "t"), toolArgs(0, "{}"))
			}
			f := newFake(t, sse(append(events, finish(tt.finish), done)...))
			r := collect(t, f.provider().Stream(t.Context(), model.Request{Model: "m"}))
			if r.err != nil {
				t.Fatal(r.err)
			}
			if r.done.StopReason != tt.want {
				t.Errorf("stop reason = %q, want %q", r.done.StopReason, tt.want)
			}
		})
	}
}

func TestServerQuirksAreUnderstood(t *testing.T) {
	tests := []struct {
		name   string
		events []string
		want   []model.Block // tool calls; an empty ID means "any non-empty id"
	}{
		{
			name: "every call numbered 0",
			events: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"a","arguments":"{\"x\":1}"}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c2","type":"function","function":{"name":"b","arguments":"{\"y\":2}"}}]}}]}`,
			},
			want: []model.Block{
				model.ToolCallBlock("c1", "a", json.RawMessage(`{"x":1}`)),
				model.ToolCallBlock("c2", "b", json.RawMessage(`{"y":2}`)),
			},
		},
		{
			name: "no index",
			events: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"id":"c1","type":"function","function":{"name":"a","arguments":"{\"x\":"}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":"1}"}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"id":"c2","type":"function","function":{"name":"b","arguments":"{}"}}]}}]}`,
			},
			want: []model.Block{
				model.ToolCallBlock("c1", "a", json.RawMessage(`{"x":1}`)),
				model.ToolCallBlock("c2", "b", json.RawMessage(`{}`)),
			},
		},
		{
			name: "arguments as an object",
			events: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"a","arguments":{"x":1}}}]}}]}`,
			},
			want: []model.Block{model.ToolCallBlock("c1", "a", json.RawMessage(`{"x":1}`))},
		},
		{
			name: "no id",
			events: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"type":"function","function":{"name":"a","arguments":"{}"}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"type":"function","function":{"name":"b","arguments":"{}"}}]}}]}`,
			},
			want: []model.Block{
				model.ToolCallBlock("", "a", json.RawMessage(`{}`)),
				model.ToolCallBlock("", "b", json.RawMessage(`{}`)),
			},
		},
		{
			name: "finish reason with the last fragment",
			events: []string{
				toolStart(0, "c1", "a"),
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`,
			},
			want: []model.Block{model.ToolCallBlock("c1", "a", json.RawMessage(`{}`))},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			events := append(append([]string(nil), tt.events...), finish("tool_calls"), done)
			f := newFake(t, sse(events...))
			r := collect(t, f.provider().Stream(t.Context(), model.Request{Model: "m"}))
			if r.err != nil {
				t.Fatal(r.err)
			}
			got := r.toolCalls()
			if len(got) != len(tt.want) {
				t.Fatalf("tool calls = %+v, want %+v", got, tt.want)
			}
			ids := map[string]bool{}
			for i := range got {
				if got[i].ID == "" || ids[got[i].ID] {
					t.Errorf("call %d has id %q, want a unique non-empty id", i, got[i].ID)
				}
				ids[got[i].ID] = true
				if tt.want[i].ID == "" {
					got[i].ID = ""
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("tool calls = %+v, want %+v", got, tt.want)
			}
			if !reflect.DeepEqual(r.done.Message.Blocks, r.toolCalls()) {
				t.Errorf("message blocks %+v differ from the announced calls %+v", r.done.Message.Blocks, r.toolCalls())
			}
		})
	}
}

func TestStreamEndings(t *testing.T) {
	tests := []struct {
		name     string
		events   []string
		wantText string
		wantStop model.StopReason
	}{
		{"done without finish reason", []string{text("a"), done}, "a", model.StopEndTurn},
		{"finish reason without done", []string{text("a"), finish("stop"), usage(1, 1, 0)}, "a", model.StopEndTurn},
		{"no usage", []string{text("a"), finish("stop"), done}, "a", model.StopEndTurn},
		{"empty answer", []string{finish("stop"), done}, "", model.StopEndTurn},
		{"refusal", []string{`{"choices":[{"index":0,"delta":{"refusal":"I can't."}}]}`, finish("stop"), done}, "I can't.", model.StopEndTurn},
		{"other choices ignored", []string{text("a"), `{"choices":[{"index":1,"delta":{"content":"b"}}]}`, finish("stop"), done}, "a", model.StopEndTurn},
		{"keep-alive comments", []string{text("a") + "\n\n: ping", finish("stop"), done}, "a", model.StopEndTurn},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, sse(tt.events...))
			r := collect(t, f.provider().Stream(t.Context(), model.Request{Model: "m"}))
			if r.err != nil {
				t.Fatal(r.err)
			}
			if got := r.done.Message.PlainText(); got != tt.wantText || r.text() != tt.wantText {
				t.Errorf("text = %q (chunks %q), want %q", got, r.text(), tt.wantText)
			}
			if r.done.StopReason != tt.wantStop {
				t.Errorf("stop reason = %q, want %q", r.done.StopReason, tt.wantStop)
			}
			if r.done.Message.Blocks == nil || r.done.Message.Role != model.RoleAssistant {
				t.Errorf("message = %+v, want assistant blocks", r.done.Message)
			}
		})
	}
}

func TestBrokenStreams(t *testing.T) {
	tests := []struct {
		name        string
		reply       http.HandlerFunc
		wantClass   model.ErrorClass
		wantStarted bool
		wantText    string
	}{
		{"malformed first event", sse(`{"choices":[`), model.ClassStream, false, ""},
		{"malformed event after text", sse(text("a"), `not json`), model.ClassStream, true, "a"},
		{"event that is not an object", sse(`[1,2]`), model.ClassStream, false, ""},
		{"body ends before anything", sse(), model.ClassNetwork, false, ""},
		{"body ends after text", sse(text("a"), text("b")), model.ClassStream, true, "ab"},
		{"connection cut before anything", cut(), model.ClassNetwork, false, ""},
		{"connection cut after text", cut(text("a")), model.ClassStream, true, "a"},
		{"connection cut mid event", cutRaw("data: " + text("a") + "\n\ndata: {\"choi"), model.ClassStream, true, "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, tt.reply)
			r := collect(t, f.provider().Stream(t.Context(), model.Request{Model: "m"}))
			e := modelError(t, r.err)
			if e.Class != tt.wantClass || e.Started != tt.wantStarted {
				t.Errorf("error %v: class %q started %v, want %q %v", e, e.Class, e.Started, tt.wantClass, tt.wantStarted)
			}
			if r.text() != tt.wantText {
				t.Errorf("text before the error = %q, want %q", r.text(), tt.wantText)
			}
		})
	}
}

// cut returns a reply that streams payloads and then drops the connection
// in the middle of the chunked body.
func cut(payloads ...string) http.HandlerFunc {
	var b strings.Builder
	for _, p := range payloads {
		fmt.Fprintf(&b, "data: %s\n\n", p)
	}
	return cutRaw(b.String())
}

// cutRaw returns a reply that writes raw and then drops the connection.
func cutRaw(raw string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		fmt.Fprint(w, raw)
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}
}

func TestErrorEventInStream(t *testing.T) {
	tests := []struct {
		name        string
		events      []string
		wantClass   model.ErrorClass
		wantStatus  int
		wantStarted bool
	}{
		{"server error after text", []string{text("a"), `{"error":{"message":"The server had an error","type":"server_error","code":null}}`}, model.ClassServer, 500, true},
		{"vLLM numeric code", []string{`{"error":{"object":"error","message":"boom","type":"InternalServerError","code":500}}`}, model.ClassServer, 500, false},
		{"rate limit", []string{`{"error":{"message":"slow down","type":"requests","code":"rate_limit_exceeded"}}`}, model.ClassRateLimit, 429, false},
		{"overflow", []string{`{"error":{"message":"too long","code":"context_length_exceeded"}}`}, model.ClassContextOverflow, 400, false},
		{"unknown", []string{text("a"), `{"error":"it broke"}`}, model.ClassStream, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, sse(tt.events...))
			r := collect(t, f.provider().Stream(t.Context(), model.Request{Model: "m"}))
			e := modelError(t, r.err)
			if e.Class != tt.wantClass || e.Status != tt.wantStatus || e.Started != tt.wantStarted {
				t.Errorf("error %v: class %q status %d started %v, want %q %d %v", e, e.Class, e.Status, e.Started, tt.wantClass, tt.wantStatus, tt.wantStarted)
			}
			var ae *openai.APIError
			if !errors.As(r.err, &ae) || ae.Message == "" {
				t.Errorf("error does not wrap an *openai.APIError with a message: %v", r.err)
			}
		})
	}
}

func TestSSEEventFieldError(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: "+text("a")+"\n\nevent: error\ndata: {\"message\":\"overloaded\",\"type\":\"overloaded_error\"}\n\n")
	})
	r := collect(t, f.provider().Stream(t.Context(), model.Request{Model: "m"}))
	e := modelError(t, r.err)
	if e.Class != model.ClassOverloaded || !e.Started || e.Message != "overloaded" {
		t.Errorf("error = %+v, want overloaded, started, message %q", e, "overloaded")
	}
}

func TestCancelMidStreamStopsPromptly(t *testing.T) {
	closed := make(chan struct{})
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		defer close(closed)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\n\n", text("first"))
		w.(http.Flusher).Flush()
		<-r.Context().Done() // the server would go on forever
	})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var got []string
	var err error
	start := time.Now()
	for c, e := range f.provider().Stream(ctx, model.Request{Model: "m"}) {
		if e != nil {
			err = e
			continue
		}
		got = append(got, c.Text)
		cancel()
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want context.Canceled", err)
	}
	if !reflect.DeepEqual(got, []string{"first"}) {
		t.Errorf("chunks = %q, want just the first", got)
	}
	<-closed // the request was torn down, or the handler would still wait
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("cancellation took %v", d)
	}
}

func TestBreakingOutReleasesTheRequest(t *testing.T) {
	closed := make(chan struct{})
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		defer close(closed)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\n\n", text("first"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	for range f.provider().Stream(t.Context(), model.Request{Model: "m"}) {
		break
	}
	<-closed
}

func TestConcurrentStreamsShareOneProvider(t *testing.T) {
	const n = 8
	replies := make([]http.HandlerFunc, n)
	for i := range replies {
		replies[i] = sse(text("a"), toolStart(0, "", "t"), toolArgs(0, "{}"), finish("tool_calls"), done)
	}
	f := newFake(t, replies...)
	p := f.provider()
	ids := make(chan string, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for c, err := range p.Stream(t.Context(), model.Request{Model: "m"}) {
				if err != nil {
					t.Error(err)
					return
				}
				if c.Kind == model.ChunkDone {
					ids <- c.Message.Blocks[1].ID
				}
			}
		})
	}
	wg.Wait()
	close(ids)
	seen := map[string]bool{}
	for id := range ids {
		if id == "" || seen[id] {
			t.Errorf("generated tool call id %q is empty or repeated", id)
		}
		seen[id] = true
	}
	if len(seen) != n {
		t.Errorf("%d streams finished, want %d", len(seen), n)
	}
}
