package openai_test

import (
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/openai"
)

func TestHTTPErrorsAreClassified(t *testing.T) {
	tests := []struct {
		name       string
		reply      http.HandlerFunc
		wantClass  model.ErrorClass
		wantStatus int
		wantMsg    string
		wantCode   string
		wantAfter  time.Duration
	}{
		{
			name:       "429 with Retry-After seconds",
			reply:      status(429, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`, "Retry-After", "7"),
			wantClass:  model.ClassRateLimit,
			wantStatus: 429, wantMsg: "Rate limit reached", wantCode: "rate_limit_exceeded", wantAfter: 7 * time.Second,
		},
		{
			name:       "429 with retry-after-ms",
			reply:      status(429, `{"error":{"message":"slow down"}}`, "Retry-After-Ms", "1500", "Retry-After", "2"),
			wantClass:  model.ClassRateLimit,
			wantStatus: 429, wantMsg: "slow down", wantAfter: 1500 * time.Millisecond,
		},
		{
			name:       "429 insufficient quota is not retryable",
			reply:      status(429, `{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}`),
			wantClass:  model.ClassBadRequest,
			wantStatus: 429, wantMsg: "You exceeded your current quota", wantCode: "insufficient_quota",
		},
		{
			name:       "400 context_length_exceeded",
			reply:      status(400, `{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`),
			wantClass:  model.ClassContextOverflow,
			wantStatus: 400, wantMsg: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.", wantCode: "context_length_exceeded",
		},
		{
			name:       "400 overflow told only by the code",
			reply:      status(400, `{"error":{"message":"Request rejected","code":"context_length_exceeded"}}`),
			wantClass:  model.ClassContextOverflow,
			wantStatus: 400, wantMsg: "Request rejected", wantCode: "context_length_exceeded",
		},
		{
			name:       "400 overflow told only by the message (vLLM)",
			reply:      status(400, `{"object":"error","message":"This model's maximum context length is 4096 tokens.","type":"BadRequestError","param":null,"code":400}`),
			wantClass:  model.ClassContextOverflow,
			wantStatus: 400, wantMsg: "This model's maximum context length is 4096 tokens.", wantCode: "400",
		},
		{
			name:       "400 other",
			reply:      status(400, `{"error":{"message":"Invalid value for 'temperature'","type":"invalid_request_error","param":"temperature"}}`),
			wantClass:  model.ClassBadRequest,
			wantStatus: 400, wantMsg: "Invalid value for 'temperature'",
		},
		{
			name:       "401",
			reply:      status(401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`),
			wantClass:  model.ClassAuth,
			wantStatus: 401, wantMsg: "Incorrect API key provided", wantCode: "invalid_api_key",
		},
		{
			name:       "403",
			reply:      status(403, `{"error":{"message":"Country not supported"}}`),
			wantClass:  model.ClassAuth,
			wantStatus: 403, wantMsg: "Country not supported",
		},
		{
			name:       "404 with a string error (Ollama)",
			reply:      status(404, `{"error":"model \"llama9\" not found, try pulling it first"}`),
			wantClass:  model.ClassBadRequest,
			wantStatus: 404, wantMsg: `model "llama9" not found, try pulling it first`,
		},
		{
			name:       "422 with a detail (FastAPI)",
			reply:      status(422, `{"detail":"messages: field required"}`),
			wantClass:  model.ClassBadRequest,
			wantStatus: 422, wantMsg: "messages: field required",
		},
		{
			name:       "500",
			reply:      status(500, `{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}`),
			wantClass:  model.ClassServer,
			wantStatus: 500, wantMsg: "The server had an error while processing your request.",
		},
		{
			name:       "502 HTML page",
			reply:      status(502, "<html>\n<body>Bad   Gateway</body>\n</html>", "Content-Type", "text/html"),
			wantClass:  model.ClassServer,
			wantStatus: 502, wantMsg: "<html> <body>Bad Gateway</body> </html>",
		},
		{
			name:       "503 empty body",
			reply:      status(503, ""),
			wantClass:  model.ClassOverloaded,
			wantStatus: 503, wantMsg: "Service Unavailable",
		},
		{
			name:       "413",
			reply:      status(413, "too big"),
			wantClass:  model.ClassContextOverflow,
			wantStatus: 413, wantMsg: "too big",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, tt.reply)
			r := collect(t, f.provider().Stream(t.Context(), model.Request{Model: "m"}))
			e := modelError(t, r.err)
			if e.Class != tt.wantClass || e.Status != tt.wantStatus || e.Message != tt.wantMsg || e.RetryAfter != tt.wantAfter || e.Started {
				t.Errorf("error = %+v\nwant class %q status %d message %q retry after %v, not started", e, tt.wantClass, tt.wantStatus, tt.wantMsg, tt.wantAfter)
			}
			var ae *openai.APIError
			if !errors.As(r.err, &ae) || ae.Status != tt.wantStatus || ae.Code != tt.wantCode {
				t.Errorf("wrapped APIError = %+v, want status %d code %q", ae, tt.wantStatus, tt.wantCode)
			}
			if len(r.chunks) != 0 {
				t.Errorf("chunks before the error: %+v", r.chunks)
			}
		})
	}
}

