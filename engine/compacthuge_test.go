package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// TestCompactCutsAHugeSummary: a compaction whose model answers a
// summary larger than the window (as a model without max_tokens may) cuts
// it to a quarter of the window, as the requests after would, and says
// so: the view it commits, which every resume reads, stays within the
// window. It committed the whole summary, with no word: a view of 157,000
// bytes for a window of 3,000 tokens, After thirteen times the window and
// ten times Before.
func TestCompactCutsAHugeSummary(t *testing.T) {
	const window = 3000
	cp := session.NewMemoryCheckpointer()
	next := 0
	appendTurns(t, cp, "s", 80, &next)
	huge := strings.Repeat("huge summary ", 4*window)
	sp := modeltest.NewFunc(func(context.Context, model.Request) ([]model.Chunk, error) {
		return modeltest.Text(huge).Chunks(), nil
	})
	h := newHarness(t, engine.Options{Checkpointer: cp, Context: &engine.ContextOptions{Window: window,
		Summary: func(string) compaction.Pass {
			return compaction.Summary(sp, compaction.SummaryOptions{Base: []compaction.Pass{}, Threshold: 1})
		}}})
	res, err := h.eng.Compact(t.Context(), "s", engine.CompactOptions{})
	if err != nil || !res.Committed {
		t.Fatalf("Compact = %+v, %v", res, err)
	}
	if res.After > window || res.After > res.Before || res.SummaryErr != nil {
		t.Errorf("Compact = %+v: want a view within the window", res)
	}
	if res.SummaryCut < len(huge)-window*4 || res.SummaryCut > len(huge) {
		t.Errorf("SummaryCut = %d of a summary of %d", res.SummaryCut, len(huge))
	}
	vs := views(t, cp, "s")
	if n := len(vs[len(vs)-1].Event.(session.ContextViewEvent).View); n > 4*window {
		t.Errorf("the view takes %d bytes, over the window of %d tokens", n, window)
	}
	h.p.Reply(modeltest.Text("ok"))
	if _, _, err := h.turn(t, t.Context(), "s", "next"); err != nil {
		t.Fatal(err)
	}
	if msgs := h.p.Requests()[0].Messages; !strings.HasPrefix(msgs[1].Text, compaction.SummaryHeader+"huge summary") {
		t.Errorf("the request after starts %.60q, %.60q: want the facts and the summary", msgs[0].Text, msgs[1].Text)
	}
}
