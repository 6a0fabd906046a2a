package modeltest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// collect ranges over seq and returns its chunks and its error. It reports
// a stream that goes on after an error.
func collect(t *testing.T, seq iter.Seq2[model.Chunk, error]) ([]model.Chunk, error) {
	t.Helper()
	var chunks []model.Chunk
	var failure error
	for c, err := range seq {
		if failure != nil {
			t.Errorf("stream went on after its error %v", failure)
			break
		}
		if err != nil {
			failure = err
			continue
		}
		chunks = append(chunks, c)
	}
	return chunks, failure
}

func textChunk(s string) model.Chunk { return model.Chunk{Kind: model.ChunkText, Text: s} }

func TestResponsesAreUsedInQueueOrder(t *testing.T) {
	boom := errors.New("boom")
	late := errors.New("late")
	call := model.ToolCallBlock("c1", "write_file", json.RawMessage(`{"path":"a.txt"}`))
	p := modeltest.New()
	p.Reply(modeltest.Text("first"), modeltest.Text("second"))
	p.Fail(boom)
	p.FailAfter([]model.Chunk{textChunk("par")}, late)
	p.Respond(func(_ context.Context, req model.Request) ([]model.Chunk, error) {
		return modeltest.Text("echo " + req.Model).Chunks(), nil
	})
	p.Reply(modeltest.ToolCalls(call))
	if p.Pending() != 6 {
		t.Fatalf("Pending() = %d, want 6", p.Pending())
	}

	tests := []struct {
		chunks  []model.Chunk
		wantErr error
	}{
		{modeltest.Text("first").Chunks(), nil},
		{modeltest.Text("second").Chunks(), nil},
		{nil, boom},
		{[]model.Chunk{textChunk("par")}, late},
		{modeltest.Text("echo m4").Chunks(), nil},
		{modeltest.ToolCalls(call).Chunks(), nil},
	}
	for i, tt := range tests {
		got, err := collect(t, p.Stream(t.Context(), model.Request{Model: fmt.Sprint("m", i)}))
		if !reflect.DeepEqual(got, tt.chunks) || err != tt.wantErr {
			t.Errorf("request %d: got %+v, %v; want %+v, %v", i, got, err, tt.chunks, tt.wantErr)
		}
	}
	if p.Pending() != 0 {
		t.Errorf("Pending() = %d after using every response", p.Pending())
	}
}

func TestTextStreamsAsWordDeltas(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"hello", []string{"hello"}},
		{"hello world again", []string{"hello ", "world ", "again"}},
		{"  leading space", []string{"  ", "leading ", "space"}},
		{"lines\n\nand\ttabs ", []string{"lines\n\n", "and\t", "tabs "}},
		{"héllo wörld", []string{"héllo ", "wörld"}},
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q", tt.text), func(t *testing.T) {
			chunks := modeltest.Text(tt.text).Chunks()
			var deltas []string
			for _, c := range chunks[:len(chunks)-1] {
				if c.Kind != model.ChunkText {
					t.Fatalf("unexpected chunk %+v", c)
				}
				deltas = append(deltas, c.Text)
			}
			if !slices.Equal(deltas, tt.want) {
				t.Errorf("deltas %q, want %q", deltas, tt.want)
			}
			if strings.Join(deltas, "") != tt.text {
				t.Errorf("deltas do not add up to the text")
			}
			done := chunks[len(chunks)-1]
			if done.Kind != model.ChunkDone || !reflect.DeepEqual(done.Message, model.AssistantBlocks(model.TextBlock(tt.text))) {
				t.Errorf("final chunk %+v, want ChunkDone with one text block", done)
			}
		})
	}
}

