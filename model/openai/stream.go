package openai

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/lite-agent/lite-agent-go/model"
)

// Stream sends req and yields the response as it streams (see the package
// doc for the mapping and the errors). Breaking out of the loop cancels the
// request and releases its connection. Each range over the result sends the
// request anew.
func (p *Provider) Stream(ctx context.Context, req model.Request) iter.Seq2[model.Chunk, error] {
	return func(yield func(model.Chunk, error) bool) {
		if err := p.CheckKey(); err != nil {
			yield(model.Chunk{}, err)
			return
		}
		b, err := body(req)
		if err != nil {
			yield(model.Chunk{}, model.NewError(model.ClassBadRequest, 0, err.Error(), err))
			return
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		resp, err := p.send(ctx, b)
		if err != nil {
			if ctx.Err() != nil {
				yield(model.Chunk{}, ctx.Err())
				return
			}
			yield(model.Chunk{}, model.NewError(model.ClassNetwork, 0, err.Error(), err))
			return
		}
		defer resp.Body.Close()
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			yield(model.Chunk{}, p.statusError(resp))
			return
		}
		if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "application/json" {
			yield(model.Chunk{}, jsonReplyError(resp))
			return
		}
		r := reader{yield: yield, newID: p.newID}
		r.read(ctx, resp.Body)
	}
}

// send posts the request body b.
func (p *Provider) send(ctx context.Context, b []byte) (*http.Response, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, p.endpoint, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "text/event-stream")
	if p.key != "" {
		hreq.Header.Set("Authorization", "Bearer "+p.key)
	}
	return p.client.Do(hreq)
}

// wireChunk is one chat.completion.chunk event, or an error event.
type wireChunk struct {
	Model   string          `json:"model"`
	Choices []wireChoice    `json:"choices"`
	Usage   *wireUsage      `json:"usage"`
	Error   json.RawMessage `json:"error"`
}

type wireChoice struct {
	Index        int       `json:"index"`
	Delta        wireDelta `json:"delta"`
	FinishReason *string   `json:"finish_reason"`
}

type wireDelta struct {
	Content   *string        `json:"content"`
	Refusal   *string        `json:"refusal"`
	ToolCalls []wireToolCall `json:"tool_calls"`
}

type wireToolCall struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name string `json:"name"`
		// Arguments is a fragment of the JSON arguments as a string; some
		// servers send the whole arguments as a JSON value instead.
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

