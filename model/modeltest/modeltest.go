// Package modeltest provides a scripted [model.Provider] for tests and
// examples.
//
// A [Provider] answers each request with the next response queued on it —
// a whole [Reply], a failure, a stream cut short, or a [Responder] function —
// and records every request it receives. Replies stream the same way every
// time (text split into word deltas, one chunk per tool call, then
// [model.ChunkDone]), so programs driven by it are deterministic:
//
//	p := modeltest.New()
//	p.Reply(modeltest.ToolCalls(model.ToolCallBlock("c1", "read_file", json.RawMessage(`{"path":"a.txt"}`))))
//	p.Reply(modeltest.Text("The file says hello."))
//	// … run the agent with p as its model, then inspect p.Requests().
package modeltest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"sync"
	"unicode"

	"github.com/lite-agent/lite-agent-go/model"
)

// ErrNoReply is wrapped by the error a [Provider] yields when a request
// arrives and nothing is left to answer it with.
var ErrNoReply = errors.New("modeltest: no scripted reply left")

// A Responder computes a response to one request: the chunks to stream,
// then err when it is not nil. A nil err with no [model.ChunkDone] among the
// chunks makes a stream that ends early without an error. req is a copy the
// Responder may keep.
type Responder func(ctx context.Context, req model.Request) ([]model.Chunk, error)

// Provider is a scripted [model.Provider]. Each request is answered by the
// next queued response, in the order they were queued; with the queue empty
// it is answered by the fallback [Responder] given to [NewFunc], or fails
// with an error wrapping [ErrNoReply].
//
// A request counts when its stream is ranged over, not when Stream is
// called; ranging a stream again makes a new request. A request whose
// context is already done fails with ctx.Err() and is neither recorded nor
// answered; a context that ends while a response streams ends it with
// ctx.Err().
//
// Provider is safe for concurrent use; concurrent requests take queued
// responses in the order they arrive.
type Provider struct {
	fallback Responder // fixed at construction; nil means fail

	mu sync.Mutex
	// mu guards the fields below.
	queue    []Responder
	requests []model.Request
}

var _ model.Provider = (*Provider)(nil)

// New returns a Provider with nothing queued.
func New() *Provider { return &Provider{} }

// NewFunc returns a Provider that answers with f every request the queue
// does not answer. f may be called concurrently.
func NewFunc(f Responder) *Provider { return &Provider{fallback: f} }

// Reply queues replies, each answering one request.
func (p *Provider) Reply(replies ...Reply) {
	for _, r := range replies {
		chunks := r.Chunks()
		p.push(func(context.Context, model.Request) ([]model.Chunk, error) { return chunks, nil })
	}
}

// Fail queues a failure: the request is answered by err before any chunk.
// It panics if err is nil.
func (p *Provider) Fail(err error) {
	if err == nil {
		panic("modeltest: Fail with a nil error")
	}
	p.push(func(context.Context, model.Request) ([]model.Chunk, error) { return nil, err })
}

// FailAfter queues a stream that yields chunks and then err. With err nil
// the stream simply ends after chunks, which lets tests script a provider
// that never sends [model.ChunkDone].
func (p *Provider) FailAfter(chunks []model.Chunk, err error) {
	chunks = cloneChunks(chunks)
	p.push(func(context.Context, model.Request) ([]model.Chunk, error) { return chunks, err })
}

// Respond queues f to answer one request.
func (p *Provider) Respond(f Responder) {
	if f == nil {
		panic("modeltest: Respond with a nil Responder")
	}
	p.push(f)
}

func (p *Provider) push(f Responder) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.queue = append(p.queue, f)
}

// Requests returns copies of the requests received so far, in the order
// they arrived.
func (p *Provider) Requests() []model.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]model.Request, len(p.requests))
	for i, r := range p.requests {
		out[i] = cloneRequest(r)
	}
	return out
}

// Pending returns how many queued responses have not been used yet.
func (p *Provider) Pending() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.queue)
}

// Stream answers req with the next queued response (see [Provider]). req is
// copied when Stream is called. Breaking out of the loop stops the stream;
// the response it used stays used.
func (p *Provider) Stream(ctx context.Context, req model.Request) iter.Seq2[model.Chunk, error] {
	req = cloneRequest(req)
	return func(yield func(model.Chunk, error) bool) {
		if err := ctx.Err(); err != nil {
			yield(model.Chunk{}, err)
			return
		}
		f, err := p.next(req)
		if err != nil {
			yield(model.Chunk{}, err)
			return
		}
		chunks, ferr := f(ctx, cloneRequest(req))
		for _, c := range chunks {
			if err := ctx.Err(); err != nil {
				yield(model.Chunk{}, err)
				return
			}
			if !yield(cloneChunk(c), nil) {
				return
			}
		}
		if ferr != nil {
			yield(model.Chunk{}, ferr)
		}
	}
}

// next records req and takes the responder that answers it.
func (p *Provider) next(req model.Request) (Responder, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests = append(p.requests, req)
	if len(p.queue) > 0 {
		f := p.queue[0]
		p.queue[0] = nil
		p.queue = p.queue[1:]
		return f, nil
	}
	if p.fallback != nil {
		return p.fallback, nil
	}
	return nil, fmt.Errorf("%w: request %d arrived after %d scripted responses were used", ErrNoReply, len(p.requests), len(p.requests)-1)
}

