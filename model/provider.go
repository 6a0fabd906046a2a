package model

import (
	"context"
	"encoding/json"
	"iter"
)

// A Provider streams one model response for a request. Implementations live
// in sub-packages (model/anthropic, model/openai) so that a program compiles
// only the SDKs it uses; [WithRetry] adds retries around any Provider.
//
// Stream yields chunks as they arrive and ends with exactly one chunk of
// kind [ChunkDone] carrying the final message, or with an error (yielded
// once, after which the sequence stops). Errors should be *[Error] values so
// that callers can classify them. Breaking out of the loop cancels the
// request and releases its connection. The sequence may be ranged over once.
// A Provider must be safe for concurrent use.
type Provider interface {
	Stream(ctx context.Context, req Request) iter.Seq2[Chunk, error]
}

// A TokenCounter is a Provider that can count the tokens of a request
// exactly. The engine's context engine uses it when present and estimates
// from the request's text otherwise. The turn waits for CountTokens, which
// should return promptly once ctx is done. Find it with [AsTokenCounter],
// which also looks through wrappers such as [WithRetry].
type TokenCounter interface {
	CountTokens(ctx context.Context, req Request) (int, error)
}

// AsTokenCounter returns p as a [TokenCounter], or the first provider p
// wraps (through Unwrap() Provider methods) that is one.
func AsTokenCounter(p Provider) (TokenCounter, bool) { return find[TokenCounter](p) }

// find returns p, or the first provider p wraps (through Unwrap() Provider
// methods), that implements T.
func find[T any](p Provider) (T, bool) {
	for p != nil {
		if v, ok := p.(T); ok {
			return v, true
		}
		u, ok := p.(interface{ Unwrap() Provider })
		if !ok {
			break
		}
		p = u.Unwrap()
	}
	var zero T
	return zero, false
}

// A WindowReporter is a Provider that knows the context window of the
// models it serves. The engine's context engine keeps requests within it
// when the host sets no window. Find it with [AsWindowReporter].
type WindowReporter interface {
	// ContextWindow returns the context window of model in tokens, or 0
	// when it does not know the model.
	ContextWindow(model string) int
}

// AsWindowReporter returns p as a [WindowReporter], or the first provider
// p wraps (through Unwrap() Provider methods) that is one.
func AsWindowReporter(p Provider) (WindowReporter, bool) { return find[WindowReporter](p) }

// A MaxTokensReporter is a Provider that knows the max_tokens it sends
// for a request whose MaxTokens is zero. An API that counts max_tokens
// against the context window (Anthropic's) refuses such a request when
// its input leaves less room than that, so a caller that fits requests
// into the window (a summary, the engine's turns) leaves that much for
// the answer, or lowers it. Find it with [AsMaxTokensReporter].
type MaxTokensReporter interface {
	// DefaultMaxTokens returns the max_tokens sent for a request to model
	// whose MaxTokens is zero, or 0 when the provider sends none.
	DefaultMaxTokens(model string) int
}

// AsMaxTokensReporter returns p as a [MaxTokensReporter], or the first
// provider p wraps (through Unwrap() Provider methods) that is one.
func AsMaxTokensReporter(p Provider) (MaxTokensReporter, bool) { return find[MaxTokensReporter](p) }

// A CachedInputReporter is a Provider whose [Usage.InputTokens] includes
// the input read from the cache (CacheReadTokens), as OpenAI's
// prompt_tokens does, when InputIncludesCache reports true. Without it,
// InputTokens is taken to be the input neither read from nor written to
// the cache, as Anthropic's input_tokens is. [RequestInput] finds it
// through wrappers.
type CachedInputReporter interface {
	InputIncludesCache() bool
}

// RequestInput returns the input tokens of the request whose usage u is,
// as provider p reported them: u.InputTokens, plus the cache's reads and
// writes unless p says InputTokens includes them
// ([CachedInputReporter]). The engine corrects its estimates of a
// session's requests with it.
func RequestInput(p Provider, u Usage) int64 {
	if c, ok := find[CachedInputReporter](p); ok && c.InputIncludesCache() {
		return u.InputTokens
	}
	return u.InputTokens + u.CacheReadTokens + u.CacheCreationTokens
}

