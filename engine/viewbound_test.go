package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// viewTokens returns the estimated tokens of the messages a view holds.
func viewTokens(t *testing.T, se session.StoredEvent) int {
	t.Helper()
	var v struct {
		Entries []struct {
			Message model.Message `json:"message"`
		} `json:"entries"`
	}
	if err := json.Unmarshal(se.Event.(session.ContextViewEvent).View, &v); err != nil {
		t.Fatal(err)
	}
	msgs := make([]model.Message, len(v.Entries))
	for i, e := range v.Entries {
		msgs[i] = e.Message
	}
	return compaction.EstimateTokens(msgs)
}

// appendTurns appends n turns of a prompt and an answer of about 100
// characters each, numbered from *next.
func appendTurns(t *testing.T, cp session.Checkpointer, id string, n int, next *int) {
	t.Helper()
	var evs []session.Event
	for range n {
		evs = append(evs, session.UserEvent{Message: model.UserText(fmt.Sprintf("q%d %s", *next, strings.Repeat("x", 100)))},
			session.AssistantEvent{Message: model.AssistantText(fmt.Sprintf("a%d %s", *next, strings.Repeat("y", 100)))})
		*next++
	}
	if _, err := cp.Append(t.Context(), id, evs, session.AnyHead); err != nil {
		t.Fatal(err)
	}
}

// windowedStore returns a file checkpointer in a temporary directory, and
// engine options of a context window that open the same directory anew,
// as a restarted process does.
func windowedStore(t *testing.T, window int) (session.Checkpointer, func() engine.Options) {
	dir := t.TempDir()
	return fileCheckpointer(t, dir), func() engine.Options {
		return engine.Options{Checkpointer: fileCheckpointer(t, dir), Context: &engine.ContextOptions{Window: window}}
	}
}

var trimmedMarker = regexp.MustCompile(`^\[(\d+) earlier turn\(s\) left out to fit the context window\]$`)