// A Reply is one scripted model response.
type Reply struct {
	// Message is the final assistant message. An empty Role means
	// [model.RoleAssistant].
	Message model.Message
	// Usage is reported on the final chunk; the zero value reports no
	// tokens.
	Usage model.Usage
	// StopReason is reported on the final chunk. Empty means
	// [model.StopToolUse] when Message holds a tool_call block and
	// [model.StopEndTurn] otherwise.
	StopReason model.StopReason
}

// Text returns a Reply whose message is one text block holding s.
func Text(s string) Reply {
	return Reply{Message: model.AssistantBlocks(model.TextBlock(s))}
}

// ToolCalls returns a Reply whose message is the given blocks, normally
// tool_call blocks made with [model.ToolCallBlock]. Its stop reason is
// [model.StopToolUse] when one of them is a tool call.
func ToolCalls(calls ...model.Block) Reply {
	return Reply{Message: model.AssistantBlocks(calls...)}
}

// Chunks returns the stream a Provider yields for r: the text of each text
// block (or the message's Text, when it has no blocks) split into deltas of
// one word with its trailing white space, a [model.ChunkToolCall] for each
// tool_call block, and a final [model.ChunkDone] carrying the message, the
// usage and the stop reason. Other blocks appear only in the final message.
func (r Reply) Chunks() []model.Chunk {
	msg := cloneMessage(r.Message)
	if msg.Role == "" {
		msg.Role = model.RoleAssistant
	}
	stop := r.StopReason
	var chunks []model.Chunk
	if msg.Blocks == nil {
		chunks = appendDeltas(chunks, msg.Text)
	}
	toolUse := false
	for _, b := range msg.Blocks {
		switch b.Type {
		case model.BlockText:
			chunks = appendDeltas(chunks, b.Text)
		case model.BlockToolCall:
			toolUse = true
			chunks = append(chunks, model.Chunk{Kind: model.ChunkToolCall, Block: cloneBlock(b)})
		}
	}
	if stop == "" {
		stop = model.StopEndTurn
		if toolUse {
			stop = model.StopToolUse
		}
	}
	return append(chunks, model.Chunk{Kind: model.ChunkDone, Message: msg, Usage: r.Usage, StopReason: stop})
}

// appendDeltas appends s to chunks as text deltas, each one word followed
// by the white space after it (leading white space forms its own delta).
func appendDeltas(chunks []model.Chunk, s string) []model.Chunk {
	for s != "" {
		word := strings.IndexFunc(s, unicode.IsSpace)
		if word < 0 {
			word = len(s)
		}
		n := len(s) - len(strings.TrimLeftFunc(s[word:], unicode.IsSpace))
		chunks = append(chunks, model.Chunk{Kind: model.ChunkText, Text: s[:n]})
		s = s[n:]
	}
	return chunks
}

// cloneRequest returns a deep copy of r.
func cloneRequest(r model.Request) model.Request {
	r.Messages = cloneMessages(r.Messages)
	if r.Tools != nil {
		tools := make([]model.ToolSpec, len(r.Tools))
		for i, t := range r.Tools {
			t.InputSchema = bytes.Clone(t.InputSchema)
			tools[i] = t
		}
		r.Tools = tools
	}
	if r.Stop != nil {
		r.Stop = append(make([]string, 0, len(r.Stop)), r.Stop...)
	}
	r.Temperature = clonePtr(r.Temperature)
	r.TopP = clonePtr(r.TopP)
	r.Seed = clonePtr(r.Seed)
	return r
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func cloneMessages(ms []model.Message) []model.Message {
	if ms == nil {
		return nil
	}
	out := make([]model.Message, len(ms))
	for i, m := range ms {
		out[i] = cloneMessage(m)
	}
	return out
}

// cloneMessage returns a deep copy of m; nil and empty Blocks stay distinct.
func cloneMessage(m model.Message) model.Message {
	if m.Blocks != nil {
		blocks := make([]model.Block, len(m.Blocks))
		for i, b := range m.Blocks {
			blocks[i] = cloneBlock(b)
		}
		m.Blocks = blocks
	}
	return m
}

func cloneBlock(b model.Block) model.Block {
	b.Input = bytes.Clone(b.Input)
	b.Data = bytes.Clone(b.Data)
	b.Raw = bytes.Clone(b.Raw)
	return b
}

func cloneChunk(c model.Chunk) model.Chunk {
	c.Block = cloneBlock(c.Block)
	c.Message = cloneMessage(c.Message)
	return c
}

func cloneChunks(cs []model.Chunk) []model.Chunk {
	if cs == nil {
		return nil
	}
	out := make([]model.Chunk, len(cs))
	for i, c := range cs {
		out[i] = cloneChunk(c)
	}
	return out
}

// Dense is a [Provider] that also counts tokens ([model.TokenCounter]),
// denser than the engine's estimate (a quarter of the characters), as a
// tokenizer of code is: a token for two bytes of a request's system
// prompt, message texts, tool results and tool inputs.
type Dense struct{ *Provider }

var _ model.TokenCounter = Dense{}

// CountTokens returns half the bytes of req's texts.
func (Dense) CountTokens(_ context.Context, req model.Request) (int, error) {
	n := len(req.System)
	for _, m := range req.Messages {
		n += len(m.Text)
		for _, b := range m.Blocks {
			n += len(b.Text) + len(b.Content) + len(b.Input)
		}
	}
	return n / 2, nil
}
