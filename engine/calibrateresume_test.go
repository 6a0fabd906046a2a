package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/anthropictest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/anthropic"
	"github.com/lite-agent/lite-agent-go/session"
)

// TestResumedSessionIsEstimatedAsCalibrated: a session whose provider
// (counting no tokens) counts twice the engine's estimate is calibrated
// by its first turn; a new engine over the same log (the CLI run again,
// a resume) should send its next request within the window too, refused
// by none. It does not: the calibration lives in memory, the session
// log records no usage (an assistant record holds its message only, in
// the format the TypeScript SDK reads too), so the new engine estimates
// plainly and its first request is refused once (1 failure), then
// retried within the count the refusal states. Rebuilding the
// calibration on load needs a format addition, left to the maintainers.
func TestResumedSessionIsEstimatedAsCalibrated(t *testing.T) {
	t.Skip("open: the session log records no usage to calibrate a new process's first request by")
	srv := anthropictest.New(t, anthropictest.Options{Window: sonnetWindow})
	cp := session.NewMemoryCheckpointer()
	seedTokens(t, cp, "s", 150_000)
	newEngine := func() *engine.Engine {
		eng, err := engine.New(engine.Options{
			Provider:     anthropic.New(anthropic.Options{APIKey: "test-key", BaseURL: srv.URL, HTTPClient: srv.Client()}),
			Model:        sonnet,
			Checkpointer: cp,
			Context:      &engine.ContextOptions{},
		})
		if err != nil {
			t.Fatal(err)
		}
		return eng
	}
	if _, err := turnEvents(t, newEngine(), strings.Repeat("p", 2_000)); err != nil {
		t.Fatal(err)
	}
	refused := srv.Refused()
	eng2 := newEngine()
	if _, err := turnEvents(t, eng2, strings.Repeat("p", 2_000)); err != nil {
		t.Fatal(err)
	}
	if n := srv.Refused() - refused; n != 0 {
		t.Errorf("the resumed session's turn: %d requests refused as too long: %+v", n, srv.Sent())
	}
}

// TestCalibrationOutlivesTheSessionCache: the calibration of a session
// outlives its cached state: after turns on more sessions than the
// engine caches (eight), the session's next request is estimated at the
// ratio its last answered one had and refused by none. The cached state
// took the calibration with it: the next request was estimated plainly,
// at half the provider's count, and refused as too long.
func TestCalibrationOutlivesTheSessionCache(t *testing.T) {
	for _, tc := range []struct {
		name  string
		leave func(t *testing.T, eng *engine.Engine)
	}{
		{"evicted", func(t *testing.T, eng *engine.Engine) {
			for i := range 100 { // each turn past the eighth drops one state at random
				for _, err := range eng.Turn(t.Context(), fmt.Sprintf("other%d", i), model.UserText("hello")) {
					if err != nil {
						t.Fatal(err)
					}
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := anthropictest.New(t, anthropictest.Options{Window: sonnetWindow})
			eng := sonnetEngine(t, srv, false, engine.Options{Context: &engine.ContextOptions{}}, 150_000)
			if _, err := turnEvents(t, eng, strings.Repeat("p", 2_000)); err != nil {
				t.Fatal(err)
			}
			tc.leave(t, eng)
			refused := srv.Refused()
			if _, err := turnEvents(t, eng, strings.Repeat("p", 2_000)); err != nil {
				t.Fatal(err)
			}
			if n := srv.Refused() - refused; n != 0 {
				sent := srv.Sent()
				t.Errorf("the session's next turn: %d requests refused as too long: %+v", n, sent[len(sent)-n-1:])
			}
		})
	}
}
