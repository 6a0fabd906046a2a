package engine_test

import (
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/anthropictest"
)

// TestEstimatesFollowTheInputTheProviderReports: a provider that counts
// no tokens, whose tokenizer counts twice the engine's estimate (a
// quarter of the characters), reports each request's input tokens in its
// usage. A session growing by 30,000 tokens a turn (as the provider
// counts them) is compacted in time: from the second model call on the
// estimates are corrected by the input the provider reported for the
// call before, so that no request is sent over the window, and its
// max_tokens leaves the input room. The estimates were not corrected: at
// half the provider's count the levels did not start before the request
// overflowed, and the API refused it (input + max_tokens over 200,000).
func TestEstimatesFollowTheInputTheProviderReports(t *testing.T) {
	srv := anthropictest.New(t, anthropictest.Options{Window: sonnetWindow})
	eng := sonnetEngine(t, srv, false, engine.Options{Context: &engine.ContextOptions{}}, 60_000)
	var statuses []engine.ContextStatus
	for i := range 6 {
		evs, err := turnEvents(t, eng, strings.Repeat("p", 60_000)) // 30,000 tokens as the provider counts them
		if err != nil {
			t.Fatalf("turn %d: %v", i+1, err)
		}
		statuses = append(statuses, contextStatuses(evs)...)
	}
	sent := checkSentWithin(t, srv)
	if srv.Refused() != 0 {
		t.Errorf("%d requests refused as too long: %+v", srv.Refused(), sent)
	}
	compacted := false
	for _, st := range statuses {
		if st.Counted {
			t.Errorf("context status %+v: counted, but the provider counts no tokens", st)
		}
		compacted = compacted || st.Level >= 4
	}
	if !compacted {
		t.Errorf("context statuses %+v: want the session compacted (level 4) as it grew past the window", statuses)
	}
	if last := sent[len(sent)-1]; last.Input > sonnetWindow*95/100 {
		t.Errorf("last request %+v: over 95%% of the window, not compacted", last)
	}
}
