package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
)

func TestTextStreamsAsDeltasThenDone(t *testing.T) {
	api := newFakeAPI(t, sse(
		messageStart(12, 7, 3),
		ping(),
		textStart(0),
		textDelta(0, "Hel"),
		textDelta(0, "lo, "),
		ping(),
		textDelta(0, "world"),
		blockStop(0),
		messageDelta("end_turn", 9),
		messageStop(),
	))
	p := api.provider(Options{})
	r := collect(t, p.Stream(t.Context(), model.Request{
		Model:    "claude-test",
		System:   "be brief",
		Messages: []model.Message{model.UserText("hi")},
	}))
	if r.err != nil {
		t.Fatal(r.err)
	}
	var texts []string
	for _, c := range r.chunks {
		if c.Kind != model.ChunkText {
			t.Fatalf("unexpected chunk %+v", c)
		}
		texts = append(texts, c.Text)
	}
	if fmt.Sprint(texts) != "[Hel lo,  world]" {
		t.Errorf("text chunks = %q, want each delta as it arrived", texts)
	}
	msg, _ := r.done.Message.MarshalJSON()
	if want := `{"role":"assistant","content":[{"type":"text","text":"Hello, world"}]}`; string(msg) != want {
		t.Errorf("final message = %s, want %s", msg, want)
	}
	if want := (model.Usage{InputTokens: 12, OutputTokens: 9, CacheReadTokens: 7, CacheCreationTokens: 3}); r.done.Usage != want {
		t.Errorf("usage = %+v, want %+v", r.done.Usage, want)
	}
	if r.done.StopReason != model.StopEndTurn {
		t.Errorf("stop reason = %q, want %q", r.done.StopReason, model.StopEndTurn)
	}

	reqs := api.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	b := reqs[0].Body
	jsonEqual(t, "model", b["model"], `"claude-test"`)
	jsonEqual(t, "max_tokens", b["max_tokens"], `4096`)
	jsonEqual(t, "system", b["system"], `[{"type":"text","text":"be brief","cache_control":{"type":"ephemeral"}}]`)
	jsonEqual(t, "messages", b["messages"], `[{"role":"user","content":[{"type":"text","text":"hi"}]}]`)
	for _, k := range []string{"tools", "tool_choice", "cache_control", "temperature", "top_p", "seed"} {
		if v, ok := b[k]; ok {
			t.Errorf("request has %q = %v, want none", k, v)
		}
	}
}

