package compaction_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// windowProvider answers summary requests like a provider with a context
// window: a request of more estimated tokens than window is refused as too
// long; another gets the answer "summary N" (N counting the requests
// answered). It records the size of each request.
type windowProvider struct {
	*modeltest.Provider
	mu      sync.Mutex
	sizes   []int
	refused int
}

func newWindowProvider(window int) *windowProvider {
	wp := &windowProvider{}
	wp.Provider = modeltest.NewFunc(func(_ context.Context, req model.Request) ([]model.Chunk, error) {
		n := compaction.EstimateTokens(append([]model.Message{model.UserText(req.System)}, req.Messages...))
		wp.mu.Lock()
		defer wp.mu.Unlock()
		wp.sizes = append(wp.sizes, n)
		if n > window {
			wp.refused++
			msg := fmt.Sprintf("prompt is too long: %d tokens > %d maximum", n, window)
			return nil, model.NewError(model.ClassifyStatus(400, msg), 400, msg, nil)
		}
		return modeltest.Text(fmt.Sprintf("summary %d", len(wp.sizes)-wp.refused)).Chunks(), nil
	})
	return wp
}

// longTalk returns n turns of a prompt and an answer of about 200
// characters each.
func longTalk(n int) []model.Message {
	var out []model.Message
	for i := range n {
		out = append(out, u(fmt.Sprintf("question %d: %s", i, strings.Repeat("q", 180))), a(fmt.Sprintf("answer %d: %s", i, strings.Repeat("a", 180))))
	}
	return out
}

// TestSummaryKeepsRequestsWithinTheWindow summarizes 2,000 turns (about
// 200,000 tokens) for a model of a 20,000-token window, which refuses
// longer requests as a provider does: with the window known (from the
// options or the context) the summary is asked for in a rolling way, each
// request within the window, the later ones carrying the summary so far.
func TestSummaryKeepsRequestsWithinTheWindow(t *testing.T) {
	const window = 20_000
	msgs := longTalk(2000)
	for _, tc := range []struct {
		name string
		opts compaction.SummaryOptions
		ctx  func(context.Context) context.Context
	}{
		{"window option", compaction.SummaryOptions{Window: window}, func(ctx context.Context) context.Context { return ctx }},
		{"window in the context", compaction.SummaryOptions{}, func(ctx context.Context) context.Context { return compaction.WithWindow(ctx, window) }},
		{"max tokens above a quarter", compaction.SummaryOptions{Window: window, MaxTokens: 8000}, func(ctx context.Context) context.Context { return ctx }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newWindowProvider(window)
			pass := smallSummary(p, tc.opts)
			out, err := pass.Apply(tc.ctx(context.Background()), msgs)
			if err != nil {
				t.Fatal(err)
			}
			if p.refused > 0 {
				t.Fatalf("%d of %d summary requests were refused as too long: sizes %v", p.refused, len(p.sizes), p.sizes)
			}
			reqs := p.Requests()
			if len(reqs) < 2 || len(reqs) > compaction.DefaultSummaryMaxRequests {
				t.Fatalf("%d summary requests, want a rolling summary of 2 to %d", len(reqs), compaction.DefaultSummaryMaxRequests)
			}
			budget := window - max(tc.opts.MaxTokens, window/4)
			for i, n := range p.sizes {
				if n > budget {
					t.Errorf("request %d: %d estimated tokens, over the input budget %d", i, n, budget)
				}
			}
			for i, req := range reqs[1:] {
				if prompt := req.Messages[0].Text; !strings.Contains(prompt, fmt.Sprintf("<summary>\nsummary %d\n</summary>", i+1)) {
					t.Fatalf("request %d does not carry the summary so far:\n%.600s", i+2, prompt)
				}
			}
			// The newest older turn is in the last request; the kept turns in none.
			last := reqs[len(reqs)-1].Messages[0].Text
			if !strings.Contains(last, "question 1996:") || strings.Contains(last, "question 1997:") {
				t.Errorf("the last request does not end with the turn before the kept ones")
			}
			want := fmt.Sprintf("%ssummary %d", compaction.SummaryHeader, len(reqs))
			if len(out) != 7 || out[0].Text != want {
				t.Fatalf("output: %d messages starting %q, want the summary %q and 3 turns", len(out), out[0].Text, want)
			}
		})
	}
}

