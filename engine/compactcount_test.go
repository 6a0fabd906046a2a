package engine_test

import (
	"context"
	"errors"
	"testing"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/anthropictest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/anthropic"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// countingEngine returns an engine over a log of n turns whose provider
// is p, with a summary pass of p, for a model of window tokens.
func countingEngine(t *testing.T, p model.Provider, window, n int) (*engine.Engine, session.Checkpointer) {
	t.Helper()
	cp := session.NewMemoryCheckpointer()
	next := 0
	appendTurns(t, cp, "s", n, &next)
	eng, err := engine.New(engine.Options{Provider: p, Checkpointer: cp, Model: "claude-test", Context: &engine.ContextOptions{Window: window,
		Summary: func(string) compaction.Pass {
			return compaction.Summary(p, compaction.SummaryOptions{Model: "claude-test", MaxTokens: 1000, Base: []compaction.Pass{}, Threshold: 1})
		}}})
	if err != nil {
		t.Fatal(err)
	}
	return eng, cp
}

// anthropicAt returns an Anthropic provider of srv, counting tokens with
// count.
func anthropicAt(srv *anthropictest.Server, count bool) model.Provider {
	p := anthropic.New(anthropic.Options{APIKey: "test-key", BaseURL: srv.URL, HTTPClient: srv.Client()})
	if count {
		return p.WithTokenCounting()
	}
	return p
}

// TestCompactCountsWithTheProvider: Compact on an engine whose provider
// counts tokens (Anthropic's count_tokens endpoint, whose tokenizer
// counts twice the estimate) reports the provider's counts before and
// after, and says so. It reported estimates: the counter was never asked.
func TestCompactCountsWithTheProvider(t *testing.T) {
	const window = 50_000
	srv := anthropictest.New(t, anthropictest.Options{Window: window})
	eng, _ := countingEngine(t, anthropicAt(srv, true), window, 200)
	res, err := eng.Compact(t.Context(), "s", engine.CompactOptions{})
	if err != nil || !res.Committed {
		t.Fatalf("Compact = %+v, %v", res, err)
	}
	plainSrv := anthropictest.New(t, anthropictest.Options{Window: window})
	plainEng, _ := countingEngine(t, anthropicAt(plainSrv, false), window, 200)
	plain, err := plainEng.Compact(t.Context(), "s", engine.CompactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.BeforeCounted || !res.AfterCounted || res.CountErr != nil || srv.Counts() < 2 {
		t.Fatalf("result %+v after %d counts: want counted figures", res, srv.Counts())
	}
	if res.Before < plain.Before*3/2 || res.After >= res.Before || res.SummaryErr != nil {
		t.Errorf("counted %d → %d, estimated %d → %d: want the count, twice the estimate", res.Before, res.After, plain.Before, plain.After)
	}
	if plain.BeforeCounted || plain.AfterCounted || plain.CountErr != nil || plainSrv.Counts() != 0 {
		t.Errorf("without counting: %+v, %d counts", plain, plainSrv.Counts())
	}
}

// TestCompactReportsAFailedCount: a count the API fails leaves estimates,
// which the result says, with the count's error; the compaction commits.
func TestCompactReportsAFailedCount(t *testing.T) {
	const window = 50_000
	srv := anthropictest.New(t, anthropictest.Options{Window: window, CountStatus: 400})
	eng, _ := countingEngine(t, anthropicAt(srv, true), window, 200)
	res, err := eng.Compact(t.Context(), "s", engine.CompactOptions{})
	if err != nil || !res.Committed {
		t.Fatalf("Compact = %+v, %v", res, err)
	}
	if res.BeforeCounted || res.AfterCounted || !model.IsClass(res.CountErr, model.ClassBadRequest) {
		t.Errorf("result %+v: want estimates and the count's error", res)
	}
}

// TestCompactCountsAfterWhatWasTooLongToCount: a session too long for
// the count endpoint has Before estimated, with the endpoint's refusal,
// and After, compacted, counted. After was estimated too.
func TestCompactCountsAfterWhatWasTooLongToCount(t *testing.T) {
	const window = 50_000
	srv := anthropictest.New(t, anthropictest.Options{Window: window, CountWindow: 15_000})
	eng, _ := countingEngine(t, anthropicAt(srv, true), window, 200)
	res, err := eng.Compact(t.Context(), "s", engine.CompactOptions{})
	if err != nil || !res.Committed {
		t.Fatalf("Compact = %+v, %v", res, err)
	}
	if res.BeforeCounted || !res.AfterCounted || !model.IsClass(res.CountErr, model.ClassContextOverflow) || res.After >= res.Before {
		t.Errorf("result %+v: want Before estimated, the count refused as too long, After counted", res)
	}
}

// cancellingCounter counts tokens by cancelling the compaction.
type cancellingCounter struct {
	*modeltest.Provider
	cancel context.CancelFunc
}

func (c cancellingCounter) CountTokens(ctx context.Context, _ model.Request) (int, error) {
	c.cancel()
	<-ctx.Done()
	return 0, ctx.Err()
}

// TestCompactCancelledWhileCounting: a compaction cancelled while the
// provider counts ends with the context's error and commits nothing.
func TestCompactCancelledWhileCounting(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	p := cancellingCounter{modeltest.New(), cancel}
	eng, cp := countingEngine(t, p, 50_000, 50)
	if _, err := eng.Compact(ctx, "s", engine.CompactOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Compact: %v, want cancelled", err)
	}
	if vs := views(t, cp, "s"); len(vs) != 0 || len(p.Requests()) != 0 {
		t.Errorf("%d views, %d requests after a cancelled count", len(vs), len(p.Requests()))
	}
}

// TestCompactEventsSayWhatWasCounted: the compaction events of a provider
// that counts tokens say that their Before (from the measure stage on)
// and, on done, their After are the provider's counts; a plain
// provider's say they are estimates. They did not say.
func TestCompactEventsSayWhatWasCounted(t *testing.T) {
	const window = 50_000
	for _, count := range []bool{true, false} {
		srv := anthropictest.New(t, anthropictest.Options{Window: window})
		eng, _ := countingEngine(t, anthropicAt(srv, count), window, 200)
		var evs []engine.CompactionEvent
		res, err := eng.Compact(t.Context(), "s", engine.CompactOptions{OnEvent: func(ev engine.Event) { evs = append(evs, *ev.Compaction) }})
		if err != nil || !res.Committed || res.BeforeCounted != count || res.AfterCounted != count {
			t.Fatalf("count %v: Compact = %+v, %v", count, res, err)
		}
		if len(evs) != 5 {
			t.Fatalf("count %v: events %+v", count, evs)
		}
		for _, ev := range evs[1:] {
			if ev.BeforeCounted != count || ev.Before != res.Before {
				t.Errorf("count %v: event %+v: want Before %d, counted %v", count, ev, res.Before, count)
			}
		}
		if done := evs[4]; done.Phase != engine.CompactionDone || done.AfterCounted != count || done.After != res.After {
			t.Errorf("count %v: done %+v: want After %d, counted %v", count, done, res.After, count)
		}
	}
}

// TestContextStatusSaysWhatWasCounted: the context_status event of a
// request the provider counted (its size before the levels) says so; a
// plain provider's says its figures are estimates (of a tokenizer as
// the estimate counts, so that no request is refused and counted by the
// refusal's message). It did not say.
func TestContextStatusSaysWhatWasCounted(t *testing.T) {
	const window = 50_000
	for _, count := range []bool{true, false} {
		srv := anthropictest.New(t, anthropictest.Options{Window: window, Tokens: quarter})
		eng, _ := countingEngine(t, anthropicAt(srv, count), window, 700)
		evs, err := turnEvents(t, eng, "go on")
		if err != nil {
			t.Fatalf("count %v: turn: %v", count, err)
		}
		st := contextStatuses(evs)
		if len(st) == 0 || count != (srv.Counts() > 0) {
			t.Fatalf("count %v: context statuses %+v after %d counts", count, st, srv.Counts())
		}
		for _, s := range st {
			if s.Counted != count {
				t.Errorf("count %v: context status %+v: want counted %v", count, s, count)
			}
		}
	}
}