func TestUsageFromMessageDeltaOverridesMessageStart(t *testing.T) {
	// message_delta may restate the input counts; its figures are final.
	api := newFakeAPI(t, sse(
		messageStart(100, 0, 0),
		textStart(0), textDelta(0, "x"), blockStop(0),
		event("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"input_tokens":120,"cache_read_input_tokens":40,"cache_creation_input_tokens":8,"output_tokens":30}}`),
		messageStop(),
	))
	r := collect(t, api.provider(Options{}).Stream(t.Context(), model.Request{Model: "m", Messages: []model.Message{model.UserText("q")}}))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if want := (model.Usage{InputTokens: 120, OutputTokens: 30, CacheReadTokens: 40, CacheCreationTokens: 8}); r.done.Usage != want {
		t.Errorf("usage = %+v, want %+v", r.done.Usage, want)
	}
}

func TestToolRoundTrip(t *testing.T) {
	weather := model.ToolSpec{
		Name:        "get_weather",
		Description: "Weather for a city",
		InputSchema: json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
	}
	api := newFakeAPI(t,
		sse(
			messageStart(50, 0, 40),
			textStart(0), textDelta(0, "Checking."), blockStop(0),
			toolStart(1, "toolu_01", "get_weather"),
			inputDelta(1, ""),
			inputDelta(1, `{"ci`),
			inputDelta(1, `ty": "Pa`),
			inputDelta(1, `ris"}`),
			blockStop(1),
			messageDelta("tool_use", 20),
			messageStop(),
		),
		func(w http.ResponseWriter, r *http.Request) {
			sse(textEvents("It is ", "sunny.")...)(w, r)
		},
	)
	p := api.provider(Options{})
	req := model.Request{
		Model:    "claude-test",
		Messages: []model.Message{model.UserText("Weather in Paris?")},
		Tools:    []model.ToolSpec{weather},
	}

	first := collect(t, p.Stream(t.Context(), req))
	if first.err != nil {
		t.Fatal(first.err)
	}
	if len(first.chunks) != 2 || first.chunks[0].Kind != model.ChunkText || first.chunks[1].Kind != model.ChunkToolCall {
		t.Fatalf("chunks = %+v, want a text chunk then a tool call", first.chunks)
	}
	call := first.chunks[1].Block
	if call.Type != model.BlockToolCall || call.ID != "toolu_01" || call.Name != "get_weather" {
		t.Errorf("tool call = %+v", call)
	}
	jsonEqual(t, "tool input", mustDecode(t, call.Input), `{"city":"Paris"}`)
	if first.done.StopReason != model.StopToolUse {
		t.Errorf("stop reason = %q, want %q", first.done.StopReason, model.StopToolUse)
	}
	if got := first.done.Message.Blocks; len(got) != 2 || got[1].ID != "toolu_01" || string(got[1].Input) != string(call.Input) {
		t.Errorf("final message blocks = %+v, want the text and the announced call", got)
	}

	req.Messages = append(req.Messages, first.done.Message,
		model.Message{Role: model.RoleTool, Blocks: []model.Block{model.ToolResultBlock("toolu_01", "sunny, 24°C", false)}})
	second := collect(t, p.Stream(t.Context(), req))
	if second.err != nil {
		t.Fatal(second.err)
	}
	if second.done.Message.PlainText() != "It is sunny." {
		t.Errorf("second answer = %q", second.done.Message.PlainText())
	}

	reqs := api.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	wantTools := `[{"name":"get_weather","description":"Weather for a city","input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]},"cache_control":{"type":"ephemeral"}}]`
	for i, r := range reqs {
		jsonEqual(t, fmt.Sprintf("request %d tools", i+1), r.Body["tools"], wantTools)
		if _, ok := r.Body["tool_choice"]; ok {
			t.Errorf("request %d has tool_choice, want none for the zero ToolChoice", i+1)
		}
	}
	jsonEqual(t, "second request messages", reqs[1].Body["messages"], `[
		{"role":"user","content":[{"type":"text","text":"Weather in Paris?"}]},
		{"role":"assistant","content":[
			{"type":"text","text":"Checking."},
			{"type":"tool_use","id":"toolu_01","name":"get_weather","input":{"city":"Paris"}}]},
		{"role":"user","content":[
			{"type":"tool_result","tool_use_id":"toolu_01","content":[{"type":"text","text":"sunny, 24°C"}]}]}
	]`)
}

func TestParallelToolCallsComeInOrder(t *testing.T) {
	api := newFakeAPI(t, sse(
		messageStart(30, 0, 0),
		toolStart(0, "toolu_a", "read_file"),
		toolStart(1, "toolu_b", "list_dir"),
		// Deltas of open blocks may interleave; each goes to its index.
		inputDelta(1, `{"path":`),
		inputDelta(0, `{"path":"a.txt"`),
		inputDelta(1, `"."}`),
		inputDelta(0, `}`),
		blockStop(0),
		blockStop(1),
		messageDelta("tool_use", 40),
		messageStop(),
	))
	r := collect(t, api.provider(Options{}).Stream(t.Context(), model.Request{Model: "m", Messages: []model.Message{model.UserText("go")}}))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if len(r.chunks) != 2 {
		t.Fatalf("got %d chunks, want 2 tool calls: %+v", len(r.chunks), r.chunks)
	}
	want := []struct{ id, name, input string }{
		{"toolu_a", "read_file", `{"path":"a.txt"}`},
		{"toolu_b", "list_dir", `{"path":"."}`},
	}
	blocks := r.done.Message.Blocks
	if len(blocks) != 2 {
		t.Fatalf("final message has %d blocks, want 2", len(blocks))
	}
	for i, w := range want {
		for _, b := range []model.Block{r.chunks[i].Block, blocks[i]} {
			if r.chunks[i].Kind != model.ChunkToolCall || b.Type != model.BlockToolCall || b.ID != w.id || b.Name != w.name {
				t.Errorf("call %d = %+v, want %s %s", i, b, w.id, w.name)
			}
			jsonEqual(t, "input of "+w.id, mustDecode(t, b.Input), w.input)
		}
	}
}

func TestToolCallWithoutBlockStopIsAnnouncedBeforeDone(t *testing.T) {
	api := newFakeAPI(t, sse(
		messageStart(5, 0, 0),
		toolStart(0, "toolu_x", "noop"),
		inputDelta(0, `{"a":1}`),
		messageDelta("tool_use", 3),
		messageStop(),
	))
	r := collect(t, api.provider(Options{}).Stream(t.Context(), model.Request{Model: "m", Messages: []model.Message{model.UserText("go")}}))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if len(r.chunks) != 1 || r.chunks[0].Kind != model.ChunkToolCall || r.chunks[0].Block.ID != "toolu_x" {
		t.Fatalf("chunks = %+v, want the tool call announced before done", r.chunks)
	}
	jsonEqual(t, "input", mustDecode(t, r.done.Message.Blocks[0].Input), `{"a":1}`)
}

func TestToolInputThatIsNotAnObjectBecomesEmptyObject(t *testing.T) {
	for name, parts := range map[string][]string{
		"cut off by max_tokens": {`{"path": "/tm`},
		"no input at all":       nil,
		"not an object":         {`[1,2]`},
	} {
		t.Run(name, func(t *testing.T) {
			ev := []string{messageStart(5, 0, 0), toolStart(0, "toolu_1", "write")}
			for _, p := range parts {
				ev = append(ev, inputDelta(0, p))
			}
			ev = append(ev, blockStop(0), messageDelta("max_tokens", 3), messageStop())
			api := newFakeAPI(t, sse(ev...))
			r := collect(t, api.provider(Options{}).Stream(t.Context(), model.Request{Model: "m", Messages: []model.Message{model.UserText("go")}}))
			if r.err != nil {
				t.Fatal(r.err)
			}
			if got := string(r.chunks[0].Block.Input); got != "{}" {
				t.Errorf("announced input = %s, want {}", got)
			}
			if got := string(r.done.Message.Blocks[0].Input); got != "{}" {
				t.Errorf("final input = %s, want {}", got)
			}
			if r.done.StopReason != model.StopMaxTokens {
				t.Errorf("stop reason = %q, want %q", r.done.StopReason, model.StopMaxTokens)
			}
		})
	}
}

func TestUnknownBlocksAreKeptNativeAndSentBack(t *testing.T) {
	api := newFakeAPI(t,
		sse(
			messageStart(5, 0, 0),
			event("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`),
			event("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me "}}`),
			event("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"think."}}`),
			event("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"c2ln"}}`),
			blockStop(0),
			event("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"hologram_2031","shape":{"sides":12},"note":"from the future"}}`),
			event("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"hologram_delta","x":1}}`),
			blockStop(1),
			textStart(2), textDelta(2, "done"), blockStop(2),
			messageDelta("end_turn", 8),
			messageStop(),
		),
		sse(textEvents("ok")...),
	)
	p := api.provider(Options{})
	req := model.Request{Model: "m", Messages: []model.Message{model.UserText("think")}}
	r := collect(t, p.Stream(t.Context(), req))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if len(r.chunks) != 1 || r.chunks[0].Text != "done" {
		t.Errorf("chunks = %+v, want only the text delta", r.chunks)
	}
	blocks := r.done.Message.Blocks
	if len(blocks) != 3 {
		t.Fatalf("final message has %d blocks, want 3", len(blocks))
	}
	for i, want := range []string{
		`{"type":"thinking","thinking":"Let me think.","signature":"c2ln"}`,
		`{"type":"hologram_2031","shape":{"sides":12},"note":"from the future"}`,
	} {
		if blocks[i].Type != model.BlockNative || blocks[i].Provider != "anthropic" {
			t.Errorf("block %d = %+v, want a native anthropic block", i, blocks[i])
		}
		jsonEqual(t, fmt.Sprintf("block %d data", i), mustDecode(t, blocks[i].Data), want)
	}

	// The blocks survive the session log and go back as they came.
	logged, err := r.done.Message.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var back model.Message
	if err := json.Unmarshal(logged, &back); err != nil {
		t.Fatal(err)
	}
	req.Messages = append(req.Messages, back, model.UserText("and?"))
	if r := collect(t, p.Stream(t.Context(), req)); r.err != nil {
		t.Fatal(r.err)
	}
	jsonEqual(t, "assistant message sent back", mustDecode(t, mustMarshal(t, api.requests()[1].Body["messages"].([]any)[1])), `
		{"role":"assistant","content":[
			{"type":"thinking","thinking":"Let me think.","signature":"c2ln"},
			{"type":"hologram_2031","shape":{"sides":12},"note":"from the future"},
			{"type":"text","text":"done"}]}`)
}

func TestStopReasonMapping(t *testing.T) {
	for _, tc := range []struct {
		api  string
		want model.StopReason
	}{
		{"end_turn", model.StopEndTurn},
		{"tool_use", model.StopToolUse},
		{"max_tokens", model.StopMaxTokens},
		{"stop_sequence", model.StopOther},
		{"refusal", model.StopOther},
		{"pause_turn", model.StopOther},
		{"", model.StopOther},
	} {
		if got := stopReason(tc.api); got != tc.want {
			t.Errorf("stopReason(%q) = %q, want %q", tc.api, got, tc.want)
		}
	}
	// And through a stream.
	api := newFakeAPI(t, sse(messageStart(1, 0, 0), textStart(0), textDelta(0, "x"), blockStop(0), messageDelta("refusal", 1), messageStop()))
	r := collect(t, api.provider(Options{}).Stream(t.Context(), model.Request{Model: "m", Messages: []model.Message{model.UserText("q")}}))
	if r.err != nil || r.done.StopReason != model.StopOther {
		t.Errorf("refusal: err %v, done %+v; want StopOther", r.err, r.done)
	}
}

func TestCancelMidStreamStopsPromptlyAndReleasesConnection(t *testing.T) {
	released := make(chan struct{})
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		writeSSE(w, messageStart(1, 0, 0), textStart(0), textDelta(0, "partial"))
		<-r.Context().Done() // held open until the client goes away
		close(released)
	})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	finished := make(chan result, 1)
	go func() {
		var r result
		for c, err := range api.provider(Options{}).Stream(ctx, model.Request{Model: "m", Messages: []model.Message{model.UserText("q")}}) {
			if err != nil {
				r.err = err
				continue
			}
			r.chunks = append(r.chunks, c)
			cancel()
		}
		finished <- r
	}()
	select {
	case r := <-finished:
		if len(r.chunks) != 1 || r.chunks[0].Text != "partial" {
			t.Errorf("chunks = %+v, want the one partial text", r.chunks)
		}
		if !errors.Is(r.err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", r.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("stream did not stop after its context was cancelled")
	}
	select {
	case <-released:
	case <-time.After(10 * time.Second):
		t.Fatal("the server never saw the request end")
	}
}

func TestBreakReleasesConnection(t *testing.T) {
	released := make(chan struct{})
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		writeSSE(w, messageStart(1, 0, 0), textStart(0), textDelta(0, "a"), textDelta(0, "b"))
		<-r.Context().Done()
		close(released)
	})
	n := 0
	for _, err := range api.provider(Options{}).Stream(t.Context(), model.Request{Model: "m", Messages: []model.Message{model.UserText("q")}}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		break
	}
	if n != 1 {
		t.Fatalf("got %d chunks before break, want 1", n)
	}
	select {
	case <-released:
	case <-time.After(10 * time.Second):
		t.Fatal("breaking out of the loop did not end the request")
	}
}