// TestSummaryUnboundedWithoutAWindow keeps the one request of old when no
// window is known, and the one request of a transcript that fits.
func TestSummaryUnboundedWithoutAWindow(t *testing.T) {
	p := newWindowProvider(1 << 30)
	if _, err := smallSummary(p, compaction.SummaryOptions{}).Apply(context.Background(), longTalk(2000)); err != nil {
		t.Fatal(err)
	}
	p2 := newWindowProvider(1 << 30)
	if _, err := smallSummary(p2, compaction.SummaryOptions{Window: 200_000}).Apply(context.Background(), longTalk(100)); err != nil {
		t.Fatal(err)
	}
	if len(p.Requests()) != 1 || len(p2.Requests()) != 1 {
		t.Fatalf("%d and %d requests, want 1 each", len(p.Requests()), len(p2.Requests()))
	}
	if got, want := p2.Requests()[0].Messages[0].Text, compaction.SummaryPrompt(longTalk(100)[:194], ""); got != want {
		t.Errorf("a transcript that fits is not sent as SummaryPrompt renders it")
	}
}

// TestSummaryLeavesOutTheOldestBeyondMaxRequests: a transcript that needs
// more than MaxRequests requests loses its oldest chunks, and the first
// request says how many lines it leaves out.
func TestSummaryLeavesOutTheOldestBeyondMaxRequests(t *testing.T) {
	const window = 20_000
	p := newWindowProvider(window)
	var rep compaction.SummaryReport
	ctx := compaction.WithSummaryReport(context.Background(), &rep)
	out, err := smallSummary(p, compaction.SummaryOptions{Window: window, MaxRequests: 3}).Apply(ctx, longTalk(2000))
	if err != nil {
		t.Fatal(err)
	}
	reqs := p.Requests()
	if len(reqs) != 3 || p.refused > 0 || out[0].Text != compaction.SummaryHeader+"summary 3" {
		t.Fatalf("%d requests (%d refused), summary %q; want 3 within the window", len(reqs), p.refused, out[0].Text)
	}
	first := reqs[0].Messages[0].Text
	if !strings.Contains(first, " earlier line(s) of the conversation left out to fit the model's context window]") || strings.Contains(first, "question 0:") {
		t.Errorf("the first request does not say what it leaves out:\n%.800s", first)
	}
	// The report counts the lines the first request says it leaves out.
	if rep.Err != nil || rep.LeftOutLines < 1 || !strings.Contains(first, fmt.Sprintf("[%d earlier line(s) ", rep.LeftOutLines)) {
		t.Errorf("report %+v does not match the first request's note", rep)
	}
}

