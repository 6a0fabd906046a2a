package compaction_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/internal/anthropictest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/anthropic"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// countingSummary returns a summary pass over srv for a model of window
// tokens, with the provider's token counting.
func countingSummary(srv *anthropictest.Server, window int) compaction.Pass {
	p := anthropic.New(anthropic.Options{APIKey: "test-key", BaseURL: srv.URL, HTTPClient: srv.Client()}).WithTokenCounting()
	return smallSummary(p, compaction.SummaryOptions{Model: "claude-test", MaxTokens: 1000, Window: window})
}

// TestSummaryPlansWithTheProvidersCount: a provider that counts tokens
// (Anthropic's count_tokens endpoint) and counts twice the estimate of
// English text has the rolling summary's chunks planned with its count:
// no request is refused as too long, each request is counted once at
// most (2×MaxRequests+1 counts in all), and the newest lines are in the
// last request. The counter was never asked: every chunk planned with
// estimates was refused, and asked for again in halves.
func TestSummaryPlansWithTheProvidersCount(t *testing.T) {
	const window = 20_000
	srv := anthropictest.New(t, anthropictest.Options{Window: window})
	var rep compaction.SummaryReport
	ctx := compaction.WithSummaryReport(context.Background(), &rep)
	msgs := longTalk(300)
	out, err := countingSummary(srv, window).Apply(ctx, msgs)
	if err != nil {
		t.Fatal(err)
	}
	answered := srv.Answered()
	if srv.Counts() == 0 || srv.Refused() != 0 || rep.Err != nil || rep.CountErr != nil {
		t.Fatalf("%d counts, %d refused of %d, report %+v: want counted requests, none refused", srv.Counts(), srv.Refused(), srv.Refused()+len(answered), rep)
	}
	if srv.Counts() > 2*compaction.DefaultSummaryMaxRequests+1 || len(answered) > compaction.DefaultSummaryMaxRequests {
		t.Errorf("%d counts for %d requests", srv.Counts(), len(answered))
	}
	if !strings.HasPrefix(out[0].Text, compaction.SummaryHeader+"summary ") || !strings.Contains(answered[len(answered)-1], "user: question 296: ") {
		t.Errorf("output starts %.40q; the last request does not hold the newest turn summarized", out[0].Text)
	}
	if rep.LeftOutLines != 0 {
		t.Errorf("%d lines left out", rep.LeftOutLines)
	}
	t.Logf("%d counts, %d requests", srv.Counts(), len(answered))

	// A transcript too long to be worth a count of its own has each
	// request counted: none is refused, the oldest lines are left out
	// beyond MaxRequests, and the newest are in the last request.
	huge := anthropictest.New(t, anthropictest.Options{Window: window})
	rep = compaction.SummaryReport{}
	if _, err := countingSummary(huge, window).Apply(ctx, longTalk(2000)); err != nil {
		t.Fatal(err)
	}
	answered = huge.Answered()
	if huge.Refused() != 0 || huge.Counts() > 2*compaction.DefaultSummaryMaxRequests+1 || rep.Err != nil || rep.CountErr != nil || rep.LeftOutLines == 0 ||
		!strings.Contains(answered[len(answered)-1], "user: question 1996: ") {
		t.Errorf("a long transcript: %d counts, %d refused of %d, report %+v", huge.Counts(), huge.Refused(), huge.Refused()+len(answered), rep)
	}

	// A transcript that fits by the count goes in one request, counted
	// once.
	one := anthropictest.New(t, anthropictest.Options{Window: window})
	if _, err := countingSummary(one, window).Apply(context.Background(), longTalk(10)); err != nil || one.Counts() != 1 || len(one.Answered()) != 1 {
		t.Errorf("%v: %d counts, %d requests; want one each", err, one.Counts(), len(one.Answered()))
	}
}

