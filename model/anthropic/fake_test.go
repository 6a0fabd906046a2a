package anthropic

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
)

// testKey is the API key the fake API expects.
const testKey = "test-key"

func TestMain(m *testing.M) {
	// A provider built without a BaseURL by mistake must not reach the
	// internet: point the fallback at a local port nothing listens on.
	os.Setenv(EnvBaseURL, "http://127.0.0.1:9")
	os.Unsetenv(EnvAPIKey)
	os.Exit(m.Run())
}

// fakeAPI is an httptest server speaking the Messages API. It serves its
// replies in order, one per request, and records every request.
type fakeAPI struct {
	t   *testing.T
	srv *httptest.Server

	mu      sync.Mutex // guards the fields below
	replies []http.HandlerFunc
	reqs    []apiRequest
}

// apiRequest is one request the fake API received.
type apiRequest struct {
	Header http.Header
	Body   map[string]any
	Raw    []byte
}

// newFakeAPI starts a fake API serving replies in order; it is closed when
// the test ends.
func newFakeAPI(t *testing.T, replies ...http.HandlerFunc) *fakeAPI {
	t.Helper()
	f := &fakeAPI{t: t, replies: replies}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		f.t.Errorf("fake API: read body: %v", err)
		return
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		f.t.Errorf("fake API: request body is not a JSON object: %v\n%s", err, raw)
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		f.t.Errorf("fake API: got %s %s, want POST /v1/messages", r.Method, r.URL.Path)
	}
	if got := keyOf(r.Header); got != testKey {
		f.t.Errorf("fake API: API key %q, want %q", got, testKey)
	}
	if body["stream"] != true {
		f.t.Errorf("fake API: stream = %v, want true", body["stream"])
	}
	f.mu.Lock()
	n := len(f.reqs)
	f.reqs = append(f.reqs, apiRequest{Header: r.Header.Clone(), Body: body, Raw: raw})
	var reply http.HandlerFunc
	if n < len(f.replies) {
		reply = f.replies[n]
	}
	f.mu.Unlock()
	if reply == nil {
		f.t.Errorf("fake API: unexpected request %d", n+1)
		http.Error(w, "no reply scripted", http.StatusTeapot)
		return
	}
	reply(w, r)
}

// keyOf returns the API key a request carries, in either header the SDK
// may use.
func keyOf(h http.Header) string {
	if k := h.Get("X-Api-Key"); k != "" {
		return k
	}
	return strings.TrimPrefix(h.Get("Authorization"), "Bearer ")
}

// provider returns a Provider talking to the fake API; opts may set other
// fields.
func (f *fakeAPI) provider(opts Options) *Provider {
	if opts.APIKey == "" {
		opts.APIKey = testKey
	}
	if opts.BaseURL == "" {
		opts.BaseURL = f.srv.URL
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = f.srv.Client()
	}
	return New(opts)
}

// requests returns the requests received so far.
func (f *fakeAPI) requests() []apiRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]apiRequest(nil), f.reqs...)
}

// sse returns a reply that streams events, flushing after each.
func sse(events ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		writeSSE(w, events...)
	}
}

// writeSSE writes SSE response headers (once) and events, flushing after
// each event.
func writeSSE(w http.ResponseWriter, events ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	fl := w.(http.Flusher)
	for _, e := range events {
		io.WriteString(w, e)
		fl.Flush()
	}
}

// errorReply returns a reply with an API error body and the given headers
// (name, value pairs).
func errorReply(status int, errType, message string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"type":"error","error":{"type":%q,"message":%q}}`, errType, message)
	}
}

// event returns one SSE event.
func event(typ, data string) string {
	return "event: " + typ + "\ndata: " + data + "\n\n"
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// messageStart returns a message_start event with the given input usage.
func messageStart(input, cacheRead, cacheCreation int) string {
	return event("message_start", fmt.Sprintf(`{"type":"message_start","message":{"id":"msg_01","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":%d,"cache_read_input_tokens":%d,"cache_creation_input_tokens":%d,"output_tokens":1}}}`, input, cacheRead, cacheCreation))
}

func textStart(i int) string {
	return event("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"text","text":""}}`, i))
}

func textDelta(i int, s string) string {
	return event("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"text_delta","text":%s}}`, i, jsonString(s)))
}

func toolStart(i int, id, name string) string {
	return event("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%q,"name":%q,"input":{}}}`, i, id, name))
}

func inputDelta(i int, partial string) string {
	return event("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`, i, jsonString(partial)))
}

func blockStop(i int) string {
	return event("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i))
}

func messageDelta(stop string, output int) string {
	return event("message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q,"stop_sequence":null},"usage":{"output_tokens":%d}}`, stop, output))
}

func messageStop() string {
	return event("message_stop", `{"type":"message_stop"}`)
}

func ping() string {
	return event("ping", `{"type":"ping"}`)
}

func streamError(errType, message string) string {
	return event("error", fmt.Sprintf(`{"type":"error","error":{"type":%q,"message":%q}}`, errType, message))
}

// textEvents returns a complete response whose text arrives in parts.
func textEvents(parts ...string) []string {
	ev := []string{messageStart(10, 0, 0), textStart(0)}
	for _, p := range parts {
		ev = append(ev, textDelta(0, p))
	}
	return append(ev, blockStop(0), messageDelta("end_turn", 5), messageStop())
}

// result is a stream read to its end.
type result struct {
	chunks []model.Chunk // ChunkText and ChunkToolCall chunks, in order
	done   *model.Chunk
	err    error
}

// text returns the text of the ChunkText chunks.
func (r result) text() string {
	var b strings.Builder
	for _, c := range r.chunks {
		if c.Kind == model.ChunkText {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// collect ranges over seq to its end and checks the Provider contract: the
// stream ends with exactly one ChunkDone or one error, and nothing follows.
func collect(t *testing.T, seq iter.Seq2[model.Chunk, error]) result {
	t.Helper()
	var r result
	for c, err := range seq {
		if r.done != nil || r.err != nil {
			t.Fatalf("stream yielded (%+v, %v) after it ended", c, err)
		}
		switch {
		case err != nil:
			r.err = err
		case c.Kind == model.ChunkDone:
			r.done = &c
		case c.Kind == model.ChunkText, c.Kind == model.ChunkToolCall:
			r.chunks = append(r.chunks, c)
		default:
			t.Fatalf("stream yielded a chunk of kind %d", c.Kind)
		}
	}
	if (r.done == nil) == (r.err == nil) {
		t.Fatalf("stream ended with done=%v err=%v, want exactly one", r.done != nil, r.err)
	}
	return r
}

// modelError returns err as a *model.Error, failing the test if it is not.
func modelError(t *testing.T, err error) *model.Error {
	t.Helper()
	var e *model.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *model.Error", err, err)
	}
	return e
}

// jsonEqual reports whether got, a value decoded from JSON, equals the JSON
// text want.
func jsonEqual(t *testing.T, what string, got any, want string) {
	t.Helper()
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad expected JSON for %s: %v", what, err)
	}
	g, _ := json.Marshal(got)
	wb, _ := json.Marshal(w)
	if string(g) != string(wb) {
		t.Errorf("%s:\n got %s\nwant %s", what, g, wb)
	}
}