// TestSummaryWindowTooSmall: a window that cannot hold a summary request
// fails the summary with a *WindowError, leaving the turns as they were;
// the failure counts towards the breaker.
func TestSummaryWindowTooSmall(t *testing.T) {
	for _, tc := range []compaction.SummaryOptions{{Window: 500}, {Window: 20_000, MaxTokens: 20_000}} {
		p := newWindowProvider(tc.Window)
		var got error
		pass := smallSummary(p, compaction.SummaryOptions{Window: tc.Window, MaxTokens: tc.MaxTokens, MaxFailures: 1,
			Logger: newErrLogger(func(err error) { got = err })})
		msgs := longTalk(2000)
		out, err := pass.Apply(context.Background(), msgs)
		if err != nil || len(out) != len(msgs) || len(p.Requests()) != 0 {
			t.Fatalf("window %d: %d messages, %d requests, %v; want the turns as they were", tc.Window, len(out), len(p.Requests()), err)
		}
		var we *compaction.WindowError
		if !errors.As(got, &we) || we.Window != tc.Window || we.Need <= tc.Window || !strings.Contains(got.Error(), "context window") {
			t.Fatalf("window %d: logged %v, want a *WindowError", tc.Window, got)
		}
		// The window it names holds a summary.
		got = nil
		ok := newWindowProvider(we.Need)
		pass = smallSummary(ok, compaction.SummaryOptions{Window: we.Need, MaxTokens: tc.MaxTokens, Logger: newErrLogger(func(err error) { got = err })})
		if out, err := pass.Apply(context.Background(), msgs); err != nil || got != nil || len(out) != 7 {
			t.Errorf("window %d (the Need of %d): %d messages, %v, logged %v; want a summary", we.Need, tc.Window, len(out), err, got)
		}
	}
}

// TestSummaryRollingCancelled: a cancelled context stops a rolling summary
// between its requests with the context's error.
func TestSummaryRollingCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	p := modeltest.NewFunc(func(context.Context, model.Request) ([]model.Chunk, error) {
		if n++; n == 2 {
			cancel()
		}
		return modeltest.Text("s").Chunks(), nil
	})
	_, err := smallSummary(p, compaction.SummaryOptions{Window: 20_000}).Apply(ctx, longTalk(2000))
	if !errors.Is(err, context.Canceled) || len(p.Requests()) != 2 {
		t.Fatalf("err %v after %d requests, want context.Canceled after 2", err, len(p.Requests()))
	}
}

// newErrLogger returns a logger that calls f with the "err" attribute of
// each record.
func newErrLogger(f func(error)) *slog.Logger { return slog.New(errHandler{f}) }

type errHandler struct{ f func(error) }

func (errHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h errHandler) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if err, ok := a.Value.Any().(error); ok && a.Key == "err" {
			h.f(err)
		}
		return true
	})
	return nil
}
func (h errHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h errHandler) WithGroup(string) slog.Handler      { return h }

// TestSummaryRetriesSmallerWhenRefusedAsTooLong: a provider that counts
// more tokens than the estimate (here it refuses more than 40% of the
// window) refuses the first requests as too long; the summary is asked for
// again in smaller chunks, which it takes. A provider that refuses
// everything fails the summary after two such retries.
func TestSummaryRetriesSmallerWhenRefusedAsTooLong(t *testing.T) {
	const window = 20_000
	p := newWindowProvider(window * 4 / 10)
	out, err := smallSummary(p, compaction.SummaryOptions{Window: window}).Apply(context.Background(), longTalk(2000))
	if err != nil {
		t.Fatal(err)
	}
	if p.refused == 0 || !strings.HasPrefix(out[0].Text, compaction.SummaryHeader+"summary ") {
		t.Fatalf("%d refused of %v; output starts %q, want a summary after a refusal", p.refused, p.sizes, out[0].Text)
	}
	// The newest turn summarized is in the last request: a provider
	// refusing every chunk of the full size leaves out the oldest lines.
	if reqs := p.Requests(); !strings.Contains(reqs[len(reqs)-1].Messages[0].Text, "user: question 1996: ") {
		t.Errorf("requests of %v tokens: the newest turn summarized is not in the last", p.sizes)
	}

	var got error
	none := newWindowProvider(10)
	out, err = smallSummary(none, compaction.SummaryOptions{Window: window, Logger: newErrLogger(func(err error) { got = err })}).
		Apply(context.Background(), longTalk(2000))
	if err != nil || len(out) != 4000 || !model.IsClass(got, model.ClassContextOverflow) {
		t.Fatalf("%d messages, %v, logged %v; want the turns kept and the overflow logged", len(out), err, got)
	}
	if len(none.Requests()) != 3 {
		t.Errorf("%d requests, want 3: one try and two smaller", len(none.Requests()))
	}
}