func TestReplyChunksFollowTheMessage(t *testing.T) {
	call1 := model.ToolCallBlock("c1", "read_file", json.RawMessage(`{"path":"a"}`))
	call2 := model.ToolCallBlock("c2", "read_file", json.RawMessage(`{"path":"b"}`))
	usage := model.Usage{InputTokens: 10, OutputTokens: 3, CacheReadTokens: 7, CacheCreationTokens: 2}
	tests := []struct {
		name   string
		reply  modeltest.Reply
		chunks []model.Chunk // all but the final ChunkDone
		stop   model.StopReason
		msg    model.Message
	}{
		{"text ends the turn", modeltest.Text("hi there"), []model.Chunk{textChunk("hi "), textChunk("there")}, model.StopEndTurn, model.AssistantBlocks(model.TextBlock("hi there"))},
		{"tool calls ask for tool use", modeltest.ToolCalls(call1, call2),
			[]model.Chunk{{Kind: model.ChunkToolCall, Block: call1}, {Kind: model.ChunkToolCall, Block: call2}}, model.StopToolUse, model.AssistantBlocks(call1, call2)},
		{"text then a tool call", modeltest.Reply{Message: model.AssistantBlocks(model.TextBlock("Reading."), call1)},
			[]model.Chunk{textChunk("Reading."), {Kind: model.ChunkToolCall, Block: call1}}, model.StopToolUse, model.AssistantBlocks(model.TextBlock("Reading."), call1)},
		{"explicit stop reason and usage", modeltest.Reply{Message: model.AssistantText("cut"), StopReason: model.StopMaxTokens, Usage: usage},
			[]model.Chunk{textChunk("cut")}, model.StopMaxTokens, model.AssistantText("cut")},
		{"empty role means assistant", modeltest.Reply{Message: model.Message{Text: "x"}}, []model.Chunk{textChunk("x")}, model.StopEndTurn, model.AssistantText("x")},
		{"other blocks only in the final message", modeltest.Reply{Message: model.AssistantBlocks(model.NativeBlock("p", json.RawMessage(`{"k":1}`)))},
			nil, model.StopEndTurn, model.AssistantBlocks(model.NativeBlock("p", json.RawMessage(`{"k":1}`)))},
		{"no tool calls", modeltest.ToolCalls(), nil, model.StopEndTurn, model.AssistantBlocks()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := append(tt.chunks, model.Chunk{Kind: model.ChunkDone, Message: tt.msg, Usage: tt.reply.Usage, StopReason: tt.stop})
			p := modeltest.New()
			p.Reply(tt.reply)
			got, err := collect(t, p.Stream(t.Context(), model.Request{}))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("streamed\n%+v\nwant\n%+v", got, want)
			}
		})
	}
}

// fullRequest returns a request with every field set; each call returns an
// equal, independent value.
func fullRequest() model.Request {
	temp, topP, seed := 0.5, 0.9, int64(42)
	return model.Request{
		Model:  "m",
		System: "sys",
		Messages: []model.Message{
			model.UserText("hi"),
			model.AssistantBlocks(model.TextBlock("t"), model.ToolCallBlock("c1", "f", json.RawMessage(`{"a":1}`)), model.NativeBlock("p", json.RawMessage(`[1]`))),
			model.UserBlocks(model.ToolResultBlock("c1", "out", true)),
			model.AssistantBlocks(),
		},
		Tools:       []model.ToolSpec{{Name: "f", Description: "d", InputSchema: json.RawMessage(`{"type":"object"}`)}},
		ToolChoice:  model.ToolChoice{Mode: model.ToolChoiceTool, Name: "f"},
		MaxTokens:   100,
		Temperature: &temp,
		TopP:        &topP,
		Stop:        []string{"END"},
		Seed:        &seed,
	}
}

// scribble changes every part of r that a shallow copy would share.
func scribble(r model.Request) {
	r.Messages[0].Text = "changed"
	r.Messages[1].Blocks[0].Text = "changed"
	r.Messages[1].Blocks[1].Input[2] = 'X'
	r.Messages[1].Blocks[2].Data[1] = '9'
	r.Messages[2].Blocks[0].Content = "changed"
	r.Tools[0].Name = "changed"
	r.Tools[0].InputSchema[2] = 'X'
	r.Stop[0] = "changed"
	*r.Temperature = 2
	*r.TopP = 2
	*r.Seed = 2
}

func TestRecordedRequestsAreCopies(t *testing.T) {
	p := modeltest.New()
	p.Reply(modeltest.Text("ok"))
	req := fullRequest()
	seq := p.Stream(t.Context(), req)
	scribble(req) // after Stream, before the request is sent
	if _, err := collect(t, seq); err != nil {
		t.Fatal(err)
	}
	got := p.Requests()
	if len(got) != 1 || !reflect.DeepEqual(got[0], fullRequest()) {
		t.Fatalf("recorded %+v, want the request as it was passed to Stream", got)
	}
	if got[0].Messages[3].Blocks == nil {
		t.Errorf("an empty block list was recorded as nil")
	}
	scribble(got[0])
	if again := p.Requests(); !reflect.DeepEqual(again[0], fullRequest()) {
		t.Errorf("changing a returned request changed the record: %+v", again[0])
	}
}

