package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

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
		params, err := p.params(req)
		if err != nil {
			yield(model.Chunk{}, model.NewError(model.ClassBadRequest, 0, err.Error(), err))
			return
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		stream := p.client.Messages.NewStreaming(ctx, params)
		defer stream.Close()

		r := reader{yield: yield}
		for stream.Next() {
			if !r.event(stream.Current()) {
				return
			}
		}
		if err := ctx.Err(); err != nil {
			yield(model.Chunk{}, err)
			return
		}
		yield(model.Chunk{}, p.streamError(stream.Err(), r.started))
	}
}

// reader turns stream events into chunks.
type reader struct {
	yield     func(model.Chunk, error) bool
	acc       sdk.Message
	started   bool           // a chunk has been yielded
	begun     bool           // message_start has come
	stopped   map[int64]bool // blocks whose content_block_stop has come, by index
	announced map[int64]bool // tool_use blocks yielded as ChunkToolCall, by index
}

// event handles one stream event. It reports false when the stream is over:
// the caller stopped, an error was yielded, or the response is complete.
func (r *reader) event(ev sdk.MessageStreamEventUnion) bool {
	err := r.check(ev)
	if err == nil {
		err = r.acc.Accumulate(ev)
	}
	if err != nil {
		e := model.NewError(model.ClassStream, 0, "malformed stream: "+err.Error(), err)
		e.Started = r.started
		r.yield(model.Chunk{}, e)
		return false
	}
	switch ev.Type {
	case "content_block_start":
		// The API starts text blocks empty, but text here is text all the same.
		if cb := &r.acc.Content[ev.Index]; cb.Type == "text" && cb.Text != "" {
			return r.emit(model.Chunk{Kind: model.ChunkText, Text: cb.Text})
		}
	case "content_block_delta":
		// Accumulate has checked the index. A text delta aimed at a block of
		// another type goes nowhere in the final message, so not out either.
		if ev.Delta.Type == "text_delta" && ev.Delta.Text != "" && r.acc.Content[ev.Index].Type == "text" {
			return r.emit(model.Chunk{Kind: model.ChunkText, Text: ev.Delta.Text})
		}
	case "content_block_stop":
		return r.announce(ev.Index)
	case "message_stop":
		for i := range r.acc.Content {
			if !r.announce(int64(i)) {
				return false
			}
		}
		r.yield(model.Chunk{
			Kind:       model.ChunkDone,
			Message:    r.message(),
			Model:      string(r.acc.Model),
			Usage:      r.usage(),
			StopReason: stopReason(string(r.acc.StopReason)),
		}, nil)
		return false
	}
	return true
}

// check refuses the events that would make the streamed chunks differ
// from the final message: a second message_start (the SDK would start the
// message over), a content block event before message_start or without a
// numeric index (the SDK would read it as block 0), and a delta or stop for
// a block that has already stopped (its tool call may have been announced
// with the input it had then).
func (r *reader) check(ev sdk.MessageStreamEventUnion) error {
	switch ev.Type {
	case "message_start":
		if r.begun {
			return errors.New("a second message_start")
		}
		r.begun = true
		return nil
	case "content_block_start", "content_block_delta", "content_block_stop":
		if !r.begun {
			return fmt.Errorf("%s before message_start", ev.Type)
		}
	default:
		return nil
	}
	if !ev.JSON.Index.Valid() {
		return fmt.Errorf("%s without an index", ev.Type)
	}
	if ev.Type == "content_block_start" {
		return nil
	}
	if r.stopped[ev.Index] {
		return fmt.Errorf("%s for content block %d after its content_block_stop", ev.Type, ev.Index)
	}
	if ev.Type == "content_block_stop" && ev.Index >= 0 && ev.Index < int64(len(r.acc.Content)) {
		if r.stopped == nil {
			r.stopped = make(map[int64]bool)
		}
		r.stopped[ev.Index] = true
	}
	return nil
}

// emit yields c and notes that the response has started.
func (r *reader) emit(c model.Chunk) bool {
	r.started = true
	return r.yield(c, nil)
}

// announce yields the block at index i as a ChunkToolCall if it is a tool
// call that has not been announced yet. Accumulate has checked the index.
func (r *reader) announce(i int64) bool {
	cb := &r.acc.Content[i]
	if cb.Type != "tool_use" || r.announced[i] {
		return true
	}
	if r.announced == nil {
		r.announced = make(map[int64]bool)
	}
	r.announced[i] = true
	return r.emit(model.Chunk{Kind: model.ChunkToolCall, Block: toolCallBlock(cb)})
}

// message returns the accumulated assistant message.
func (r *reader) message() model.Message {
	blocks := make([]model.Block, 0, len(r.acc.Content))
	for i := range r.acc.Content {
		cb := &r.acc.Content[i]
		switch cb.Type {
		case "text":
			blocks = append(blocks, model.TextBlock(cb.Text))
		case "tool_use":
			blocks = append(blocks, toolCallBlock(cb))
		default:
			raw := cb.RawJSON()
			if !json.Valid([]byte(raw)) {
				continue
			}
			blocks = append(blocks, model.NativeBlock(ProviderName, json.RawMessage(raw)))
		}
	}
	return model.AssistantBlocks(blocks...)
}

// usage returns the accumulated token counts.
func (r *reader) usage() model.Usage {
	u := r.acc.Usage
	return model.Usage{
		InputTokens:         u.InputTokens,
		OutputTokens:        u.OutputTokens,
		CacheReadTokens:     u.CacheReadInputTokens,
		CacheCreationTokens: u.CacheCreationInputTokens,
	}
}

// toolCallBlock maps a finished tool_use block. Input that is not a JSON
// object, such as a call cut off by max_tokens, becomes {}.
func toolCallBlock(cb *sdk.ContentBlockUnion) model.Block {
	in := append(json.RawMessage(nil), toolInput(cb.Input)...)
	return model.ToolCallBlock(cb.ID, cb.Name, in)
}
