package engine_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/anthropictest"
	"github.com/lite-agent/lite-agent-go/model"
)

// TestCompactMeasuresAsCalibrated: Engine.Compact on a session whose
// provider counts no tokens but reported, for the session's last
// request, twice the engine's estimate (anthropictest's tokenizer)
// measures the session as the turns do, corrected by that report, and
// plans its summary requests by it, so that the provider refuses none;
// its figures stay estimates (not counted). Compact measured plain
// estimates, half the provider's count, and sent summary requests
// planned by them, which the API refused as too long.
func TestCompactMeasuresAsCalibrated(t *testing.T) {
	const window = 50_000
	srv := anthropictest.New(t, anthropictest.Options{Window: window})
	eng, cp := countingEngine(t, anthropicAt(srv, false), window, 200)
	for _, err := range eng.Turn(t.Context(), "s", model.UserText("go on")) {
		if err != nil {
			t.Fatal(err)
		}
	}
	sent := srv.Sent()
	if len(sent) != 1 || sent[0].Refused {
		t.Fatalf("the turn's requests: %+v, want one answered", sent)
	}
	// The session grows by 300 turns more (as more turns would), about
	// 60,000 tokens as the provider counts them.
	next := 1000
	appendTurns(t, cp, "s", 300, &next)

	plainSrv := anthropictest.New(t, anthropictest.Options{Window: window})
	plainEng, plainCP := countingEngine(t, anthropicAt(plainSrv, false), window, 200)
	appendTurns(t, plainCP, "s", 1, &next)
	appendTurns(t, plainCP, "s", 300, &next)
	plain, err := plainEng.Compact(t.Context(), "s", engine.CompactOptions{})
	if err != nil {
		t.Fatal(err)
	}

	res, err := eng.Compact(t.Context(), "s", engine.CompactOptions{})
	if err != nil || !res.Committed {
		t.Fatalf("Compact = %+v, %v", res, err)
	}
	if res.BeforeCounted || res.AfterCounted || res.CountErr != nil {
		t.Errorf("result %+v: counted, but the provider counts no tokens", res)
	}
	if res.Before < plain.Before*18/10 {
		t.Errorf("Compact measured %d tokens before, the plain estimate %d: want it corrected by the provider's report (twice)", res.Before, plain.Before)
	}
	if res.SummaryErr != nil || res.After >= res.Before {
		t.Errorf("result %+v: want summarized", res)
	}
	if n := srv.Refused(); n != 0 {
		t.Errorf("%d requests refused as too long: %+v", n, srv.Sent()[1:])
	}
}
