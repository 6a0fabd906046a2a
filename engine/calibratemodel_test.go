package engine_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/anthropictest"
)

// TestResumeWithAnotherModelIsEstimatedPlainly: a session calibrated by
// one model's answers (a tokenizer that counts twice the estimate), then
// resumed by a new engine of another model (the CLI run again with
// --model), is measured at its plain estimate, as a new engine measured
// any session before the calibration was logged: the ratio measured
// another tokenizer, and taken for this one it would compact a session
// the new model counts within the window (or, lower than the new one's,
// say nothing). A new engine of the same model measures it calibrated.
// Both where the ratio is the last assistant record's and where it is a
// view's that a compaction committed after it. The logged ratio was
// taken whatever the model: the other model's engine measured the
// session at twice its estimate.
func TestResumeWithAnotherModelIsEstimatedPlainly(t *testing.T) {
	const window = 50_000
	for _, compacted := range []bool{false, true} {
		before := func(t *testing.T, second string) int {
			srv := anthropictest.New(t, anthropictest.Options{Window: window})
			dir := t.TempDir()
			next := 0
			appendTurns(t, fileCheckpointer(t, dir), "s", 200, &next)
			newEngine := func(model string) *engine.Engine {
				eng, err := engine.New(engine.Options{Provider: anthropicAt(srv, false), Checkpointer: fileCheckpointer(t, dir), Model: model,
					Context: &engine.ContextOptions{Window: window}})
				if err != nil {
					t.Fatal(err)
				}
				return eng
			}
			first := newEngine("claude-a")
			if _, err := turnEvents(t, first, "go on"); err != nil {
				t.Fatal(err)
			}
			if compacted {
				if res, err := first.Compact(t.Context(), "s", engine.CompactOptions{}); err != nil || !res.Committed {
					t.Fatalf("Compact = %+v, %v", res, err)
				}
			}
			res, err := newEngine(second).Compact(t.Context(), "s", engine.CompactOptions{})
			if err != nil {
				t.Fatal(err)
			}
			return res.Before
		}
		name := "answered"
		if compacted {
			name = "compacted"
		}
		t.Run(name, func(t *testing.T) {
			same, other := before(t, "claude-a"), before(t, "claude-b")
			if other*3 > same*2 {
				t.Errorf("another model's engine measured the session at %d tokens, the same model's at %d: the ratio of another tokenizer was taken", other, same)
			}
			if same <= 0 || other <= 0 {
				t.Errorf("measures %d, %d", same, other)
			}
		})
	}
}
