package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// TestCalibrationIsBounded: a request that grew from the one reported is
// measured as the input reported plus its growth scaled by the ratio
// (at most twelve times, never under one: content added may be denser
// than what was reported); a smaller one (after a compaction) as its
// estimate scaled by the ratio, never under one; a report under half the
// estimate is not taken (not the request's whole input); a usage without
// input calibrates nothing.
func TestCalibrationIsBounded(t *testing.T) {
	p := modeltest.New()
	for _, tt := range []struct {
		name     string
		estimate int
		use      model.Usage
		ratio    float64
		apply    map[int]int // estimate → corrected
	}{
		{"none reported", 1000, model.Usage{OutputTokens: 5}, 0, map[int]int{1000: 1000}},
		{"not measured", 0, model.Usage{InputTokens: 900}, 0, map[int]int{1000: 1000}},
		{"twice", 1000, model.Usage{InputTokens: 2000}, 2, map[int]int{1000: 2000, 1500: 3000, 400: 800}},
		{"cache read counted in", 1000, model.Usage{InputTokens: 100, CacheReadTokens: 1700, CacheCreationTokens: 200}, 2, map[int]int{1200: 2400}},
		{"six times", 1000, model.Usage{InputTokens: 6000}, 6, map[int]int{1000: 6000, 1200: 7200, 2000: 12000, 500: 3000}},
		{"at most twelve times", 1000, model.Usage{InputTokens: 15000}, 12, map[int]int{1000: 15000, 1200: 17400, 2000: 27000, 500: 6000}},
		{"less", 1000, model.Usage{InputTokens: 600}, 0.6, map[int]int{1000: 600, 3000: 2600, 900: 600, 500: 500}},
		{"under half not taken", 1000, model.Usage{InputTokens: 100}, 0, map[int]int{1000: 1000}},
	} {
		k := calibrated(p, tt.estimate, tt.use)
		if k.ratio != tt.ratio {
			t.Errorf("%s: ratio %v, want %v", tt.name, k.ratio, tt.ratio)
		}
		for est, want := range tt.apply {
			if got := k.apply(est); got != want {
				t.Errorf("%s: apply(%d) = %d, want %d", tt.name, est, got, want)
			}
		}
	}
}

// TestCalibrationIsMonotone: a smaller request never measures more than a
// larger one. With a ratio under one, a request just under the one
// reported (compacted from it, or from one that grew from it) measured
// its whole plain estimate, over the report: a compaction that took a
// little off a request made it measure more.
func TestCalibrationIsMonotone(t *testing.T) {
	p := modeltest.New()
	var ks []calibration
	for _, use := range []model.Usage{{InputTokens: 600}, {InputTokens: 1000}, {InputTokens: 2000}, {InputTokens: 5000}} {
		ks = append(ks, calibrated(p, 1000, use))
	}
	// The ratios a session's new cached state starts from (ratioLocked).
	ks = append(ks, calibration{ratio: 0.6}, calibration{ratio: 2})
	for _, k := range ks {
		last := 0
		for est := 0; est <= 3000; est += 10 {
			n := k.apply(est)
			if n < last {
				t.Errorf("%+v: apply(%d) = %d, after apply(%d) = %d", k, est, n, est-10, last)
				break
			}
			last = n
		}
	}
}

// TestCompactionNeverRaisesTheMeasure: a session whose provider counts
// 0.6 times the estimate, at 72% of the window as it counts it (over
// level 1's threshold), is compacted by level 1 alone (the tool results
// the model saw archived), its size after under its size before. Its
// measure rose when level 1 took the request under the estimate of the
// one reported: measured at its plain estimate, over the window, it got
// every level, the oldest turns left out.
func TestCompactionNeverRaisesTheMeasure(t *testing.T) {
	e, err := New(Options{Provider: nopProvider{}, Checkpointer: session.NewMemoryCheckpointer(), Context: &ContextOptions{Window: 100_000}})
	if err != nil {
		t.Fatal(err)
	}
	var evs []session.Event
	for i := range 58 {
		evs = append(evs, user(fmt.Sprintf("turn %d %s", i, strings.Repeat("q", 4000))), answer(strings.Repeat("a", 4000)))
	}
	for _, id := range []string{"c1", "c2"} {
		evs = append(evs, user("run "+id), callOf(id), resultOf(id, strings.Repeat("r", 8000)), answer("seen"))
	}
	evs = append(evs, user("go on"))
	st := &sessionState{events: stored(evs...)}
	r := &run{e: e, id: "s", st: st}
	est := r.contextRun("").estimate()
	// The request before: the same but for the prompt.
	st.calib = calibrated(nopProvider{}, est-5, model.Usage{InputTokens: int64(float64(est-5) * 0.6)})
	_, status, size, err := r.sizedMessages(t.Context(), "", forceNone, 0)
	if err != nil {
		t.Fatal(err)
	}
	if status == nil || status.Level != 1 || status.AfterTokens > status.BeforeTokens || size.tokens > status.BeforeTokens {
		t.Errorf("estimate %d, context status %+v, measured %d: want level 1 alone, the size after under the size before", est, status, size.tokens)
	}
}

// TestOverflowPassesAtTheRefusalsScale: without the context engine, the
// overflow passes run after a refusal whose count is three times the
// estimate get that scale ([compaction.WithTokenScale]), as the context
// engine's levels and passes do: a token budget of 1,000 keeps the
// newest turns of 1,000 tokens as the provider counts them. They got the
// session's calibration (none here) and kept four turns of 200 estimated
// tokens: 2,400 as counted, over the budget the retry was built for.
func TestOverflowPassesAtTheRefusalsScale(t *testing.T) {
	budget, err := compaction.TokenBudget(1000)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Options{Provider: nopProvider{}, Checkpointer: session.NewMemoryCheckpointer(), OverflowPasses: []compaction.Pass{budget}})
	if err != nil {
		t.Fatal(err)
	}
	var evs []session.Event
	for i := range 10 {
		evs = append(evs, user(fmt.Sprintf("turn %d %s", i, strings.Repeat("q", 392))), answer(strings.Repeat("a", 400)))
	}
	evs = append(evs, user("go on"))
	r := &run{e: e, id: "s", st: &sessionState{events: stored(evs...)}}
	msgs, _, _, err := r.sizedMessages(t.Context(), "", forceOverflow, 3)
	if err != nil {
		t.Fatal(err)
	}
	turns := 0
	for _, m := range msgs {
		if strings.HasPrefix(m.Text, "turn ") {
			turns++
		}
	}
	if turns != 1 {
		t.Errorf("overflow passes at a refusal's scale of 3 kept %d earlier turns of 200 estimated tokens, want 1 (within 1,000 counted tokens)", turns)
	}
}
