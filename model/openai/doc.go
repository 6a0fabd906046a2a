// Package openai is a [model.Provider] for OpenAI-compatible Chat
// Completions endpoints: OpenAI itself and local servers such as Ollama,
// vLLM and llama.cpp. It speaks the streaming wire format directly with the
// standard library (net/http and a small server-sent-events reader), so it
// adds no dependency to the programs that import it; it lives in its own
// package all the same, like model/anthropic, so that programs that use
// neither compile neither.
//
//	p := openai.New(openai.Options{BaseURL: "http://localhost:11434/v1"}) // Ollama, no key
//	for chunk, err := range p.Stream(ctx, model.Request{Model: "qwen3", Messages: msgs}) {
//		…
//	}
//
// # Configuration
//
// The API key is [Options.APIKey], else the environment variable
// OPENAI_API_KEY; the endpoint is [Options.BaseURL], else OPENAI_BASE_URL,
// else [DefaultBaseURL]. Both are read once, by [New]; no other OPENAI_
// variable is consulted (the default HTTP client does honour the usual proxy
// variables, HTTPS_PROXY and the like). Requests go to the endpoint plus
// "/chat/completions". The key is sent as "Authorization: Bearer …"; without
// one no Authorization header is sent, which local servers accept. Only
// OpenAI's own endpoint needs a key: without one its every request fails
// with a [model.ClassAuth] error wrapping [ErrNoAPIKey] before anything is
// sent, and [Provider.CheckKey] reports that case up front.
//
// A Provider sends each request once: it never retries. Wrap it with
// [model.WithRetry] for that.
//
// # Requests
//
// A [model.Request] becomes a Chat Completions request as follows.
//   - "stream" is true and "stream_options" asks for usage
//     ({"include_usage":true}).
//   - The first message is a system message holding Request.System and
//     the text of every system-role message, joined by a blank line; it is
//     left out when all are empty.
//   - An assistant message becomes one message whose content is its text
//     (text blocks and compaction summaries joined by "\n", or "" when
//     there is none) and whose tool_calls are its tool_call blocks, with the
//     input as a compact JSON string in "arguments" (a missing or invalid
//     input is sent as "{}"). A message with neither is left out.
//   - A message of any other role becomes a "tool" message per tool_result
//     block (its ID as tool_call_id, its Content as content; IsError is not
//     sent, the format having no place for it), followed by one user
//     message with its text (text blocks and compaction summaries joined by
//     "\n"), if it has any. A message whose content is a plain string is one
//     user message.
//   - Native blocks and blocks of unknown types are left out.
//   - Tools are sent as {"type":"function","function":{name, description,
//     parameters}}, parameters being the input schema, or an empty object
//     schema when there is none.
//   - tool_choice is sent only when there are tools and Request.ToolChoice
//     is not the zero value: "auto", "none", "required", or
//     {"type":"function","function":{"name":…}} for a named tool.
//   - max_tokens is sent only when Request.MaxTokens is not zero;
//     temperature, top_p and seed only when set; stop only when not empty.
//
// # Streams
//
// Text deltas (content, and a refusal's text) are yielded as
// [model.ChunkText] as they arrive. Tool call fragments are accumulated by
// their index: the id and the name come from the first fragment that has
// them and the argument strings are concatenated. Because servers may
// interleave the fragments of parallel calls, the calls are complete only
// when the finish_reason arrives; they are then yielded as
// [model.ChunkToolCall] chunks in index order. Arguments that are not a JSON
// object become {}. A call that arrives without an id is given a random
// one, and servers that number every call 0, leave the index out or send the
// arguments as a JSON value instead of a string are understood.
//
// The stream ends with [model.ChunkDone] at "data: [DONE]" (or when the body
// ends after a finish_reason). Its message holds one text block with all the
// text, if any, then the tool calls. Usage comes from the last usage object:
// InputTokens is prompt_tokens (which includes cached tokens), OutputTokens
// completion_tokens, CacheReadTokens prompt_tokens_details.cached_tokens.
// The finish_reason "stop" maps to [model.StopEndTurn] ([model.StopToolUse]
// when tool calls came with it, as some servers send), "tool_calls" to
// [model.StopToolUse], "length" to [model.StopMaxTokens], and any other
// reason to [model.StopOther]; a stream with no reason is read like "stop".
// Only the first choice is followed.
//
// # Errors
//
// Failures are *[model.Error] values:
//   - an HTTP error response is classified by [model.ClassifyStatus] from
//     its status and the server's message, except that the code
//     context_length_exceeded is [model.ClassContextOverflow] and
//     insufficient_quota [model.ClassBadRequest]; RetryAfter comes from
//     retry-after-ms or Retry-After (seconds or an HTTP date);
//   - an error object inside the stream is classified as the status its
//     code or type stands for (rate limits as 429, server errors as 500, …),
//     or as [model.ClassStream] when it stands for none;
//   - a failure to connect, or a connection lost or a body ended (without
//     a finish_reason or [DONE]) before any chunk was yielded, is
//     [model.ClassNetwork];
//   - a malformed event, an event larger than 16 MiB, and a connection
//     lost or a body ended early after chunks were yielded, is
//     [model.ClassStream];
//   - an invalid request (no model, an invalid tool schema, an unknown tool
//     choice) is [model.ClassBadRequest], before anything is sent.
//
// Errors the server described wrap an *[APIError] with its type and code.
// Started is set when the failure came after the first chunk was yielded.
// When the caller's context ends, the stream yields the context's error as
// it is.
package openai
