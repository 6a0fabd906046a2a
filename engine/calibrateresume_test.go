package engine_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/anthropictest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/anthropic"
)

// resumedTurns runs a turn of a 2,000-character prompt on session s, a log
// of 150,000 dense tokens (twice the engine's estimate) in a directory,
// with an engine over the directory, then edit(path of the log), then
// another turn with a new engine over the directory anew (the CLI run
// again: a new process), and returns the requests the provider refused
// as too long in the second turn, and those it was sent.
func resumedTurns(t *testing.T, edit func(t *testing.T, log string)) (int, []anthropictest.Sent) {
	t.Helper()
	srv := anthropictest.New(t, anthropictest.Options{Window: sonnetWindow})
	dir := t.TempDir()
	seedTokens(t, fileCheckpointer(t, dir), "s", 150_000)
	newEngine := func() *engine.Engine {
		eng, err := engine.New(engine.Options{
			Provider:     anthropic.New(anthropic.Options{APIKey: "test-key", BaseURL: srv.URL, HTTPClient: srv.Client()}),
			Model:        sonnet,
			Checkpointer: fileCheckpointer(t, dir),
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
	edit(t, filepath.Join(dir, "s.jsonl"))
	refused, sent := srv.Refused(), len(srv.Sent())
	if _, err := turnEvents(t, newEngine(), strings.Repeat("p", 2_000)); err != nil {
		t.Fatal(err)
	}
	return srv.Refused() - refused, srv.Sent()[sent:]
}

// TestResumedSessionIsEstimatedAsCalibrated: a session whose provider
// (counting no tokens) counts twice the engine's estimate is calibrated
// by its first turn; a new engine over the same log (the CLI run again,
// a resume) sends its next request within the window too, refused by
// none: the assistant record keeps the usage and the estimate of the
// request it answered, which calibrate the new engine. The calibration
// lived in memory only: the new engine estimated plainly and its first
// request was refused once (1 failure), then retried within the count
// the refusal stated.
func TestResumedSessionIsEstimatedAsCalibrated(t *testing.T) {
	n, sent := resumedTurns(t, func(t *testing.T, log string) {
		if data := readLog(t, log); !strings.Contains(data, `"usage":{"inputTokens":`) {
			t.Errorf("the log's assistant records carry no usage:\n%.300s", data[strings.LastIndex(data, `{"type":"assistant"`):])
		}
	})
	if n != 0 {
		t.Errorf("the resumed session's turn: %d requests refused as too long: %+v", n, sent)
	}
}

// TestResumedSessionOfAnOlderVersionIsEstimatedPlainly: a log whose
// assistant records carry no usage (an older version's, the TypeScript
// reference's) resumes as before: read as ever, estimated plainly, its
// first request refused once and retried within the count the refusal
// stated.
func TestResumedSessionOfAnOlderVersionIsEstimatedPlainly(t *testing.T) {
	n, sent := resumedTurns(t, func(t *testing.T, log string) {
		old := usageMembers.ReplaceAllString(readLog(t, log), "")
		if strings.Contains(old, `"usage"`) || strings.Contains(old, `"inputEstimate"`) {
			t.Fatalf("usage left in the log:\n%s", old)
		}
		if err := os.WriteFile(log, []byte(old), 0o600); err != nil {
			t.Fatal(err)
		}
	})
	if n != 1 || len(sent) != 2 || sent[1].Refused {
		t.Errorf("the resumed session's turn: %d requests refused as too long, want 1 then one answered: %+v", n, sent)
	}
}

// usageMembers matches the usage and inputEstimate members of a log's
// assistant records.
var usageMembers = regexp.MustCompile(`,"usage":\{[^}]*\}|,"inputEstimate":\d+`)

func readLog(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestResumeAfterCompactIsMeasuredAsCalibrated: a session calibrated at
// twice the estimate, compacted (Engine.Compact: a view committed after
// its last assistant record), is measured by a new engine as the one that
// compacted it measured it after: the view keeps the session's ratio. A
// new engine measured it at the plain estimate, half as much.
func TestResumeAfterCompactIsMeasuredAsCalibrated(t *testing.T) {
	const window = 50_000
	srv := anthropictest.New(t, anthropictest.Options{Window: window})
	dir := t.TempDir()
	next := 0
	appendTurns(t, fileCheckpointer(t, dir), "s", 200, &next)
	newEngine := func() *engine.Engine {
		eng, err := engine.New(engine.Options{Provider: anthropicAt(srv, false), Checkpointer: fileCheckpointer(t, dir), Model: "claude-test",
			Context: &engine.ContextOptions{Window: window}})
		if err != nil {
			t.Fatal(err)
		}
		return eng
	}
	eng := newEngine()
	if _, err := turnEvents(t, eng, "go on"); err != nil {
		t.Fatal(err)
	}
	appendTurns(t, fileCheckpointer(t, dir), "s", 300, &next)
	first, err := eng.Compact(t.Context(), "s", engine.CompactOptions{})
	if err != nil || !first.Committed {
		t.Fatalf("Compact = %+v, %v", first, err)
	}
	again, err := newEngine().Compact(t.Context(), "s", engine.CompactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Before < first.After*9/10 {
		t.Errorf("a new engine measured the compacted session at %d tokens, the engine that compacted it at %d", again.Before, first.After)
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
