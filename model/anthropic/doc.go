// Package anthropic is a [model.Provider] for Anthropic's Messages API,
// built on the official Go SDK (github.com/anthropics/anthropic-sdk-go/v2).
// It lives in its own package so that programs that never talk to Anthropic
// never compile the SDK.
//
//	p := anthropic.New(anthropic.Options{}) // key from ANTHROPIC_API_KEY
//	for chunk, err := range p.Stream(ctx, model.Request{Model: "claude-sonnet-4-5", Messages: msgs}) {
//		…
//	}
//
// # Configuration
//
// The API key is [Options.APIKey], else the environment variable
// ANTHROPIC_API_KEY; the endpoint is [Options.BaseURL], else
// ANTHROPIC_BASE_URL, else the SDK's production endpoint. Both are read once,
// by [New]. No other environment variable, profile or credential file is
// consulted. Without a key [New] still returns a Provider, whose every
// request fails with a [model.ClassAuth] error wrapping [ErrNoAPIKey] before
// anything is sent; [Provider.CheckKey] reports that case up front.
//
// The SDK client never retries (it is built with zero retries): wrap the
// provider with [model.WithRetry] for that.
//
// # Requests
//
// A [model.Request] becomes a Messages API request as follows.
//   - max_tokens is Request.MaxTokens, else [Options.DefaultMaxTokens], else
//     the model's documented output limit ([MaxOutputTokens]: 128,000 for
//     Claude Opus 4.6 and later, 64,000 for the 4.5 models, …), else
//     [FallbackMaxTokens] (4096) for a model the table does not know.
//     The API refuses a request whose input and max_tokens together
//     exceed the window; the engine lowers a turn's max_tokens to fit
//     (see the engine package's "The answer's room").
//   - System-role messages are left out of messages and their text is
//     appended to Request.System, separated by a blank line. Assistant
//     messages keep their role; every other role is sent as user.
//   - Blocks map as text→text, tool_call→tool_use, tool_result→tool_result
//     (with is_error when set, and no content when empty), native→the
//     block's own JSON when its Provider is "anthropic" (others are left
//     out), compaction→{"type":"compaction","content":…}. Blocks of unknown
//     types are left out, and so is a message left with no blocks.
//   - Tool input schemas are sent without their top-level "$schema" member.
//   - Temperature, TopP and Stop are forwarded; Seed is ignored.
//   - tool_choice is sent only when there are tools and Request.ToolChoice
//     is not the zero value: auto, none, required as "any", and a named
//     tool as {"type":"tool","name":…}.
//   - Prompt caching: the system prompt is sent as one text block marked
//     cache_control ephemeral; with no system prompt the last tool is marked;
//     with neither, the request's top-level cache_control is set.
//
// # Streams
//
// Text deltas are yielded as [model.ChunkText] as they arrive. A tool call's
// input JSON is accumulated and yielded as one [model.ChunkToolCall] when its
// block stops; input that is not valid JSON (a call cut off by max_tokens)
// becomes {}. Blocks of any other type (thinking, server tools, types newer
// than this package) are kept in the final message as native blocks with
// Provider "anthropic" and the block's complete JSON as Data, so they can be
// sent back as they were. Usage, including cache reads and writes, comes from
// message_start and message_delta. The stream ends with [model.ChunkDone]
// when message_stop arrives.
//
// # Errors
//
// Failures are *[model.Error] values:
//   - an HTTP error response is classified by [model.ClassifyStatus] from its
//     status and the API's error message, with RetryAfter from the
//     Retry-After header (seconds or an HTTP date);
//   - an error event inside the stream is classified as the status its error
//     type stands for (overloaded_error as 529, rate_limit_error as 429,
//     api_error as 500, …), and Status is that status;
//   - a failure to connect is [model.ClassNetwork], and so is a stream that
//     breaks or ends without message_stop before any chunk was yielded;
//     after the first chunk it is [model.ClassStream];
//   - a malformed or out-of-order event is [model.ClassStream]: among them
//     a second message_start, a content block event before message_start or
//     without an index, and a delta or stop for a block that has stopped,
//     so that the chunks always agree with the final message.
//
// Started is set when the failure came after the first chunk was yielded.
// When the caller's context ends, the stream yields the context's error
// as it is.
package anthropic