func TestRespondersGetACopyOfTheRequest(t *testing.T) {
	p := modeltest.New()
	p.Respond(func(_ context.Context, req model.Request) ([]model.Chunk, error) {
		scribble(req)
		return modeltest.Text("ok").Chunks(), nil
	})
	if _, err := collect(t, p.Stream(t.Context(), fullRequest())); err != nil {
		t.Fatal(err)
	}
	if got := p.Requests(); !reflect.DeepEqual(got[0], fullRequest()) {
		t.Errorf("a responder changed the recorded request: %+v", got[0])
	}
}

func TestYieldedChunksAreCopies(t *testing.T) {
	call := model.ToolCallBlock("c1", "f", json.RawMessage(`{"a":1}`))
	shared := modeltest.ToolCalls(call).Chunks()
	p := modeltest.NewFunc(func(context.Context, model.Request) ([]model.Chunk, error) { return shared, nil })
	for range 2 {
		got, err := collect(t, p.Stream(t.Context(), model.Request{}))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, modeltest.ToolCalls(call).Chunks()) {
			t.Fatalf("streamed %+v: an earlier consumer's changes leaked", got)
		}
		got[0].Block.Input[2] = 'X'
		got[1].Message.Blocks[0].ID = "changed"
	}
}

func TestARequestCountsWhenItsStreamIsRanged(t *testing.T) {
	p := modeltest.New()
	p.Reply(modeltest.Text("a"), modeltest.Text("b"))
	seq := p.Stream(t.Context(), model.Request{Model: "m"})
	if n := len(p.Requests()); n != 0 || p.Pending() != 2 {
		t.Fatalf("before ranging: %d requests, %d pending", n, p.Pending())
	}
	for range 2 {
		if _, err := collect(t, seq); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(p.Requests()); n != 2 || p.Pending() != 0 {
		t.Errorf("after ranging twice: %d requests, %d pending; want 2 and 0", n, p.Pending())
	}
}

func TestBreakingOutUsesTheResponse(t *testing.T) {
	p := modeltest.New()
	p.Reply(modeltest.Text("one two three"), modeltest.Text("next"))
	for c, err := range p.Stream(t.Context(), model.Request{}) {
		if err != nil || c.Text != "one " {
			t.Fatalf("first chunk %+v, %v", c, err)
		}
		break
	}
	got, err := collect(t, p.Stream(t.Context(), model.Request{}))
	if err != nil || !reflect.DeepEqual(got, modeltest.Text("next").Chunks()) {
		t.Errorf("next request got %+v, %v; want the next reply", got, err)
	}
}

func TestEmptyQueueFailsClearly(t *testing.T) {
	p := modeltest.New()
	p.Reply(modeltest.Text("only"))
	if _, err := collect(t, p.Stream(t.Context(), model.Request{})); err != nil {
		t.Fatal(err)
	}
	got, err := collect(t, p.Stream(t.Context(), model.Request{Model: "second"}))
	if len(got) != 0 || !errors.Is(err, modeltest.ErrNoReply) {
		t.Fatalf("got %+v, %v; want an error wrapping ErrNoReply", got, err)
	}
	if !strings.Contains(err.Error(), "request 2") {
		t.Errorf("error %q does not say which request", err)
	}
	if model.IsRetryable(err) {
		t.Errorf("an exhausted script is retryable, so WithRetry would hide it")
	}
	if reqs := p.Requests(); len(reqs) != 2 || reqs[1].Model != "second" {
		t.Errorf("the unanswered request was not recorded: %+v", reqs)
	}
}

func TestNewFuncAnswersWhatTheQueueDoesNot(t *testing.T) {
	p := modeltest.NewFunc(func(_ context.Context, req model.Request) ([]model.Chunk, error) {
		return modeltest.Text("fallback for " + req.Model).Chunks(), nil
	})
	p.Reply(modeltest.Text("queued"))
	for i, want := range []string{"queued", "fallback for m1", "fallback for m2"} {
		got, err := collect(t, p.Stream(t.Context(), model.Request{Model: fmt.Sprint("m", i)}))
		if err != nil {
			t.Fatal(err)
		}
		if text := got[len(got)-1].Message.PlainText(); text != want {
			t.Errorf("request %d answered %q, want %q", i, text, want)
		}
	}
}

func TestContextIsHonored(t *testing.T) {
	t.Run("done before the request", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		p := modeltest.New()
		p.Reply(modeltest.Text("unused"))
		got, err := collect(t, p.Stream(ctx, model.Request{}))
		if len(got) != 0 || err != context.Canceled {
			t.Errorf("got %+v, %v; want context.Canceled alone", got, err)
		}
		if n := len(p.Requests()); n != 0 || p.Pending() != 1 {
			t.Errorf("%d requests recorded, %d pending; want 0 and 1", n, p.Pending())
		}
	})
	t.Run("done while streaming", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		p := modeltest.New()
		p.Reply(modeltest.Text("one two three"))
		var got []model.Chunk
		var failure error
		for c, err := range p.Stream(ctx, model.Request{}) {
			if err != nil {
				failure = err
				break
			}
			got = append(got, c)
			cancel()
		}
		if !reflect.DeepEqual(got, []model.Chunk{textChunk("one ")}) || failure != context.Canceled {
			t.Errorf("got %+v, %v; want the first delta, then context.Canceled", got, failure)
		}
	})
	t.Run("responders see the context", func(t *testing.T) {
		type key struct{}
		ctx := context.WithValue(t.Context(), key{}, "v")
		p := modeltest.New()
		p.Respond(func(ctx context.Context, _ model.Request) ([]model.Chunk, error) {
			if ctx.Value(key{}) != "v" {
				return nil, errors.New("responder got another context")
			}
			return modeltest.Text("ok").Chunks(), nil
		})
		if _, err := collect(t, p.Stream(ctx, model.Request{})); err != nil {
			t.Error(err)
		}
	})
}