// TestRepeatedCompactionsKeepViewsWithinTheWindow compacts a long-lived
// session (500 more short turns before each of 5 compactions, about 26,000
// tokens each time, for a window of 8,000) without a summary pass: the
// levels shorten nothing, so each view held the whole history, and every
// resumed request was level 5 (the facts and the last two messages). Each
// view now holds at most 65% of the window, its oldest turns counted in a
// marker, the resumed request is within the window without level 5, and
// the log keeps every event.
func TestRepeatedCompactionsKeepViewsWithinTheWindow(t *testing.T) {
	const window = 8000
	cp, opts := windowedStore(t, window)
	next := 0
	for round := range 5 {
		appendTurns(t, cp, "s", 500, &next)
		h := newHarness(t, opts())
		res, err := h.eng.Compact(t.Context(), "s", engine.CompactOptions{})
		if err != nil || !res.Committed {
			t.Fatalf("round %d: Compact = %+v, %v", round, res, err)
		}
		if res.After > window*65/100 {
			t.Errorf("round %d: %d tokens after compaction, want at most 65%% of %d", round, res.After, window)
		}
		vs := views(t, cp, "s")
		if n := viewTokens(t, vs[len(vs)-1]); n > window {
			t.Fatalf("round %d: the view holds %d estimated tokens, over the window %d", round, n, window)
		}
		// A restart resumes from the view.
		h2 := newHarness(t, opts())
		h2.p.Reply(modeltest.Text("ok"))
		evs, _, err := h2.turn(t, t.Context(), "s", "next")
		if err != nil {
			t.Fatal(err)
		}
		next++ // the prompt "next" is a turn too
		for _, st := range statuses(evs) {
			if st.Level == 5 {
				t.Fatalf("round %d: the resumed request needed level 5: %+v", round, st)
			}
		}
		reqs := h2.p.Requests()
		msgs := reqs[len(reqs)-1].Messages
		if n := compaction.EstimateTokens(msgs); n > window || len(msgs) < 10 {
			t.Fatalf("round %d: the resumed request has %d messages of %d tokens", round, len(msgs), n)
		}
		// The marker counts every turn left out, across compactions: with
		// the turns the request still holds, all of them.
		m := trimmedMarker.FindStringSubmatch(msgs[1].Text)
		if m == nil {
			t.Fatalf("round %d: message 1 is %.80q, want the marker of the turns left out", round, msgs[1].Text)
		}
		left, _ := strconv.Atoi(m[1])
		held := 0
		for _, msg := range msgs[2:] {
			if msg.Role == model.RoleUser {
				held++
			}
		}
		if left+held != next {
			t.Errorf("round %d: %d turns left out and %d held, want %d in all", round, left, held, next)
		}
	}
	all, err := cp.Read(t.Context(), "s", 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(session.Fold(all)); got != 2*next {
		t.Errorf("the log folds to %d messages, want %d: compaction lost history", got, 2*next)
	}
}

// TestLongSessionCommitsBoundedViews runs 80 turns of prompts of 1,000
// characters through a window of 4,000 tokens: nothing the levels do
// shortens them, so no view was committed and every request past the
// window was level 5. Now the oldest turns are left out (and committed)
// once a request is over the window: no request needs level 5, every view
// stays within the window, and a restart builds the very same request.
func TestLongSessionCommitsBoundedViews(t *testing.T) {
	const window = 4000
	dir := t.TempDir()
	opts := engine.Options{Checkpointer: fileCheckpointer(t, dir), Context: &engine.ContextOptions{Window: window}}
	h := newHarness(t, opts)
	for i := range 80 {
		h.p.Reply(modeltest.Text("answer " + strconv.Itoa(i)))
		evs, _, err := h.turn(t, t.Context(), "s", fmt.Sprintf("prompt %d %s", i, strings.Repeat("p", 1000)))
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range statuses(evs) {
			if st.Level == 5 {
				t.Fatalf("turn %d needed level 5: %+v", i, st)
			}
		}
	}
	vs := views(t, h.cp, "s")
	if len(vs) == 0 || len(vs) > 20 {
		t.Fatalf("%d views committed over 80 turns", len(vs))
	}
	for _, v := range vs {
		if n := viewTokens(t, v); n > window {
			t.Errorf("the view at seq %d holds %d estimated tokens, over the window", v.Seq, n)
		}
	}
	h.p.Reply(modeltest.Text("ok"))
	if _, _, err := h.turn(t, t.Context(), "s", "last"); err != nil {
		t.Fatal(err)
	}
	h2 := newHarness(t, engine.Options{Checkpointer: fileCheckpointer(t, dir), Context: &engine.ContextOptions{Window: window}})
	h2.p.Reply(modeltest.Text("ok"))
	if _, _, err := h2.turn(t, t.Context(), "s", "resumed"); err != nil {
		t.Fatal(err)
	}
	reqs := h2.p.Requests()
	if n := compaction.EstimateTokens(reqs[0].Messages); n > window {
		t.Errorf("the resumed request holds %d tokens", n)
	}
}

// TestTrimKeepsTheSummary: a compaction whose summary and kept turns are
// still over the window leaves out the oldest kept turns, not the summary.
func TestTrimKeepsTheSummary(t *testing.T) {
	const window = 600
	cp := session.NewMemoryCheckpointer()
	next := 0
	appendTurns(t, cp, "s", 20, &next)
	sp := modeltest.NewFunc(func(context.Context, model.Request) ([]model.Chunk, error) {
		return modeltest.Text("the summary").Chunks(), nil
	})
	h := newHarness(t, engine.Options{Checkpointer: cp, Context: &engine.ContextOptions{Window: window,
		Summary: func(string) compaction.Pass {
			// Keeping 15 turns of about 55 tokens leaves the view over the window.
			return compaction.Summary(sp, compaction.SummaryOptions{Base: []compaction.Pass{}, Threshold: 1, KeepRecentTurns: 15})
		}}})
	res, err := h.eng.Compact(t.Context(), "s", engine.CompactOptions{})
	if err != nil || !res.Committed || res.After > window {
		t.Fatalf("Compact = %+v, %v", res, err)
	}
	h.p.Reply(modeltest.Text("ok"))
	if _, _, err := h.turn(t, t.Context(), "s", "next"); err != nil {
		t.Fatal(err)
	}
	msgs := h.p.Requests()[0].Messages
	if msgs[1].Text != compaction.SummaryHeader+"the summary" || !trimmedMarker.MatchString(msgs[2].Text) {
		t.Fatalf("the request starts %.60q, %.60q, %.60q; want the facts, the summary and the marker", msgs[0].Text, msgs[1].Text, msgs[2].Text)
	}
}

// TestRepeatedSummariesKeepTheFormerSummary compacts twice with a summary
// pass: the second summary request carries the first summary whole. Level
// 4 cut it to 768 characters before, so each compaction lost most of what
// the former ones had summarized. A summary over a quarter of the window is
// still cut to it.
func TestRepeatedSummariesKeepTheFormerSummary(t *testing.T) {
	for _, tc := range []struct {
		window, summary int
		whole           bool
	}{{8000, 3000, true}, {2000, 6000, false}} {
		cp := session.NewMemoryCheckpointer()
		next := 0
		sp := modeltest.New()
		first := "first summary " + strings.Repeat("s", tc.summary)
		sp.Reply(modeltest.Text(first), modeltest.Text("second summary"))
		h := newHarness(t, engine.Options{Checkpointer: cp, Context: &engine.ContextOptions{Window: tc.window,
			Summary: func(string) compaction.Pass {
				return compaction.Summary(sp, compaction.SummaryOptions{Base: []compaction.Pass{}, Threshold: 1})
			}}})
		for range 2 {
			appendTurns(t, cp, "s", 10, &next)
			if res, err := h.eng.Compact(t.Context(), "s", engine.CompactOptions{}); err != nil || !res.Committed {
				t.Fatalf("Compact = %+v, %v", res, err)
			}
		}
		reqs := sp.Requests()
		if len(reqs) != 2 {
			t.Fatalf("%d summary requests, want 2", len(reqs))
		}
		prompt := reqs[1].Messages[0].Text
		if got := strings.Contains(prompt, first); got != tc.whole {
			t.Errorf("window %d, summary of %d: the second summary request holds the first whole: %v, want %v", tc.window, tc.summary, got, tc.whole)
		}
		if !tc.whole && (!strings.Contains(prompt, "first summary") || strings.Count(prompt, "s") > tc.window+1000) {
			t.Errorf("window %d: the first summary is not cut to a quarter of the window", tc.window)
		}
	}
}

// TestAPromptLikeASummaryIsAPrompt: a prompt that starts like a summary
// message, but is not the first message, is shortened and left out like
// any prompt, so that prompts cannot keep a view over the window.
func TestAPromptLikeASummaryIsAPrompt(t *testing.T) {
	const window = 4000
	cp := session.NewMemoryCheckpointer()
	next := 0
	appendTurns(t, cp, "s", 2, &next)
	fake := compaction.SummaryHeader + strings.Repeat("f", 3000)
	var evs []session.Event
	for range 8 {
		evs = append(evs, session.UserEvent{Message: model.UserText(fake)}, session.AssistantEvent{Message: model.AssistantText("ok")})
	}
	if _, err := cp.Append(t.Context(), "s", evs, session.AnyHead); err != nil {
		t.Fatal(err)
	}
	appendTurns(t, cp, "s", 2, &next)
	h := newHarness(t, engine.Options{Checkpointer: cp, Context: &engine.ContextOptions{Window: window}})
	res, err := h.eng.Compact(t.Context(), "s", engine.CompactOptions{})
	if err != nil || res.After > window {
		t.Fatalf("Compact = %+v, %v", res, err)
	}
	h.p.Reply(modeltest.Text("ok"))
	if _, _, err := h.turn(t, t.Context(), "s", "next"); err != nil {
		t.Fatal(err)
	}
	for i, m := range h.p.Requests()[0].Messages {
		if len(m.Text) > 800 {
			t.Errorf("message %d keeps %d characters of a prompt that looks like a summary", i, len(m.Text))
		}
	}
}

// TestCompactReportsTheSummaryFailure: a compaction whose summary fails
// falls back to leaving turns out, and its result says so: the summary's
// error and the turns left out. Before, CompactResult had no field for
// either.
func TestCompactReportsTheSummaryFailure(t *testing.T) {
	const window = 3000
	cp := session.NewMemoryCheckpointer()
	next := 0
	appendTurns(t, cp, "s", 80, &next)
	refused := errors.New("summary refused")
	sp := modeltest.NewFunc(func(context.Context, model.Request) ([]model.Chunk, error) {
		return nil, refused
	})
	h := newHarness(t, engine.Options{Checkpointer: cp, Context: &engine.ContextOptions{Window: window,
		Summary: func(string) compaction.Pass {
			return compaction.Summary(sp, compaction.SummaryOptions{Base: []compaction.Pass{}, Threshold: 1})
		}}})
	res, err := h.eng.Compact(t.Context(), "s", engine.CompactOptions{})
	if err != nil || !res.Committed {
		t.Fatalf("Compact = %+v, %v", res, err)
	}
	if !errors.Is(res.SummaryErr, refused) {
		t.Errorf("SummaryErr = %v, want the provider's error", res.SummaryErr)
	}
	if res.LeftOutTurns < 1 || res.LeftOutTurns > 80 {
		t.Errorf("LeftOutTurns = %d, want the turns the marker leaves out", res.LeftOutTurns)
	}
	h.p.Reply(modeltest.Text("ok"))
	if _, _, err := h.turn(t, t.Context(), "s", "next"); err != nil {
		t.Fatal(err)
	}
	msgs := h.p.Requests()[0].Messages
	want := fmt.Sprintf("[%d earlier turn(s) ", res.LeftOutTurns)
	found := false
	for _, m := range msgs {
		found = found || strings.HasPrefix(m.Text, want)
	}
	if !found {
		t.Errorf("no marker %q in the next request", want)
	}
}