// TestSummaryReportsAFailedCount: a count the API fails leaves the
// summary to estimates, which the report says (a *CountError); the
// summary is still had, in smaller requests after refusals, and the
// counter is not asked again.
func TestSummaryReportsAFailedCount(t *testing.T) {
	const window = 20_000
	srv := anthropictest.New(t, anthropictest.Options{Window: window, CountStatus: 400})
	var rep compaction.SummaryReport
	ctx := compaction.WithSummaryReport(context.Background(), &rep)
	out, err := countingSummary(srv, window).Apply(ctx, longTalk(300))
	if err != nil {
		t.Fatal(err)
	}
	var ce *compaction.CountError
	if !errors.As(rep.CountErr, &ce) || ce.Err == nil || !model.IsClass(ce.Err, model.ClassBadRequest) || srv.Counts() != 1 {
		t.Errorf("report %+v after %d counts: want the failed count once", rep, srv.Counts())
	}
	if rep.Err != nil || !strings.HasPrefix(out[0].Text, compaction.SummaryHeader) {
		t.Errorf("report %+v, output starts %.40q: want a summary by estimates", rep, out[0].Text)
	}
}

// cancelCounter is a provider that counts tokens by cancelling the
// context.
type cancelCounter struct {
	*modeltest.Provider
	cancel context.CancelFunc
}

func (c cancelCounter) CountTokens(ctx context.Context, _ model.Request) (int, error) {
	c.cancel()
	<-ctx.Done()
	return 0, ctx.Err()
}

// TestSummaryCountCancelled: a compaction cancelled while the provider
// counts ends with the context's error, asking for no summary and
// reporting no count failure.
func TestSummaryCountCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := cancelCounter{modeltest.NewFunc(func(context.Context, model.Request) ([]model.Chunk, error) {
		return modeltest.Text("summary").Chunks(), nil
	}), cancel}
	var rep compaction.SummaryReport
	_, err := smallSummary(p, compaction.SummaryOptions{Window: 20_000}).Apply(compaction.WithSummaryReport(ctx, &rep), longTalk(300))
	if !errors.Is(err, context.Canceled) || len(p.Requests()) != 0 || rep.CountErr != nil || rep.Err != nil {
		t.Errorf("%v, %d requests, report %+v: want cancelled before any request", err, len(p.Requests()), rep)
	}
}

// TestSummaryLeavesTheProvidersDefaultAnswerRoom: with no MaxTokens of its
// own, a summary request is sent with the provider's default max_tokens
// (anthropic's: the model's documented output limit, here set to 14,000),
// which the API adds to the input when it checks the window. The plan
// leaves that much of the window for the answer, not only a quarter of
// it: before, the rolling chunks planned to a 15,000-token input were
// refused (input plus 14,000 over the 20,000 window) and asked for again
// in halves.
func TestSummaryLeavesTheProvidersDefaultAnswerRoom(t *testing.T) {
	const window = 20_000
	estimate := func(text string) int { return (len(text) + 3) / 4 }
	srv := anthropictest.New(t, anthropictest.Options{Window: window, Tokens: estimate})
	p := anthropic.New(anthropic.Options{APIKey: "test-key", BaseURL: srv.URL, HTTPClient: srv.Client(), DefaultMaxTokens: 14_000})
	var rep compaction.SummaryReport
	ctx := compaction.WithSummaryReport(context.Background(), &rep)
	out, err := smallSummary(p, compaction.SummaryOptions{Model: "claude-test", Window: window}).Apply(ctx, longTalk(300))
	if err != nil {
		t.Fatal(err)
	}
	answered := srv.Answered()
	if srv.Refused() != 0 || rep.Err != nil || len(answered) == 0 {
		t.Errorf("%d of %d requests refused as too long (report %+v); want none", srv.Refused(), srv.Refused()+len(answered), rep)
	}
	if !strings.HasPrefix(out[0].Text, compaction.SummaryHeader+"summary ") {
		t.Errorf("output starts %.40q", out[0].Text)
	}
}