func TestNilScriptsPanic(t *testing.T) {
	for name, f := range map[string]func(p *modeltest.Provider){
		"Fail":    func(p *modeltest.Provider) { p.Fail(nil) },
		"Respond": func(p *modeltest.Provider) { p.Respond(nil) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("%s(nil) did not panic", name)
				}
			}()
			f(modeltest.New())
		})
	}
}

func TestConcurrentRequestsEachTakeOneResponse(t *testing.T) {
	const n = 32
	p := modeltest.New()
	for i := range n {
		p.Reply(modeltest.Text(fmt.Sprint("reply ", i)))
	}
	var mu sync.Mutex
	var texts []string
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			p.Reply() // queueing nothing while others stream
			got, err := collect(t, p.Stream(t.Context(), model.Request{Model: fmt.Sprint("m", i)}))
			if err != nil {
				t.Errorf("request %d: %v", i, err)
				return
			}
			_ = p.Pending()
			_ = p.Requests()
			mu.Lock()
			texts = append(texts, got[len(got)-1].Message.PlainText())
			mu.Unlock()
		})
	}
	wg.Wait()
	slices.Sort(texts)
	var want []string
	for i := range n {
		want = append(want, fmt.Sprint("reply ", i))
	}
	slices.Sort(want)
	if !slices.Equal(texts, want) {
		t.Errorf("replies taken: %q, want each exactly once", texts)
	}
	reqs := p.Requests()
	models := make([]string, len(reqs))
	for i, r := range reqs {
		models[i] = r.Model
	}
	slices.Sort(models)
	if len(slices.Compact(models)) != n {
		t.Errorf("recorded %d distinct requests, want %d", len(slices.Compact(models)), n)
	}
}

// A Dense provider counts a token for two bytes of a request's texts, and
// answers as the Provider it wraps.
func TestDenseCountsHalfTheBytes(t *testing.T) {
	p := modeltest.Dense{Provider: modeltest.New()}
	req := model.Request{System: "ab", Messages: []model.Message{
		model.UserText("cdef"),
		{Role: model.RoleAssistant, Blocks: []model.Block{model.ToolCallBlock("c1", "read_file", json.RawMessage(`{"a":1}`))}},
	}}
	tc, ok := model.AsTokenCounter(p)
	if !ok {
		t.Fatal("Dense is not a token counter")
	}
	if n, err := tc.CountTokens(t.Context(), req); err != nil || n != (2+4+7)/2 {
		t.Errorf("CountTokens = %d, %v; want %d", n, err, (2+4+7)/2)
	}
}
