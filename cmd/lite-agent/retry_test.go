package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestRunPrintsOneLinePerRetry(t *testing.T) {
	isolateEnv(t)
	var calls atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1)%2 == 1 { // every first request of a run
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"type":"error","error":{"type":"rate_limit_error","message":"Number of requests has exceeded your rate limit"}}`))
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(textReply("after the wait")))
	}))
	defer ts.Close()
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	t.Setenv("ANTHROPIC_BASE_URL", ts.URL)

	r := runCLI(t, "--home", t.TempDir(), "--workdir", t.TempDir(), "run", "hello")
	if r.code != 0 {
		t.Fatalf("run: %d %s", r.code, r.stderr)
	}
	if r.stdout != "after the wait\n" {
		t.Errorf("stdout %q", r.stdout)
	}
	if n := strings.Count(r.stderr, "retry "); n != 1 || !strings.Contains(r.stderr, "retry 1 in 1s: rate limited (429)\n") {
		t.Errorf("stderr %q, want one line %q", r.stderr, "retry 1 in 1s: rate limited (429)")
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}

	// stream-json carries the retry as an event with stable fields.
	r = runCLI(t, "--home", t.TempDir(), "--workdir", t.TempDir(), "run", "-o", "stream-json", "hello")
	if r.code != 0 {
		t.Fatalf("run: %d %s", r.code, r.stderr)
	}
	var retry map[string]any
	for _, line := range strings.Split(r.stdout, "\n") {
		var ev map[string]any
		if json.Unmarshal([]byte(line), &ev) == nil && ev["type"] == "retry" {
			retry = ev
		}
	}
	if retry == nil || retry["attempt"] != 1.0 || retry["waitMs"] != 1000.0 || retry["reason"] != "rate limited (429)" || retry["turn"] != 1.0 {
		t.Errorf("stream-json retry event = %v in:\n%s", retry, r.stdout)
	}
}

func TestWaitText(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{20 * time.Second, "20s"},
		{19600 * time.Millisecond, "20s"},
		{1500 * time.Millisecond, "1.5s"},
		{time.Second, "1s"},
		{250 * time.Millisecond, "250ms"},
		{1234567 * time.Nanosecond, "1ms"},
		{0, "0s"},
	} {
		if got := waitText(tc.d); got != tc.want {
			t.Errorf("waitText(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