func TestLongErrorBodyIsBounded(t *testing.T) {
	f := newFake(t, status(500, strings.Repeat("x", 10000)))
	r := collect(t, f.provider().Stream(t.Context(), model.Request{Model: "m"}))
	if e := modelError(t, r.err); len(e.Message) > 600 || !strings.HasSuffix(e.Message, "…") {
		t.Errorf("message of %d bytes: %.40q…", len(e.Message), e.Message)
	}
}

func TestServerErrorIsSentOnceWithoutRetries(t *testing.T) {
	f := newFake(t, status(500, `{"error":{"message":"boom"}}`))
	r := collect(t, f.provider().Stream(t.Context(), model.Request{Model: "m"}))
	if e := modelError(t, r.err); e.Class != model.ClassServer || !e.Retryable() {
		t.Errorf("error = %+v, want a retryable server error", e)
	}
	if n := len(f.requests()); n != 1 {
		t.Errorf("%d requests sent, want 1: the provider must not retry", n)
	}
}

func TestRateLimitThenSuccessThroughWithRetry(t *testing.T) {
	f := newFake(t,
		status(429, `{"error":{"message":"Rate limit reached"}}`, "Retry-After-Ms", "5"),
		sse(text("fine"), finish("stop"), usage(3, 1, 0), done),
	)
	var retries []error
	p := model.WithRetry(f.provider(), model.RetryOptions{
		BaseDelay: time.Millisecond,
		OnRetry:   func(_ int, err error, _ time.Duration) { retries = append(retries, err) },
	})
	r := collect(t, p.Stream(t.Context(), model.Request{Model: "m"}))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.done.Message.PlainText() != "fine" {
		t.Errorf("answer = %q", r.done.Message.PlainText())
	}
	if len(retries) != 1 || !model.IsClass(retries[0], model.ClassRateLimit) {
		t.Errorf("retries = %v, want one after a rate limit", retries)
	}
	if n := len(f.requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

func TestFailureAfterPartialStreamIsNotRetried(t *testing.T) {
	for name, reply := range map[string]http.HandlerFunc{
		"connection cut": cut(text("partial")),
		"error object":   sse(text("partial"), `{"error":{"message":"The server had an error","type":"server_error"}}`),
	} {
		t.Run(name, func(t *testing.T) {
			f := newFake(t, reply, sse(text("again"), finish("stop"), done))
			p := model.WithRetry(f.provider(), model.RetryOptions{BaseDelay: time.Millisecond})
			r := collect(t, p.Stream(t.Context(), model.Request{Model: "m"}))
			e := modelError(t, r.err)
			if !e.Started || e.Retryable() {
				t.Errorf("error = %+v, want started and not retryable", e)
			}
			if r.text() != "partial" {
				t.Errorf("text = %q, want the partial text only", r.text())
			}
			if n := len(f.requests()); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
}

func TestConnectionRefusedIsANetworkError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	p := openai.New(openai.Options{BaseURL: "http://" + addr + "/v1"})
	r := collect(t, p.Stream(t.Context(), model.Request{Model: "m"}))
	if e := modelError(t, r.err); e.Class != model.ClassNetwork || e.Started || !e.Retryable() {
		t.Errorf("error = %+v, want a retryable network error", e)
	}
}

func TestJSONInsteadOfAStream(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		wantClass model.ErrorClass
	}{
		{"error object", `{"error":{"message":"Rate limit","type":"rate_limit_error"}}`, model.ClassRateLimit},
		{"whole completion", `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}`, model.ClassStream},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, status(200, tt.body, "Content-Type", "application/json"))
			r := collect(t, f.provider().Stream(t.Context(), model.Request{Model: "m"}))
			if e := modelError(t, r.err); e.Class != tt.wantClass || e.Started {
				t.Errorf("error = %+v, want class %q, not started", e, tt.wantClass)
			}
		})
	}
}