type wireUsage struct {
	PromptTokens        int64 `json:"prompt_tokens"`
	CompletionTokens    int64 `json:"completion_tokens"`
	PromptTokensDetails *struct {
		CachedTokens int64 `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
}

// reader turns stream events into chunks. It follows the first choice
// (index 0) only.
type reader struct {
	yield   func(model.Chunk, error) bool
	newID   func() string
	started bool // a chunk has been yielded

	text     strings.Builder
	calls    []*toolCall   // in order of first appearance
	blocks   []model.Block // the tool calls, once announced
	finish   string        // the finish_reason, once it arrived
	finished bool          // a finish_reason arrived and the calls were announced
	usage    model.Usage
	model    string // the model the server named, once it did

	maxEvent int // the longest event, in bytes; 0 means 16 MiB
}

// toolCall is a tool call being accumulated.
type toolCall struct {
	index    int
	id, name string
	args     []byte          // the concatenated argument fragments
	whole    json.RawMessage // arguments sent as a JSON value, if any
}

// read reads events from body until the response is complete or fails.
func (r *reader) read(ctx context.Context, body io.Reader) {
	limit := r.maxEvent
	if limit <= 0 {
		limit = maxEvent
	}
	dec := newSSEDecoder(body, limit)
	for {
		ev, err := dec.next()
		if err != nil {
			switch {
			case ctx.Err() != nil:
				r.yield(model.Chunk{}, ctx.Err())
			case err == io.EOF && r.finished:
				// Some servers end without [DONE]; the answer is whole.
				r.done()
			case err == io.EOF:
				r.fail(model.ClassNetwork, "stream ended before the response finished", nil)
			case errors.Is(err, errEventTooLarge):
				r.fail(model.ClassStream, fmt.Sprintf("stream event larger than %d bytes", limit), err)
			default:
				r.fail(model.ClassNetwork, "stream broken: "+err.Error(), err)
			}
			return
		}
		if string(bytes.TrimSpace(ev.data)) == "[DONE]" {
			r.done()
			return
		}
		if !r.event(ev) {
			return
		}
	}
}

// event handles one event. It reports false when the stream is over: the
// caller stopped or an error was yielded.
func (r *reader) event(ev sseEvent) bool {
	var c wireChunk
	if err := json.Unmarshal(ev.data, &c); err != nil {
		r.fail(model.ClassStream, "malformed stream event: "+err.Error(), err)
		return false
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		r.yield(model.Chunk{}, eventError(c.Error, r.started))
		return false
	}
	if ev.typ == "error" {
		r.yield(model.Chunk{}, eventError(ev.data, r.started))
		return false
	}
	if c.Model != "" {
		r.model = c.Model
	}
	if c.Usage != nil {
		r.usage = model.Usage{InputTokens: c.Usage.PromptTokens, OutputTokens: c.Usage.CompletionTokens}
		if d := c.Usage.PromptTokensDetails; d != nil {
			r.usage.CacheReadTokens = d.CachedTokens
		}
	}
	for _, ch := range c.Choices {
		if ch.Index != 0 || r.finished {
			continue
		}
		for _, s := range []*string{ch.Delta.Content, ch.Delta.Refusal} {
			if s != nil && *s != "" {
				r.text.WriteString(*s)
				if !r.emit(model.Chunk{Kind: model.ChunkText, Text: *s}) {
					return false
				}
			}
		}
		for _, d := range ch.Delta.ToolCalls {
			r.toolDelta(d)
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			r.finish = *ch.FinishReason
			if !r.announce() {
				return false
			}
		}
	}
	return true
}

// toolDelta adds a tool call fragment. Fragments go to the call of their
// index; a fragment without an index goes to the call of its id, or to the
// last call when it has no id either; a fragment with a new id at an index
// already taken by another id starts a new call (servers that number every
// call 0).
func (r *reader) toolDelta(d wireToolCall) {
	var tc *toolCall
	switch {
	case d.Index != nil:
		tc = r.call(func(c *toolCall) bool { return c.index == *d.Index })
		if tc != nil && d.ID != "" && tc.id != "" && d.ID != tc.id {
			if tc = r.call(func(c *toolCall) bool { return c.id == d.ID }); tc == nil {
				tc = r.add(r.nextIndex())
			}
		}
		if tc == nil {
			tc = r.add(*d.Index)
		}
	case d.ID != "":
		if tc = r.call(func(c *toolCall) bool { return c.id == d.ID }); tc == nil {
			tc = r.add(r.nextIndex())
		}
	case len(r.calls) > 0:
		tc = r.calls[len(r.calls)-1]
	default:
		tc = r.add(0)
	}
	if tc.id == "" {
		tc.id = d.ID
	}
	if tc.name == "" {
		tc.name = d.Function.Name
	}
	switch a := bytes.TrimSpace(d.Function.Arguments); {
	case len(a) == 0 || string(a) == "null":
	case a[0] == '"':
		var s string
		if json.Unmarshal(a, &s) == nil {
			tc.args = append(tc.args, s...)
		}
	default:
		tc.whole = append(json.RawMessage(nil), a...)
	}
}

// call returns the first call f accepts, or nil.
func (r *reader) call(f func(*toolCall) bool) *toolCall {
	if i := slices.IndexFunc(r.calls, f); i >= 0 {
		return r.calls[i]
	}
	return nil
}

// nextIndex returns an index above every call's.
func (r *reader) nextIndex() int {
	n := 0
	for _, c := range r.calls {
		n = max(n, c.index+1)
	}
	return n
}

func (r *reader) add(index int) *toolCall {
	tc := &toolCall{index: index}
	r.calls = append(r.calls, tc)
	return tc
}

// announce finishes the tool calls and yields each, in index order, as a
// ChunkToolCall. Only a finish_reason (or the end of the stream) says that a
// call's arguments are complete, since servers may interleave the fragments
// of parallel calls.
func (r *reader) announce() bool {
	r.finished = true
	calls := slices.SortedStableFunc(slices.Values(r.calls), func(a, b *toolCall) int { return cmp.Compare(a.index, b.index) })
	for _, tc := range calls {
		id := tc.id
		if id == "" {
			id = r.newID()
		}
		input := tc.whole
		if input == nil {
			input = tc.args
		}
		b := model.ToolCallBlock(id, tc.name, objectOrEmpty(input))
		r.blocks = append(r.blocks, b)
		if !r.emit(model.Chunk{Kind: model.ChunkToolCall, Block: b}) {
			return false
		}
	}
	return true
}

// objectOrEmpty returns input when it is a JSON object and {} otherwise
// (arguments cut off by max_tokens, or not JSON at all).
func objectOrEmpty(input []byte) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal(input, &obj) != nil || obj == nil {
		return json.RawMessage("{}")
	}
	return append(json.RawMessage(nil), input...)
}

// done yields the ChunkDone, announcing the tool calls first if no
// finish_reason did.
func (r *reader) done() {
	if !r.finished && !r.announce() {
		return
	}
	blocks := make([]model.Block, 0, len(r.blocks)+1)
	if r.text.Len() > 0 {
		blocks = append(blocks, model.TextBlock(r.text.String()))
	}
	blocks = append(blocks, r.blocks...)
	r.yield(model.Chunk{
		Kind:       model.ChunkDone,
		Message:    model.AssistantBlocks(blocks...),
		Model:      r.model,
		Usage:      r.usage,
		StopReason: stopReason(r.finish, len(r.blocks) > 0),
	}, nil)
}

// stopReason maps a finish_reason. A "stop" that came with tool calls, as
// some servers send, and a stream that ended with [DONE] but no reason are
// read from whether there are tool calls.
func stopReason(finish string, toolCalls bool) model.StopReason {
	switch finish {
	case "stop", "":
		if toolCalls {
			return model.StopToolUse
		}
		return model.StopEndTurn
	case "tool_calls":
		return model.StopToolUse
	case "length":
		return model.StopMaxTokens
	}
	return model.StopOther
}

// emit yields c and notes that the response has started.
func (r *reader) emit(c model.Chunk) bool {
	r.started = true
	return r.yield(c, nil)
}

// fail yields an error of class c, or of class ClassStream when chunks were
// already yielded.
func (r *reader) fail(c model.ErrorClass, msg string, cause error) {
	if r.started {
		c = model.ClassStream
	}
	e := model.NewError(c, 0, msg, cause)
	e.Started = r.started
	r.yield(model.Chunk{}, e)
}
