// Package anthropictest serves a fake of Anthropic's Messages API for
// tests: POST /v1/messages answers with a text in Anthropic's event
// stream, or refuses a request over the model's window as too long, as
// the API does (its input alone, or its input and max_tokens together),
// its usage reporting its count of the input; POST
// /v1/messages/count_tokens counts a request's tokens
// in the API's wire format. Its tokenizer is denser than the engine's
// estimate (a quarter of the characters), as real ones are for code and
// for text that is not English.
package anthropictest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Options configures a [Server].
type Options struct {
	// Window is the model's window in tokens: a message request of more
	// input tokens (by Tokens), its max_tokens added, is refused with the
	// API's 400 "prompt is too long". Zero refuses none.
	Window int
	// Tokens counts the tokens of a text; nil means [Dense].
	Tokens func(text string) int
	// Reply is the answer to the nth message request answered (from 1);
	// nil answers "summary n".
	Reply func(n int) string
	// CountStatus, when not zero, is the HTTP status of every count
	// request, with an API error body: the count fails.
	CountStatus int
	// CountWindow, when not zero, refuses a count request of more tokens
	// as too long, as the message requests over Window are.
	CountWindow int
}

// A Server is a fake Anthropic API. Its counters are safe to read while
// it serves.
type Server struct {
	*httptest.Server
	opts Options

	mu       sync.Mutex
	counts   int
	refused  int
	answered []string // the last message's text of each request answered
	sent     []Sent   // every message request, answered or refused
}

// Sent is what the server read of one message request.
type Sent struct {
	// Input is the request's input tokens, as Options.Tokens counts them.
	Input int
	// MaxTokens is the request's max_tokens.
	MaxTokens int
	// Refused reports that the server refused it as too long.
	Refused bool
}

// New starts a Server, closed when t ends.
func New(t testing.TB, opts Options) *Server {
	t.Helper()
	if opts.Tokens == nil {
		opts.Tokens = Dense
	}
	if opts.Reply == nil {
		opts.Reply = func(n int) string { return fmt.Sprintf("summary %d", n) }
	}
	s := &Server{opts: opts}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Dense counts a token for every two ASCII characters (rounding up) and
// one for every other character: twice the estimate's count of ASCII
// text, four times its count of CJK text.
func Dense(text string) int {
	ascii, other := split(text)
	return (ascii+1)/2 + other
}

// CJK counts as tokenizers count Chinese and Japanese: a token and a half
// for every character that is not ASCII (rounding up), six times the
// estimate's count of CJK text, and a token for every two ASCII
// characters, as Dense.
func CJK(text string) int {
	ascii, other := split(text)
	return (ascii+1)/2 + (3*other+1)/2
}

// split returns the ASCII characters of text and the others.
func split(text string) (ascii, other int) {
	for _, r := range text {
		if r < 0x80 {
			ascii++
		} else {
			other++
		}
	}
	return ascii, other
}

// Counts returns the count requests served.
func (s *Server) Counts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts
}

// Refused returns the message requests refused as too long.
func (s *Server) Refused() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused
}

// Answered returns the text of the last message of each message request
// answered, in order.
func (s *Server) Answered() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.answered...)
}

// Sent returns every message request served, in order.
func (s *Server) Sent() []Sent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Sent(nil), s.sent...)
}

// body is the part of a request body the server reads.
type body struct {
	System    json.RawMessage   `json:"system"`
	Messages  []json.RawMessage `json:"messages"`
	MaxTokens int               `json:"max_tokens"`
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(r.Body)
	var b body
	if err == nil {
		err = json.Unmarshal(raw, &b)
	}
	if r.Method != http.MethodPost || err != nil {
		apiError(w, http.StatusBadRequest, "invalid_request_error", fmt.Sprintf("bad request %s %s: %v", r.Method, r.URL.Path, err))
		return
	}
	n := s.tokens(b)
	s.mu.Lock()
	defer s.mu.Unlock()
	switch r.URL.Path {
	case "/v1/messages/count_tokens":
		s.counts++
		if s.opts.CountStatus != 0 {
			apiError(w, s.opts.CountStatus, "invalid_request_error", "token counting is not available")
			return
		}
		if s.opts.CountWindow > 0 && n > s.opts.CountWindow {
			apiError(w, http.StatusBadRequest, "invalid_request_error", fmt.Sprintf("prompt is too long: %d tokens > %d maximum", n, s.opts.CountWindow))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"input_tokens":%d}`, n)
	case "/v1/messages":
		if s.opts.Window > 0 && n+b.MaxTokens > s.opts.Window {
			s.refused++
			s.sent = append(s.sent, Sent{Input: n, MaxTokens: b.MaxTokens, Refused: true})
			// The API's two messages: the input alone over the window,
			// or the input and max_tokens together.
			msg := fmt.Sprintf("prompt is too long: %d tokens > %d maximum", n, s.opts.Window)
			if n <= s.opts.Window {
				msg = fmt.Sprintf("input length and `max_tokens` exceed context limit: %d + %d > %d, decrease input length or `max_tokens` and try again", n, b.MaxTokens, s.opts.Window)
			}
			apiError(w, http.StatusBadRequest, "invalid_request_error", msg)
			return
		}
		s.sent = append(s.sent, Sent{Input: n, MaxTokens: b.MaxTokens})
		last := ""
		if len(b.Messages) > 0 {
			last = texts(b.Messages[len(b.Messages)-1])
		}
		s.answered = append(s.answered, last)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, textStream(s.opts.Reply(len(s.answered)), n))
	default:
		apiError(w, http.StatusNotFound, "not_found_error", "no such endpoint "+r.URL.Path)
	}
}

// tokens counts the tokens of the texts of b's system prompt and
// messages.
func (s *Server) tokens(b body) int {
	n := s.opts.Tokens(texts(b.System))
	for _, m := range b.Messages {
		n += s.opts.Tokens(texts(m))
	}
	return n
}

// texts returns the texts a JSON value of the API holds, joined: the
// strings under "text" and "content", and tool inputs as JSON.
func texts(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	var b strings.Builder
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch v := v.(type) {
		case string:
			if key == "text" || key == "content" || key == "" {
				b.WriteString(v)
			}
		case []any:
			for _, x := range v {
				walk(key, x)
			}
		case map[string]any:
			for k, x := range v {
				if k == "input" {
					in, _ := json.Marshal(x)
					b.Write(in)
					continue
				}
				walk(k, x)
			}
		}
	}
	walk("", v)
	return b.String()
}

func apiError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"type":"error","error":{"type":%q,"message":%q}}`, typ, msg)
}

// TextStream is the body of the Messages API's event stream of an answer
// of text, its usage of 10 input tokens.
func TextStream(text string) string { return textStream(text, 10) }

// textStream is TextStream with the usage of input input tokens, as the
// server reports its count of each request it answers.
func textStream(text string, input int) string {
	quoted, _ := json.Marshal(text)
	events := []string{
		fmt.Sprintf(`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"usage":{"input_tokens":%d,"output_tokens":0}}}`, input),
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":` + string(quoted) + `}}`,
		`{"type":"content_block_stop","index":0}`,
		`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":5}}`,
		`{"type":"message_stop"}`,
	}
	var b strings.Builder
	for _, e := range events {
		var m struct{ Type string }
		json.Unmarshal([]byte(e), &m)
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", m.Type, e)
	}
	return b.String()
}
