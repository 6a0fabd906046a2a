package compaction_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// TestSummaryPlansAtTheContextsTokenScale: a provider whose tokenizer
// counts twice the estimate (a window of 20,000 of its tokens holds
// 10,000 estimated ones) refuses no summary request when the context
// carries that scale (compaction.WithTokenScale): each request is planned
// at half the characters. Without the scale, requests planned by the
// estimates alone were refused as too long, and asked for again smaller.
func TestSummaryPlansAtTheContextsTokenScale(t *testing.T) {
	const window = 20_000
	p := newWindowProvider(window / 2) // estimated tokens: twice as many counted
	pass := smallSummary(p, compaction.SummaryOptions{Window: window})
	ctx := compaction.WithTokenScale(context.Background(), 2)
	out, err := pass.Apply(ctx, longTalk(400))
	if err != nil {
		t.Fatal(err)
	}
	if p.refused > 0 {
		t.Errorf("%d of %d summary requests refused as too long: sizes %v", p.refused, len(p.sizes), p.sizes)
	}
	if len(out) != 7 || out[0].Text == "" {
		t.Errorf("output: %d messages, want the summary and 3 turns", len(out))
	}
}

// TestSummaryThresholdAtTheContextsTokenScale: the threshold is compared
// with the estimate at the context's token scale: 70,000 estimated tokens
// at twice the count are over the 120,000 tokens of the default
// threshold, and summarized; at no scale they are not.
func TestSummaryThresholdAtTheContextsTokenScale(t *testing.T) {
	var msgs []model.Message
	for i := range 7 {
		msgs = append(msgs, turnOf("t"+itoa(i), 40_000)...) // 10,000 tokens each
	}
	for _, tc := range []struct {
		scale     float64
		summarize bool
	}{{0, false}, {1, false}, {0.5, false}, {math.NaN(), false}, {2, true}} {
		p := modeltest.New()
		p.Reply(modeltest.Text("They talked."))
		ctx := compaction.WithTokenScale(context.Background(), tc.scale)
		out, err := compaction.Summary(p, compaction.SummaryOptions{}).Apply(ctx, msgs)
		if err != nil {
			t.Fatal(err)
		}
		if changed := compaction.Changed(msgs, out); changed != tc.summarize {
			t.Errorf("scale %v: summarized %v, want %v", tc.scale, changed, tc.summarize)
		}
	}
}

// TestTokenScaleBounds: a scale under 1 (or none, or not a number) is 1,
// one over 12 (a token a UTF-8 byte, three a UTF-16 code unit) is 12.
func TestTokenScaleBounds(t *testing.T) {
	ctx := context.Background()
	for in, want := range map[float64]float64{0: 1, -3: 1, 0.5: 1, 1.5: 1.5, 3: 3, 6: 6, 9: 9, 20: 12, math.Inf(1): 12} {
		if got := compaction.TokenScale(compaction.WithTokenScale(ctx, in)); got != want {
			t.Errorf("TokenScale(WithTokenScale(%v)) = %v, want %v", in, got, want)
		}
	}
	if got := compaction.TokenScale(compaction.WithTokenScale(ctx, math.NaN())); got != 1 {
		t.Errorf("TokenScale(WithTokenScale(NaN)) = %v, want 1", got)
	}
	if got := compaction.TokenScale(ctx); got != 1 {
		t.Errorf("TokenScale of a context without one = %v, want 1", got)
	}
}

// TestSummaryWindowErrorAtTheContextsTokenScale: a window too small for
// any summary request names, at the context's token scale, a window that
// holds one: twice as large at twice the count.
func TestSummaryWindowErrorAtTheContextsTokenScale(t *testing.T) {
	need := func(scale float64) int {
		var rep compaction.SummaryReport
		ctx := compaction.WithSummaryReport(compaction.WithTokenScale(context.Background(), scale), &rep)
		if _, err := smallSummary(modeltest.New(), compaction.SummaryOptions{Window: 800}).Apply(ctx, longTalk(50)); err != nil {
			t.Fatal(err)
		}
		var we *compaction.WindowError
		if !errors.As(rep.Err, &we) {
			t.Fatalf("scale %v: summary error %v, want a *WindowError", scale, rep.Err)
		}
		return we.Need
	}
	if plain, twice := need(1), need(2); twice < plain*19/10 {
		t.Errorf("Need %d at twice the count, %d at none: want about twice", twice, plain)
	}
}

// TestBudgetsAtTheContextsTokenScale: TokenBudget and Reactive keep the
// newest turns that fit their budgets at the context's token scale: at
// twice the count, half the turns. They kept turns of twice their budget
// as the provider counts them, the engine's calibration aside.
func TestBudgetsAtTheContextsTokenScale(t *testing.T) {
	msgs := concat(turnOf("t1", 400), turnOf("t2", 400), turnOf("t3", 400), turnOf("t4", 400), turnOf("t5", 400)) // 100 tokens each
	budget, err := compaction.TokenBudget(400)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		pass  compaction.Pass
		scale float64
		kept  int
	}{
		{budget, 1, 4},
		{budget, 2, 2},
		{compaction.Reactive(compaction.ReactiveOptions{MaxTurns: 5, MaxTokens: 400}), 1, 4},
		{compaction.Reactive(compaction.ReactiveOptions{MaxTurns: 5, MaxTokens: 400}), 2, 2},
	} {
		out, err := tc.pass.Apply(compaction.WithTokenScale(context.Background(), tc.scale), msgs)
		if err != nil {
			t.Fatal(err)
		}
		// The marker, then the turns kept.
		if len(out) != tc.kept+1 || out[len(out)-1].Text != msgs[4].Text {
			t.Errorf("%s at scale %v: %d messages %.30q, want the marker and %d turns", tc.pass.Name(), tc.scale, len(out), texts(out), tc.kept)
		}
	}
}

// TestBudgetsAtADenseTokenizersScale: text a tokenizer counts at more
// than a token a UTF-16 code unit (Chinese or Japanese at one and a half
// tokens a character: six times the estimate, as the engine learns it
// from the provider's count) is kept within TokenBudget's budget at that
// scale. The scale was bounded at 4, and the pass kept half as much again
// as its budget, as the provider counts it.
func TestBudgetsAtADenseTokenizersScale(t *testing.T) {
	msgs := concat(turnOf("t1", 400), turnOf("t2", 400), turnOf("t3", 400), turnOf("t4", 400), turnOf("t5", 400)) // 100 tokens each
	budget, err := compaction.TokenBudget(1300)
	if err != nil {
		t.Fatal(err)
	}
	for _, pass := range []compaction.Pass{budget, compaction.Reactive(compaction.ReactiveOptions{MaxTurns: 5, MaxTokens: 1300})} {
		out, err := pass.Apply(compaction.WithTokenScale(context.Background(), 6), msgs)
		if err != nil {
			t.Fatal(err)
		}
		// The marker, then two turns: 1,200 tokens at six times 100.
		if len(out) != 3 || out[len(out)-1].Text != msgs[4].Text {
			t.Errorf("%s at scale 6: %d messages %.30q, want the marker and 2 turns", pass.Name(), len(out), texts(out))
		}
	}
}
