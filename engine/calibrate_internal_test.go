package engine

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// TestCalibrationIsBounded: a request that grew from the one reported is
// measured as the input reported plus its growth scaled by the ratio
// (at most three times, never under one: content added may be denser
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
		{"at most three times", 1000, model.Usage{InputTokens: 5000}, 3, map[int]int{1000: 5000, 1200: 5600, 2000: 8000, 500: 1500}},
		{"less", 1000, model.Usage{InputTokens: 600}, 0.6, map[int]int{1000: 600, 3000: 2600, 500: 500}},
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
