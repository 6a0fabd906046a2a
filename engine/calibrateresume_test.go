package engine_test

import (
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/anthropictest"
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