// TestSummaryPromptKeepsAFormerSummaryWhole: the message of a former
// summary goes into the transcript whole, labelled summary, where any other
// message is cut to 2,000 characters.
func TestSummaryPromptKeepsAFormerSummaryWhole(t *testing.T) {
	former := strings.Repeat("s", 5000)
	prompt := compaction.SummaryPrompt([]model.Message{u(compaction.SummaryHeader + former), u(strings.Repeat("x", 5000))}, "")
	if !strings.Contains(prompt, "\nsummary: "+former+"\n") || strings.Count(prompt, "x") > 2100 {
		t.Errorf("the former summary is not whole, or the next message not cut:\n%.300s", prompt)
	}
}

// TestSummaryRetriesOnEveryTooLongText: the texts providers send for a
// request over the window (Anthropic's two, OpenAI-compatible servers')
// make the summary ask again in halves, as "prompt is too long" does;
// another 400 fails it at once, after one request, the turns kept.
func TestSummaryRetriesOnEveryTooLongText(t *testing.T) {
	const window = 20_000
	for _, tc := range []struct {
		name, msg string
		retried   bool
	}{
		{"AnthropicPromptTooLong", "prompt is too long: 9000 tokens > 8000 maximum", true},
		{"AnthropicInputAndMaxTokens", "input length and `max_tokens` exceed context limit: 197626 + 8192 > 200000, decrease input length or `max_tokens` and try again", true},
		{"OpenAIMaximumContextLength", "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.", true},
		{"LlamaCppContextSize", "the request exceeds the available context size, try increasing it", true},
		{"GeminiInputTokenCount", "The input token count (1048577) exceeds the maximum number of tokens allowed (1048576).", true},
		{"OtherBadRequest", "messages: roles must alternate between \"user\" and \"assistant\"", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sizes []int
			p := modeltest.NewFunc(func(_ context.Context, req model.Request) ([]model.Chunk, error) {
				n := compaction.EstimateTokens(append([]model.Message{model.UserText(req.System)}, req.Messages...))
				sizes = append(sizes, n)
				if n > window*4/10 || !tc.retried {
					return nil, model.NewError(model.ClassifyStatus(400, tc.msg), 400, tc.msg, nil)
				}
				return modeltest.Text("summary").Chunks(), nil
			})
			var logged error
			out, err := smallSummary(p, compaction.SummaryOptions{Window: window, Logger: newErrLogger(func(err error) { logged = err })}).
				Apply(context.Background(), longTalk(2000))
			if err != nil {
				t.Fatal(err)
			}
			if !tc.retried {
				if len(sizes) != 1 || len(out) != 4000 || !model.IsClass(logged, model.ClassBadRequest) {
					t.Fatalf("%d requests, %d messages, logged %v; want one request, the turns kept, a bad request logged", len(sizes), len(out), logged)
				}
				return
			}
			if logged != nil || !strings.HasPrefix(out[0].Text, compaction.SummaryHeader+"summary") {
				t.Fatalf("requests of %v tokens; logged %v, output starts %q; want a summary in smaller requests", sizes, logged, out[0].Text)
			}
		})
	}
}

