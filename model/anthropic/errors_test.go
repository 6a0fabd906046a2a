package anthropic

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/lite-agent/lite-agent-go/model"
)

var question = model.Request{Model: "claude-test", Messages: []model.Message{model.UserText("q")}}

func TestHTTPErrorsAreClassifiedAndNotRetriedBySDK(t *testing.T) {
	htmlPage := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		io.WriteString(w, "<html><body>"+strings.Repeat("bad gateway ", 200)+"</body></html>")
	}
	for _, tc := range []struct {
		name       string
		reply      http.HandlerFunc
		class      model.ErrorClass
		status     int
		retryAfter time.Duration
		message    string // a part of the message
	}{
		{"RateLimitWithRetryAfter", errorReply(429, "rate_limit_error", "Number of requests has exceeded your rate limit", "Retry-After", "7"),
			model.ClassRateLimit, 429, 7 * time.Second, "rate limit"},
		{"Overloaded529", errorReply(529, "overloaded_error", "Overloaded"), model.ClassOverloaded, 529, 0, "Overloaded"},
		{"Unavailable503", errorReply(503, "api_error", "try later", "Retry-After", "2"), model.ClassOverloaded, 503, 2 * time.Second, "try later"},
		{"Server500", errorReply(500, "api_error", "Internal server error"), model.ClassServer, 500, 0, "Internal"},
		{"ProxyHTMLPageBounded", htmlPage, model.ClassServer, 502, 0, "<html><body>bad gateway"},
		{"Unauthorized401", errorReply(401, "authentication_error", "invalid x-api-key"), model.ClassAuth, 401, 0, "invalid x-api-key"},
		{"Forbidden403", errorReply(403, "permission_error", "not allowed"), model.ClassAuth, 403, 0, "not allowed"},
		{"PromptTooLong", errorReply(400, "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum"),
			model.ClassContextOverflow, 400, 0, "prompt is too long"},
		{"InputAndMaxTokensExceedContextLimit", errorReply(400, "invalid_request_error", "input length and `max_tokens` exceed context limit: 197626 + 8192 > 200000, decrease input length or `max_tokens` and try again"),
			model.ClassContextOverflow, 400, 0, "exceed context limit"},
		{"RequestTooLarge413", errorReply(413, "request_too_large", "Request exceeds the maximum allowed number of bytes"),
			model.ClassContextOverflow, 413, 0, "maximum allowed"},
		{"OtherBadRequest", errorReply(400, "invalid_request_error", "messages: field required"), model.ClassBadRequest, 400, 0, "field required"},
		{"NotFound", errorReply(404, "not_found_error", "model: claude-nope"), model.ClassBadRequest, 404, 0, "claude-nope"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, tc.reply, sse(textEvents("must not be requested")...))
			r := collect(t, api.provider(Options{}).Stream(t.Context(), question))
			e := modelError(t, r.err)
			if e.Class != tc.class || e.Status != tc.status || e.RetryAfter != tc.retryAfter || e.Started {
				t.Errorf("error = %+v, want class %s, status %d, RetryAfter %v, not started", e, tc.class, tc.status, tc.retryAfter)
			}
			if !strings.Contains(e.Message, tc.message) {
				t.Errorf("message %q does not contain %q", e.Message, tc.message)
			}
			if len(e.Message) > maxMessage+len("…") {
				t.Errorf("message is %d bytes long, want at most %d", len(e.Message), maxMessage)
			}
			if strings.Contains(e.Error(), testKey) {
				t.Errorf("error %q shows the API key", e.Error())
			}
			var apiErr *sdk.Error
			if !errors.As(r.err, &apiErr) || apiErr.StatusCode != tc.status {
				t.Errorf("error does not unwrap to the SDK's *Error with status %d", tc.status)
			}
			if n := len(api.requests()); n != 1 {
				t.Errorf("%d requests, want 1: the SDK must not retry", n)
			}
		})
	}
}

