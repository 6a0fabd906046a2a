package openai_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/openai"
)

// fake is an OpenAI-compatible server: it checks every request against the
// rules that hold for all of them and answers with its replies in turn.
type fake struct {
	t       *testing.T
	srv     *httptest.Server
	replies []http.HandlerFunc

	mu   sync.Mutex
	reqs []recorded // guarded by mu
}

// recorded is one request the fake received.
type recorded struct {
	header http.Header
	body   map[string]any
	raw    []byte
}

func newFake(t *testing.T, replies ...http.HandlerFunc) *fake {
	t.Helper()
	f := &fake{t: t, replies: replies}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		f.t.Errorf("request %s %s, want POST /v1/chat/completions", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		f.t.Errorf("Content-Type = %q", ct)
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		f.t.Errorf("read request: %v", err)
		return
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		f.t.Errorf("request is not a JSON object: %v\n%s", err, raw)
	}
	checkRequest(f.t, body)
	f.mu.Lock()
	n := len(f.reqs)
	f.reqs = append(f.reqs, recorded{header: r.Header.Clone(), body: body, raw: raw})
	f.mu.Unlock()
	if n >= len(f.replies) {
		f.t.Errorf("unexpected request #%d", n+1)
		http.Error(w, "unexpected", http.StatusTeapot)
		return
	}
	f.replies[n](w, r)
}

// requests returns the requests received so far.
func (f *fake) requests() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.reqs...)
}

// provider returns a provider for the fake with the key "test-key".
func (f *fake) provider() *openai.Provider {
	return openai.New(openai.Options{APIKey: "test-key", BaseURL: f.srv.URL + "/v1"})
}

// checkRequest checks what every request must satisfy.
func checkRequest(t *testing.T, body map[string]any) {
	t.Helper()
	if body["stream"] != true {
		t.Errorf("stream = %v, want true", body["stream"])
	}
	if so, _ := body["stream_options"].(map[string]any); so["include_usage"] != true {
		t.Errorf("stream_options = %v, want include_usage true", body["stream_options"])
	}
	if _, ok := body["model"].(string); !ok {
		t.Errorf("model = %v, want a string", body["model"])
	}
	msgs, _ := body["messages"].([]any)
	for i, m := range msgs {
		msg, _ := m.(map[string]any)
		switch msg["role"] {
		case "system":
			if i != 0 {
				t.Errorf("system message at %d, want only first", i)
			}
		case "tool":
			if id, _ := msg["tool_call_id"].(string); id == "" {
				t.Errorf("tool message %d has no tool_call_id", i)
			}
		case "assistant":
			calls, _ := msg["tool_calls"].([]any)
			for _, c := range calls {
				call, _ := c.(map[string]any)
				fn, _ := call["function"].(map[string]any)
				if _, ok := fn["arguments"].(string); !ok || call["type"] != "function" {
					t.Errorf("assistant tool call %v: want type function and string arguments", call)
				}
			}
		case "user":
		default:
			t.Errorf("message %d has role %v", i, msg["role"])
		}
		if _, ok := msg["content"].(string); !ok {
			t.Errorf("message %d content = %v, want a string", i, msg["content"])
		}
	}
	if _, ok := body["tool_choice"]; ok {
		if tools, _ := body["tools"].([]any); len(tools) == 0 {
			t.Errorf("tool_choice sent without tools")
		}
	}
	if mt, ok := body["max_tokens"]; ok && mt.(float64) <= 0 {
		t.Errorf("max_tokens = %v sent", mt)
	}
}

// sse returns a reply that streams the given data payloads as events,
// flushing after each.
func sse(payloads ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		for _, p := range payloads {
			fmt.Fprintf(w, "data: %s\n\n", p)
			w.(http.Flusher).Flush()
		}
	}
}

// status returns a reply with the given status, headers (name, value
// pairs) and body.
func status(code int, body string, header ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

const done = "[DONE]"

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// text is a chunk with a content delta.
func text(s string) string {
	return `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":` + jsonString(s) + `},"finish_reason":null}],"usage":null}`
}

// finish is a chunk with an empty delta and a finish_reason.
func finish(reason string) string {
	return `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":` + jsonString(reason) + `}],"usage":null}`
}

// usage is the last chunk of a stream with include_usage.
func usage(prompt, completion, cached int) string {
	return fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d,"prompt_tokens_details":{"cached_tokens":%d}}}`, prompt, completion, prompt+completion, cached)
}

// toolStart is the first fragment of the tool call at index: id and name.
func toolStart(index int, id, name string) string {
	return fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"id":%q,"type":"function","function":{"name":%q,"arguments":""}}]},"finish_reason":null}]}`, index, id, name)
}

// toolArgs is a fragment of arguments of the tool call at index.
func toolArgs(index int, args string) string {
	return fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"function":{"arguments":%s}}]},"finish_reason":null}]}`, index, jsonString(args))
}

// result is what one stream yielded.
type result struct {
	chunks []model.Chunk // every chunk, ChunkDone included
	done   *model.Chunk  // the ChunkDone, if any
	err    error         // the error, if any
}

// text returns the concatenated ChunkText texts.
func (r result) text() string {
	var s string
	for _, c := range r.chunks {
		if c.Kind == model.ChunkText {
			s += c.Text
		}
	}
	return s
}

// toolCalls returns the blocks of the ChunkToolCall chunks.
func (r result) toolCalls() []model.Block {
	var out []model.Block
	for _, c := range r.chunks {
		if c.Kind == model.ChunkToolCall {
			out = append(out, c.Block)
		}
	}
	return out
}

// collect ranges over seq, checking that it ends with exactly one
// ChunkDone or one error and yields nothing after it.
func collect(t *testing.T, seq iter.Seq2[model.Chunk, error]) result {
	t.Helper()
	var r result
	for c, err := range seq {
		if r.done != nil || r.err != nil {
			t.Fatalf("stream yielded after its end: %+v, %v", c, err)
		}
		if err != nil {
			r.err = err
			continue
		}
		r.chunks = append(r.chunks, c)
		if c.Kind == model.ChunkDone {
			r.done = &r.chunks[len(r.chunks)-1]
		}
	}
	if r.done == nil && r.err == nil {
		t.Fatalf("stream ended with neither ChunkDone nor an error")
	}
	return r
}

// modelError returns err as a *model.Error, failing the test otherwise.
func modelError(t *testing.T, err error) *model.Error {
	t.Helper()
	var e *model.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *model.Error", err, err)
	}
	return e
}

// assertJSON checks that got, a decoded JSON value, equals the JSON want.
func assertJSON(t *testing.T, what string, got any, want string) {
	t.Helper()
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want JSON for %s: %v", what, err)
	}
	if !reflect.DeepEqual(got, w) {
		gb, _ := json.Marshal(got)
		t.Errorf("%s = %s\nwant %s", what, gb, want)
	}
}