// TestSummaryMaxRequestsBoundsTheRetriesToo: a session whose newest turns
// are CJK text (a token a character, where the estimate counts four) gets
// its last rolling request refused as too long, and again at half the
// size: the retries in halves still make no more than MaxRequests requests
// in all (they made up to three times as many), and a summary that cannot
// be had within them fails, the turns kept.
func TestSummaryMaxRequestsBoundsTheRetriesToo(t *testing.T) {
	const window = 20_000
	msgs := longTalk(1900)
	for i := range 100 {
		msgs = append(msgs, u(fmt.Sprintf("%d %s", i, strings.Repeat("日本語", 60))), a(strings.Repeat("回答", 90)))
	}
	for _, max := range []int{0, 40} {
		t.Run(fmt.Sprint(max), func(t *testing.T) {
			n := 0
			p := modeltest.NewFunc(func(_ context.Context, req model.Request) ([]model.Chunk, error) {
				n++
				count := 0 // a token a non-ASCII character, four ASCII ones a token
				for _, r := range req.System + req.Messages[0].Text {
					if r < 0x80 {
						count++
					} else {
						count += 4
					}
				}
				if count/4+req.MaxTokens > window {
					msg := fmt.Sprintf("prompt is too long: %d tokens > %d maximum", count/4, window)
					return nil, model.NewError(model.ClassifyStatus(400, msg), 400, msg, nil)
				}
				return modeltest.Text("summary").Chunks(), nil
			})
			var logged error
			out, err := smallSummary(p, compaction.SummaryOptions{Window: window, MaxRequests: max, Logger: newErrLogger(func(err error) { logged = err })}).
				Apply(context.Background(), msgs)
			if err != nil {
				t.Fatal(err)
			}
			bound := max
			if bound == 0 {
				bound = compaction.DefaultSummaryMaxRequests
			}
			if n > bound {
				t.Errorf("%d requests, want at most MaxRequests, %d", n, bound)
			}
			if logged == nil && !strings.HasPrefix(out[0].Text, compaction.SummaryHeader) || logged != nil && len(out) != len(msgs) {
				t.Errorf("logged %v, %d messages: want a summary, or the turns kept", logged, len(out))
			}
		})
	}
}

// TestSummaryResumesFromTheRefusedChunk: a rolling summary whose request
// for a chunk in the middle (CJK text, a token a character where the
// estimate counts four) is refused as too long asks again for that chunk
// in halves, with the summary so far, and goes on from it: the chunks
// before it are asked for once each. It started over from the first chunk,
// asking for each of them twice or three times.
func TestSummaryResumesFromTheRefusedChunk(t *testing.T) {
	const window = 20_000
	msgs := cjkTalk()
	p := newCJKProvider(window)
	var rep compaction.SummaryReport
	ctx := compaction.WithSummaryReport(context.Background(), &rep)
	out, err := smallSummary(p, compaction.SummaryOptions{Window: window, MaxRequests: 40}).Apply(ctx, msgs)
	if err != nil {
		t.Fatal(err)
	}
	if p.refused == 0 || rep.Err != nil || !strings.HasPrefix(out[0].Text, compaction.SummaryHeader+"summary ") {
		t.Fatalf("%d of %d requests refused, report %+v, output starts %.40q; want a summary after a refusal", p.refused, len(p.prompts), rep, out[0].Text)
	}
	// Every transcript line goes into one answered request: none is
	// summarized twice.
	all := strings.Join(p.answered, "\n")
	for _, line := range []string{"user: question 0: ", "user: question 300: ", "user: question 599: ", "user: 0 日本語", "user: later 0: ", "user: later 295: "} {
		if n := strings.Count(all, line); n != 1 {
			t.Errorf("%q is in %d answered requests, want 1", line, n)
		}
	}
	if want := fmt.Sprintf("summary %d", len(p.answered)); out[0].Text != compaction.SummaryHeader+want {
		t.Errorf("output starts %.40q, want the last answer, %q", out[0].Text, want)
	}
	if rep.LeftOutLines != 0 || strings.Contains(strings.Join(p.prompts, ""), "left out to fit") {
		t.Errorf("lines left out (%d) within MaxRequests", rep.LeftOutLines)
	}
	t.Logf("%d requests, %d refused", len(p.prompts), p.refused)
}