func TestConcurrentStreamsShareOneProvider(t *testing.T) {
	const n = 8
	replies := make([]http.HandlerFunc, n)
	for i := range replies {
		replies[i] = sse(textEvents("same ", "answer")...)
	}
	api := newFakeAPI(t, replies...)
	p := api.provider(Options{})
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			var done bool
			for c, err := range p.Stream(t.Context(), model.Request{Model: "m", Messages: []model.Message{model.UserText("q")}}) {
				if err != nil {
					t.Error(err)
					return
				}
				if c.Kind == model.ChunkDone {
					done = c.Message.PlainText() == "same answer"
				}
			}
			if !done {
				t.Error("stream ended without the expected answer")
			}
		})
	}
	wg.Wait()
	if got := len(api.requests()); got != n {
		t.Errorf("%d requests, want %d", got, n)
	}
}

func mustDecode(t *testing.T, raw []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("invalid JSON %s: %v", raw, err)
	}
	return v
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestTextChunksAddUpToTheFinalText(t *testing.T) {
	// A text block that starts with text yields it; a text delta aimed at a
	// block of another type is not text of the message and is not yielded.
	api := newFakeAPI(t, sse(
		messageStart(1, 0, 0),
		event("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"pre"}}`),
		textDelta(0, "fix"),
		blockStop(0),
		toolStart(1, "toolu_1", "f"),
		textDelta(1, "stray"),
		inputDelta(1, `{}`),
		blockStop(1),
		messageDelta("tool_use", 2),
		messageStop(),
	))
	r := collect(t, api.provider(Options{}).Stream(t.Context(), question))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.text() != "prefix" || r.done.Message.PlainText() != "prefix" {
		t.Errorf("text chunks %q, final text %q; want both %q", r.text(), r.done.Message.PlainText(), "prefix")
	}
}

func TestEventsThatWouldSplitChunksFromTheFinalMessageAreMalformed(t *testing.T) {
	noIndex := event("content_block_delta", `{"type":"content_block_delta","delta":{"type":"input_json_delta","partial_json":"x"}}`)
	for _, tc := range []struct {
		name   string
		events []string
		want   string
	}{
		{"delta without index", []string{messageStart(1, 0, 0), toolStart(0, "t1", "f"), inputDelta(0, `{"a":1}`), blockStop(0), noIndex, messageStop()}, "without an index"},
		{"delta without index before stop", []string{messageStart(1, 0, 0), toolStart(0, "t1", "f"), noIndex, blockStop(0), messageStop()}, "without an index"},
		{"stop without index", []string{messageStart(1, 0, 0), toolStart(0, "t1", "f"), event("content_block_stop", `{"type":"content_block_stop"}`), messageStop()}, "without an index"},
		{"start with a null index", []string{messageStart(1, 0, 0), event("content_block_start", `{"type":"content_block_start","index":null,"content_block":{"type":"text","text":"x"}}`), messageStop()}, "without an index"},
		{"delta after stop", []string{messageStart(1, 0, 0), toolStart(0, "t1", "f"), inputDelta(0, `{"a":1}`), blockStop(0), inputDelta(0, `}`), messageStop()}, "after its content_block_stop"},
		{"second stop", []string{messageStart(1, 0, 0), toolStart(0, "t1", "f"), blockStop(0), blockStop(0), messageStop()}, "after its content_block_stop"},
		{"second message_start", []string{messageStart(1, 0, 0), toolStart(0, "t1", "f"), blockStop(0), messageStart(1, 0, 0), toolStart(0, "t2", "f"), messageStop()}, "second message_start"},
		{"block before message_start", []string{textStart(0), textDelta(0, "x"), messageStart(1, 0, 0), messageStop()}, "before message_start"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, sse(tc.events...))
			r := collect(t, api.provider(Options{}).Stream(t.Context(), question))
			if r.err == nil {
				t.Fatalf("stream ended with %+v, want a malformed-stream error", r.done.Message)
			}
			e := modelError(t, r.err)
			if e.Class != model.ClassStream || !strings.Contains(e.Message, tc.want) {
				t.Errorf("error %v (class %s), want a %s error saying %q", e, e.Class, model.ClassStream, tc.want)
			}
			if e.Started != (len(r.chunks) > 0) {
				t.Errorf("Started = %v after %d chunks", e.Started, len(r.chunks))
			}
		})
	}
}