func TestRateLimitThenSuccessThroughWithRetry(t *testing.T) {
	api := newFakeAPI(t,
		errorReply(429, "rate_limit_error", "slow down", "Retry-After", "1"),
		sse(textEvents("after ", "waiting")...),
	)
	var retries []error
	p := model.WithRetry(api.provider(Options{}), model.RetryOptions{
		MaxRetries:    2,
		BaseDelay:     time.Millisecond,
		MaxRetryAfter: time.Millisecond, // keep the test fast; the parsed value is checked below
		OnRetry:       func(_ int, err error, _ time.Duration) { retries = append(retries, err) },
	})
	r := collect(t, p.Stream(t.Context(), question))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.done.Message.PlainText() != "after waiting" || r.text() != "after waiting" {
		t.Errorf("answer = %q (chunks %q)", r.done.Message.PlainText(), r.text())
	}
	if len(retries) != 1 {
		t.Fatalf("%d retries, want 1", len(retries))
	}
	e := modelError(t, retries[0])
	if e.Class != model.ClassRateLimit || e.RetryAfter != time.Second || e.Started || !e.Retryable() {
		t.Errorf("retried error = %+v, want a retryable rate_limit with RetryAfter 1s", e)
	}
	if n := len(api.requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

func TestErrorAfterPartialStreamIsStartedAndNotRetried(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply http.HandlerFunc
		class model.ErrorClass
	}{
		{"OverloadedEvent", sse(messageStart(3, 0, 0), textStart(0), textDelta(0, "Once upon"), streamError("overloaded_error", "Overloaded")), model.ClassOverloaded},
		{"APIErrorEvent", sse(messageStart(3, 0, 0), textStart(0), textDelta(0, "Once upon"), streamError("api_error", "Internal server error")), model.ClassServer},
		{"ConnectionDropped", func(w http.ResponseWriter, r *http.Request) {
			writeSSE(w, messageStart(3, 0, 0), textStart(0), textDelta(0, "Once upon"))
			panic(http.ErrAbortHandler)
		}, model.ClassStream},
		{"EndedWithoutMessageStop", sse(messageStart(3, 0, 0), textStart(0), textDelta(0, "Once upon")), model.ClassStream},
	} {
		for _, retry := range []bool{false, true} {
			name := tc.name
			if retry {
				name += "/WithRetry"
			}
			t.Run(name, func(t *testing.T) {
				api := newFakeAPI(t, tc.reply, sse(textEvents("must not be requested")...))
				var p model.Provider = api.provider(Options{})
				if retry {
					p = model.WithRetry(p, model.RetryOptions{BaseDelay: time.Millisecond})
				}
				r := collect(t, p.Stream(t.Context(), question))
				if r.text() != "Once upon" {
					t.Errorf("text before the failure = %q", r.text())
				}
				e := modelError(t, r.err)
				if e.Class != tc.class || !e.Started || e.Retryable() {
					t.Errorf("error = %+v, want class %s, started, not retryable", e, tc.class)
				}
				if n := len(api.requests()); n != 1 {
					t.Errorf("%d requests, want 1", n)
				}
			})
		}
	}
}

func TestFailureBeforeFirstChunkIsNotStarted(t *testing.T) {
	for _, tc := range []struct {
		name   string
		reply  http.HandlerFunc
		class  model.ErrorClass
		status int
	}{
		{"OverloadedEvent", sse(messageStart(3, 0, 0), ping(), streamError("overloaded_error", "Overloaded")), model.ClassOverloaded, 529},
		{"RateLimitEvent", sse(streamError("rate_limit_error", "slow down")), model.ClassRateLimit, 429},
		{"OverflowEvent", sse(messageStart(3, 0, 0), streamError("invalid_request_error", "prompt is too long: 1 > 0")), model.ClassContextOverflow, 400},
		{"UnknownErrorType", sse(messageStart(3, 0, 0), streamError("cosmic_ray_error", "bit flip")), model.ClassStream, 0},
		{"ErrorEventNotJSON", sse(messageStart(3, 0, 0), event("error", "upstream exploded")), model.ClassStream, 0},
		{"ConnectionDropped", func(w http.ResponseWriter, r *http.Request) {
			writeSSE(w, messageStart(3, 0, 0), textStart(0))
			panic(http.ErrAbortHandler)
		}, model.ClassNetwork, 0},
		{"EmptyBody", sse(), model.ClassNetwork, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, tc.reply)
			r := collect(t, api.provider(Options{}).Stream(t.Context(), question))
			if len(r.chunks) != 0 {
				t.Errorf("chunks = %+v, want none", r.chunks)
			}
			e := modelError(t, r.err)
			if e.Class != tc.class || e.Status != tc.status || e.Started {
				t.Errorf("error = %+v, want class %s, status %d, not started", e, tc.class, tc.status)
			}
		})
	}
}

