package liteagent_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/anthropic"
)

// A model call that a local Anthropic-format server answers with 429 and
// then 200 is retried after its Retry-After, and the retry is an event
// that both Run and Subscribe deliver.
func TestModelRetriesAreRunAndSubscribeEvents(t *testing.T) {
	f := newFixture(t)
	var calls atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", "3")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"type":"error","error":{"type":"rate_limit_error","message":"rate limited"}}`))
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range []string{
			`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"usage":{"input_tokens":10,"output_tokens":0}}}`,
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"ok"}}`,
			`{"type":"content_block_stop","index":0}`,
			`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1}}`,
			`{"type":"message_stop"}`,
		} {
			var head struct{ Type string }
			json.Unmarshal([]byte(ev), &head)
			w.Write([]byte("event: " + head.Type + "\ndata: " + ev + "\n\n"))
		}
	}))
	defer ts.Close()

	opts := f.options(nil)
	opts.Model = anthropic.New(anthropic.Options{APIKey: "test-key", BaseURL: ts.URL})
	// Retry-After (3 s) is longer than any backoff here, so it decides the
	// wait, up to MaxRetryAfter, which keeps the test short.
	opts.Retry = model.RetryOptions{BaseDelay: time.Nanosecond, MaxDelay: time.Nanosecond, MaxRetryAfter: 20 * time.Millisecond}
	a := f.agent(t, opts)
	var mu sync.Mutex
	var noticed []liteagent.Event
	unsubscribe, err := a.Subscribe(func(n liteagent.Notice) {
		if n.Event.Type == engine.EventRetry {
			mu.Lock()
			noticed = append(noticed, n.Event)
			mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer unsubscribe()

	var retries []liteagent.Event
	var text string
	for ev, err := range a.Run(t.Context(), "hello") {
		if err != nil {
			t.Fatal(err)
		}
		switch ev.Type {
		case engine.EventRetry:
			retries = append(retries, ev)
		case engine.EventDone:
			text = ev.Result.Text
		}
	}
	if text != "ok" {
		t.Errorf("answer %q, want ok", text)
	}
	if len(retries) != 1 {
		t.Fatalf("Run yielded %d retry events, want 1", len(retries))
	}
	ev := retries[0]
	rt := ev.Retry
	if rt == nil {
		t.Fatal("retry event carries no Retry part")
	}
	if rt.Attempt != 1 || rt.Reason != "rate limited (429)" || rt.Wait != 20*time.Millisecond || ev.Turn != 1 || !model.IsClass(ev.Err, model.ClassRateLimit) {
		t.Errorf("retry event = attempt %d, reason %q, wait %v, turn %d, err %v", rt.Attempt, rt.Reason, rt.Wait, ev.Turn, ev.Err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(noticed) != 1 || noticed[0].Retry == nil || noticed[0].Retry.Attempt != 1 || noticed[0].Retry.Reason != rt.Reason {
		t.Errorf("Subscribe saw %+v, want the same retry", noticed)
	}
}