// TestSummaryLeavesOutTheOldestAfterARefusal: a rolling summary whose
// request for a chunk in the middle (CJK text, a token a character where
// the estimate counts four) is refused as too long, with MaxRequests too
// few for the retry in halves and the chunks after it, leaves out the
// oldest lines it has not summarized, and names them in a note of a
// request the model answers: the newest lines, which matter most, are
// always summarized. It left out the newest lines, in no note, the
// requests running out right after the retry.
func TestSummaryLeavesOutTheOldestAfterARefusal(t *testing.T) {
	const window = 20_000
	msgs := cjkTalk()
	note := regexp.MustCompile(`\[(\d+) earlier line\(s\) of the conversation left out`)
	leftOutSome := false
	for maxRequests := 2; maxRequests <= 16; maxRequests++ {
		t.Run(fmt.Sprint(maxRequests), func(t *testing.T) {
			p := newCJKProvider(window)
			var rep compaction.SummaryReport
			ctx := compaction.WithSummaryReport(context.Background(), &rep)
			out, err := smallSummary(p, compaction.SummaryOptions{Window: window, MaxRequests: maxRequests}).Apply(ctx, msgs)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Err != nil {
				if len(out) != len(msgs) {
					t.Errorf("a failed summary (%v) changed the turns", rep.Err)
				}
				return
			}
			if len(p.answered)+p.refused > maxRequests {
				t.Errorf("%d requests, MaxRequests %d", len(p.answered)+p.refused, maxRequests)
			}
			all := strings.Join(p.answered, "\n")
			if !strings.Contains(all, "user: later 296: ") {
				t.Errorf("%d refused, %d left out: the newest line is in no answered request", p.refused, rep.LeftOutLines)
			}
			named := 0
			for _, m := range note.FindAllStringSubmatch(all, -1) {
				n, _ := strconv.Atoi(m[1])
				named += n
			}
			if named != rep.LeftOutLines {
				t.Errorf("%d refused: the answered requests name %d line(s) left out, the report %d", p.refused, named, rep.LeftOutLines)
			}
			if p.refused > 0 && rep.LeftOutLines > 0 {
				leftOutSome = true
			}
		})
	}
	if !leftOutSome {
		t.Error("no MaxRequests left lines out after a refusal: the test does not reach the edge")
	}
}

// cjkTalk returns 600 turns of English, 40 of CJK text (a token a
// character, where the estimate counts four) and 300 later ones.
func cjkTalk() []model.Message {
	msgs := longTalk(600)
	for i := range 40 {
		msgs = append(msgs, u(fmt.Sprintf("%d %s", i, strings.Repeat("日本語", 60))), a(strings.Repeat("回答", 90)))
	}
	for i := range 300 {
		msgs = append(msgs, u(fmt.Sprintf("later %d: %s", i, strings.Repeat("l", 180))), a(strings.Repeat("b", 180)))
	}
	return msgs
}

// cjkProvider answers summary requests like a provider of a window of
// window tokens that refuses requests over three quarters of it, counting
// a token a non-ASCII character and four ASCII ones a token: it records
// every prompt and those answered, and counts those refused.
type cjkProvider struct {
	*modeltest.Provider
	prompts, answered []string
	refused           int
}

func newCJKProvider(window int) *cjkProvider {
	cp := &cjkProvider{}
	cp.Provider = modeltest.NewFunc(func(_ context.Context, req model.Request) ([]model.Chunk, error) {
		prompt := req.Messages[0].Text
		cp.prompts = append(cp.prompts, prompt)
		count := 0
		for _, r := range req.System + prompt {
			if r < 0x80 {
				count++
			} else {
				count += 4
			}
		}
		if count/4+req.MaxTokens > window*3/4 {
			cp.refused++
			msg := fmt.Sprintf("prompt is too long: %d tokens > %d maximum", count/4, window)
			return nil, model.NewError(model.ClassifyStatus(400, msg), 400, msg, nil)
		}
		cp.answered = append(cp.answered, prompt)
		return modeltest.Text(fmt.Sprintf("summary %d", len(cp.answered))).Chunks(), nil
	})
	return cp
}