func TestMalformedEventIsStreamError(t *testing.T) {
	for _, tc := range []struct {
		name    string
		events  []string
		started bool
	}{
		{"BrokenJSONFirst", []string{event("message_start", `{"type":"message_start","message":{`)}, false},
		{"BrokenJSONAfterText", []string{messageStart(1, 0, 0), textStart(0), textDelta(0, "hi"), event("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"`)}, true},
		{"DeltaForBlockNeverStarted", []string{messageStart(1, 0, 0), textDelta(3, "hi")}, false},
		{"BlockStartedOutOfOrder", []string{messageStart(1, 0, 0), textStart(0), textDelta(0, "hi"), textStart(5)}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, sse(tc.events...))
			r := collect(t, api.provider(Options{}).Stream(t.Context(), question))
			e := modelError(t, r.err)
			if e.Class != model.ClassStream || e.Started != tc.started {
				t.Errorf("error = %+v, want class stream, started %v", e, tc.started)
			}
		})
	}
}

func TestNetworkErrorBeforeResponse(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there now
	p := New(Options{APIKey: testKey, BaseURL: url})
	r := collect(t, p.Stream(t.Context(), question))
	e := modelError(t, r.err)
	if e.Class != model.ClassNetwork || e.Status != 0 || e.Started || !e.Retryable() {
		t.Errorf("error = %+v, want a retryable network error", e)
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		header string
		want   time.Duration
	}{
		{"7", 7 * time.Second},
		{" 120 ", 2 * time.Minute},
		{"1.5", 1500 * time.Millisecond},
		{"0", 0},
		{"-3", 0},
		{"", 0},
		{"soon", 0},
		{"NaN", 0},
		{"1e300", 0},
		{now.Add(30 * time.Second).Format(http.TimeFormat), 30 * time.Second},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0},
		{"Sunday, 01-Mar-26 12:01:00 GMT", time.Minute}, // RFC 850
	} {
		if got := retryAfter(tc.header, now); got != tc.want {
			t.Errorf("retryAfter(%q) = %v, want %v", tc.header, got, tc.want)
		}
	}

	// And from a response, relative to the provider's clock.
	api := newFakeAPI(t, errorReply(429, "rate_limit_error", "later", "Retry-After", now.Add(45*time.Second).Format(http.TimeFormat)))
	p := api.provider(Options{})
	p.now = func() time.Time { return now }
	e := modelError(t, collect(t, p.Stream(t.Context(), question)).err)
	if e.RetryAfter != 45*time.Second {
		t.Errorf("RetryAfter = %v, want 45s", e.RetryAfter)
	}
}

func TestMissingKeyFailsBeforeSending(t *testing.T) {
	api := newFakeAPI(t)
	t.Setenv(EnvAPIKey, "")
	p := New(Options{BaseURL: api.srv.URL, HTTPClient: api.srv.Client()})
	for name, err := range map[string]error{
		"CheckKey": p.CheckKey(),
		"Stream":   collect(t, p.Stream(t.Context(), question)).err,
	} {
		e := modelError(t, err)
		if e.Class != model.ClassAuth || !errors.Is(err, ErrNoAPIKey) || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
			t.Errorf("%s: error %v, want class auth wrapping ErrNoAPIKey and naming ANTHROPIC_API_KEY", name, err)
		}
		if e.Retryable() {
			t.Errorf("%s: a missing key is retryable", name)
		}
	}
	if n := len(api.requests()); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
}

func TestCheckKeyResultCannotBeChangedByCaller(t *testing.T) {
	t.Setenv(EnvAPIKey, "")
	p := New(Options{})
	e := modelError(t, p.CheckKey())
	e.Class = model.ClassServer
	if again := modelError(t, p.CheckKey()); again.Class != model.ClassAuth {
		t.Errorf("after a caller changed its copy, CheckKey class = %s", again.Class)
	}
}

func TestKeyAndBaseURLFromEnvironment(t *testing.T) {
	api := newFakeAPI(t, sse(textEvents("from env")...))
	t.Setenv(EnvAPIKey, testKey)
	t.Setenv(EnvBaseURL, api.srv.URL)
	p := New(Options{}) // the provider's own HTTP client
	if err := p.CheckKey(); err != nil {
		t.Fatal(err)
	}
	r := collect(t, p.Stream(t.Context(), question))
	if r.err != nil || r.done.Message.PlainText() != "from env" {
		t.Fatalf("err %v, done %+v", r.err, r.done)
	}
}

func TestOptionsOverrideEnvironment(t *testing.T) {
	api := newFakeAPI(t, sse(textEvents("from options")...))
	decoy := newFakeAPI(t) // fails the test if it gets a request
	t.Setenv(EnvAPIKey, "wrong-key")
	t.Setenv(EnvBaseURL, decoy.srv.URL)
	p := New(Options{APIKey: testKey, BaseURL: api.srv.URL})
	r := collect(t, p.Stream(t.Context(), question))
	if r.err != nil || r.done.Message.PlainText() != "from options" {
		t.Fatalf("err %v, done %+v", r.err, r.done)
	}
}

func TestBaseURLWithPathPrefix(t *testing.T) {
	var path string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path = r.URL.Path
		sse(textEvents("ok")...)(w, r)
	}))
	defer srv.Close()
	p := New(Options{APIKey: testKey, BaseURL: srv.URL + "/proxy/anthropic"})
	if r := collect(t, p.Stream(t.Context(), question)); r.err != nil {
		t.Fatal(r.err)
	}
	if path != "/proxy/anthropic/v1/messages" {
		t.Errorf("request path = %q, want /proxy/anthropic/v1/messages", path)
	}
}

func TestMalformedBaseURLFailsBeforeSending(t *testing.T) {
	for _, tc := range []struct{ opt, env, name string }{
		{"not a url", "", "Options.BaseURL"},
		{"", "localhost:8080", "ANTHROPIC_BASE_URL"},
		{"http://[::1", "", "Options.BaseURL"},
	} {
		t.Setenv(EnvBaseURL, tc.env)
		p := New(Options{APIKey: testKey, BaseURL: tc.opt})
		e := modelError(t, p.CheckKey())
		if e.Class != model.ClassBadRequest || !strings.Contains(e.Message, tc.name) {
			t.Errorf("base URL %q/%q: error %v, want bad_request naming %s", tc.opt, tc.env, e, tc.name)
		}
		if err := collect(t, p.Stream(t.Context(), question)).err; !model.IsClass(err, model.ClassBadRequest) {
			t.Errorf("Stream error = %v, want bad_request", err)
		}
	}
}
