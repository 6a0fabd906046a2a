package engine_test

import (
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// Each retry of a model call by a model.WithRetry provider is a retry
// event of the turn, between the call's start and its first text.
func TestModelRetriesAreRetryEvents(t *testing.T) {
	p := modeltest.New()
	limited := model.NewError(model.ClassRateLimit, 429, "slow down", nil)
	limited.RetryAfter = 5 * time.Millisecond
	p.Fail(limited)
	p.Fail(model.NewError(model.ClassOverloaded, 529, "overloaded", nil))
	p.Reply(modeltest.Text("ok"))
	eng, err := engine.New(engine.Options{
		Provider:     model.WithRetry(p, model.RetryOptions{BaseDelay: time.Nanosecond, MaxDelay: time.Nanosecond}),
		Checkpointer: session.NewMemoryCheckpointer(),
		Model:        "test-model",
	})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []engine.EventType
	var retries []engine.Event
	for ev, err := range eng.Turn(t.Context(), "s1", model.UserText("hi")) {
		if err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, ev.Type)
		if ev.Type == engine.EventRetry {
			retries = append(retries, ev)
		}
	}
	if len(retries) != 2 {
		t.Fatalf("%d retry events, want 2: %v", len(retries), kinds)
	}
	for i, want := range []struct {
		reason string
		wait   time.Duration
		err    error
	}{{"rate limited (429)", 5 * time.Millisecond, limited}, {"overloaded (529)", 0, nil}} {
		ev := retries[i]
		if ev.Retry == nil {
			t.Fatalf("retry %d carries no Retry part", i)
		}
		rt := ev.Retry
		if rt.Attempt != i+1 || ev.Turn != 1 || rt.Reason != want.reason || (want.err != nil && ev.Err != want.err) || rt.Wait < want.wait || rt.Wait > want.wait+time.Nanosecond {
			t.Errorf("retry %d = attempt %d, turn %d, reason %q, wait %v, err %v", i, rt.Attempt, ev.Turn, rt.Reason, rt.Wait, ev.Err)
		}
	}
	start, first := -1, -1
	for i, k := range kinds {
		if k == engine.EventModelCallStart && start < 0 {
			start = i
		}
		if k == engine.EventRetry && first < 0 {
			first = i
		}
	}
	if start < 0 || first < start || kinds[first+2] != engine.EventTextDelta {
		t.Errorf("events %v: want model_call_start, retry, retry, text_delta", kinds)
	}
}
