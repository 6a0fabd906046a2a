package anthropic

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
)

// countAPI serves the token counting endpoint with reply and records the
// request bodies.
func countAPI(t *testing.T, reply http.HandlerFunc) (*httptest.Server, *[]map[string]any) {
	t.Helper()
	var bodies []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/messages/count_tokens" || keyOf(r.Header) != testKey {
			t.Errorf("got %s %s (key %q)", r.Method, r.URL.Path, keyOf(r.Header))
		}
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Errorf("body %s: %v", raw, err)
		}
		bodies = append(bodies, body)
		reply(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &bodies
}

func TestCountTokensAsksTheCountEndpoint(t *testing.T) {
	srv, bodies := countAPI(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"input_tokens":1234}`)
	})
	p := New(Options{APIKey: testKey, BaseURL: srv.URL, HTTPClient: srv.Client()}).WithTokenCounting()
	tc, ok := model.AsTokenCounter(model.WithRetry(p, model.RetryOptions{}))
	if !ok {
		t.Fatal("a CountingProvider is not found as a TokenCounter")
	}
	n, err := tc.CountTokens(t.Context(), model.Request{
		Model:    "claude-test",
		System:   "Be brief.",
		Messages: []model.Message{model.UserText("hello")},
		Tools:    []model.ToolSpec{{Name: "echo", Description: "Echoes.", InputSchema: json.RawMessage(`{"type":"object"}`)}},
	})
	if err != nil || n != 1234 {
		t.Fatalf("count %d, %v", n, err)
	}
	b := (*bodies)[0]
	if b["model"] != "claude-test" || len(b["messages"].([]any)) != 1 || len(b["tools"].([]any)) != 1 || b["max_tokens"] != nil || b["stream"] != nil {
		t.Errorf("request body %v", b)
	}
	if sys, _ := b["system"].([]any); len(sys) != 1 || sys[0].(map[string]any)["text"] != "Be brief." {
		t.Errorf("system %v", b["system"])
	}
	if _, ok := model.AsTokenCounter(New(Options{APIKey: testKey})); ok {
		t.Error("a plain Provider counts tokens")
	}
}

func TestCountTokensClassifiesErrors(t *testing.T) {
	srv, _ := countAPI(t, errorReply(http.StatusTooManyRequests, "rate_limit_error", "slow down"))
	p := New(Options{APIKey: testKey, BaseURL: srv.URL, HTTPClient: srv.Client()}).WithTokenCounting()
	_, err := p.CountTokens(t.Context(), model.Request{Model: "m", Messages: []model.Message{model.UserText("hi")}})
	if !model.IsClass(err, model.ClassRateLimit) {
		t.Errorf("error %v, want a rate limit", err)
	}
	if _, err := New(Options{APIKey: "", BaseURL: srv.URL}).WithTokenCounting().CountTokens(t.Context(), model.Request{}); !model.IsClass(err, model.ClassAuth) {
		t.Errorf("no key: %v", err)
	}
}

func TestContextWindowOfClaudeModels(t *testing.T) {
	p := New(Options{APIKey: testKey})
	for m, want := range map[string]int{"claude-sonnet-4-5": 200000, "claude-3-haiku-20240307": 200000, "gpt-4.1": 0, "": 0} {
		if got := p.ContextWindow(m); got != want {
			t.Errorf("ContextWindow(%q) = %d, want %d", m, got, want)
		}
	}
	if wr, ok := model.AsWindowReporter(p.WithTokenCounting()); !ok || wr.ContextWindow("claude-x") != 200000 {
		t.Error("a CountingProvider does not report windows")
	}
}