// Request is one model call in provider-neutral form.
type Request struct {
	// Model is the provider's model id, such as "claude-sonnet-4-5".
	Model string
	// System is the system prompt; "" sends none. System-role messages in
	// Messages are hoisted into it by providers that need that.
	System string
	// Messages is the conversation so far.
	Messages []Message
	// Tools lists the tools the model may call.
	Tools []ToolSpec
	// ToolChoice constrains tool use; the zero value lets the model decide.
	// It is sent only when Tools is not empty.
	ToolChoice ToolChoice
	// MaxTokens bounds the response; zero means the provider's default
	// (for Anthropic the model's documented output limit, else 4096;
	// unset for OpenAI-compatible servers).
	MaxTokens int
	// Temperature and TopP are forwarded when not nil.
	Temperature, TopP *float64
	// Stop lists stop sequences.
	Stop []string
	// Seed is forwarded by providers that support it when not nil.
	Seed *int64
}

// ToolSpec describes a tool to the model.
type ToolSpec struct {
	Name        string
	Description string
	// InputSchema is the JSON Schema object of the tool's input.
	InputSchema json.RawMessage
}

// ToolChoiceMode says how the model may use tools.
type ToolChoiceMode string

// The tool choice modes. The zero value means [ToolChoiceAuto].
const (
	ToolChoiceAuto     ToolChoiceMode = "auto"
	ToolChoiceNone     ToolChoiceMode = "none"
	ToolChoiceRequired ToolChoiceMode = "required"
	ToolChoiceTool     ToolChoiceMode = "tool" // call the tool named in ToolChoice.Name
)

// ToolChoice constrains tool use. The zero value means auto.
type ToolChoice struct {
	Mode ToolChoiceMode
	// Name is the tool to call when Mode is ToolChoiceTool.
	Name string
}

// ChunkKind says what a [Chunk] carries.
type ChunkKind int

// The chunk kinds.
const (
	// ChunkText carries a piece of assistant text in Chunk.Text.
	ChunkText ChunkKind = iota + 1
	// ChunkToolCall announces a complete tool call in Chunk.Block (a
	// tool_call block) as soon as its input has been received.
	ChunkToolCall
	// ChunkDone is the last chunk: Chunk.Message is the whole assistant
	// message, with Chunk.Usage and Chunk.StopReason.
	ChunkDone
)

// Chunk is one piece of a streamed response.
type Chunk struct {
	Kind ChunkKind
	// Text is the text delta of a ChunkText.
	Text string
	// Block is the tool_call block of a ChunkToolCall.
	Block Block
	// Message is the final assistant message of a ChunkDone.
	Message Message
	// Model is the id of the model that served the response, on a
	// ChunkDone, when the provider reports it; "" otherwise.
	Model string
	// Usage is the token usage of a ChunkDone.
	Usage Usage
	// StopReason is why the model stopped, on a ChunkDone.
	StopReason StopReason
}

// Usage counts the tokens of one model call. Whether InputTokens includes
// the cache's reads and writes depends on the provider ([RequestInput]
// sums what it does not).
type Usage struct {
	InputTokens         int64 `json:"inputTokens"`
	OutputTokens        int64 `json:"outputTokens"`
	CacheReadTokens     int64 `json:"cacheReadTokens,omitempty"`
	CacheCreationTokens int64 `json:"cacheCreationTokens,omitempty"`
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		InputTokens:         u.InputTokens + v.InputTokens,
		OutputTokens:        u.OutputTokens + v.OutputTokens,
		CacheReadTokens:     u.CacheReadTokens + v.CacheReadTokens,
		CacheCreationTokens: u.CacheCreationTokens + v.CacheCreationTokens,
	}
}

// StopReason says why a model stopped producing output.
type StopReason string

// The stop reasons providers' reasons are mapped to.
const (
	StopEndTurn   StopReason = "stop"       // the model finished its turn
	StopToolUse   StopReason = "tool_use"   // the model wants tool results
	StopMaxTokens StopReason = "max_tokens" // the response hit MaxTokens
	StopOther     StopReason = "other"      // anything else (refusal, stop sequence, …)
)
