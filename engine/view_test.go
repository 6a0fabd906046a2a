package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// views returns the context_view records of session id.
func views(t *testing.T, cp session.Checkpointer, id string) []session.StoredEvent {
	t.Helper()
	evs, err := cp.Read(t.Context(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []session.StoredEvent
	for _, se := range evs {
		if _, ok := se.Event.(session.ContextViewEvent); ok {
			out = append(out, se)
		}
	}
	return out
}

// viewOf decodes the view member of a context_view record.
func viewOf(t *testing.T, se session.StoredEvent) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(se.Event.(session.ContextViewEvent).View, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func fileCheckpointer(t *testing.T, dir string) session.Checkpointer {
	t.Helper()
	cp, err := session.NewFileCheckpointer(dir, session.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cp
}

func messagesJSON(t *testing.T, msgs []model.Message) string {
	t.Helper()
	b, err := json.Marshal(msgs)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A view committed under pressure is the base of the next request, and a
// new process resuming the log from it builds the very request the first
// process builds.
func TestContextViewSurvivesARestart(t *testing.T) {
	dir, archDir := t.TempDir(), t.TempDir()
	resolve, _ := archiveIn(t, archDir)
	opts := func(cp session.Checkpointer) engine.Options {
		return engine.Options{Checkpointer: cp, Context: &engine.ContextOptions{Window: 2000, Archive: resolve}}
	}
	a := newHarness(t, opts(fileCheckpointer(t, dir)))
	big := strings.Repeat("lorem ipsum ", 250)
	a.echoTurn(t, "s", "Goal: keep the view. You must resume from it.", big)
	a.p.Reply(modeltest.Text("done"))
	evs, _, err := a.turn(t, t.Context(), "s", "second")
	if err != nil {
		t.Fatal(err)
	}
	vs := views(t, a.cp, "s")
	if len(vs) != 1 {
		t.Fatalf("%d views committed, want 1", len(vs))
	}
	cv := vs[0].Event.(session.ContextViewEvent)
	if cv.ThroughSeq != vs[0].Seq-1 {
		t.Errorf("throughSeq %d of the view at seq %d", cv.ThroughSeq, vs[0].Seq)
	}
	v := viewOf(t, vs[0])
	if v["format"] != engine.ViewFormat || v["generation"] != 1.0 {
		t.Errorf("view format %v generation %v", v["format"], v["generation"])
	}
	if st := statuses(evs); len(st) != 1 || st[0].Generation != 1 {
		t.Errorf("status %+v", st)
	}
	// On disk the event has the reference's fields and no others, so that
	// the TypeScript SDK's reader skips it.
	raw, err := os.ReadFile(filepath.Join(dir, "s.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Split(string(raw), "\n")[vs[0].Seq-1]
	var rec struct {
		Seq   int64                      `json:"seq"`
		Event map[string]json.RawMessage `json:"event"`
	}
	if err := json.Unmarshal([]byte(line), &rec); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range rec.Event {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if rec.Seq != vs[0].Seq || !slices.Equal(keys, []string{"throughSeq", "type", "view"}) || string(rec.Event["type"]) != `"context_view"` {
		t.Errorf("record %d has event keys %q", rec.Seq, keys)
	}

	// A second process starts from a copy of the log as it is now.
	dir2 := t.TempDir()
	if err := os.CopyFS(dir2, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	b := newHarness(t, opts(fileCheckpointer(t, dir2)))
	for _, h := range []*harness{a, b} {
		h.p.Reply(modeltest.Text("fine"))
		if _, _, err := h.turn(t, t.Context(), "s", "third"); err != nil {
			t.Fatal(err)
		}
	}
	ra, rb := a.p.Requests(), b.p.Requests()
	got, want := messagesJSON(t, rb[len(rb)-1].Messages), messagesJSON(t, ra[len(ra)-1].Messages)
	if got != want {
		t.Errorf("the resumed request differs from the one before the restart:\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(got, "[tool result archived: ") {
		t.Errorf("the resumed request was not built on the view: %.300s", got)
	}
}

// A context_view this engine did not write (another format) is not
// resumed from: the whole log is read, as without a view.
func TestContextViewOfAnotherFormatIsIgnored(t *testing.T) {
	cp := session.NewMemoryCheckpointer()
	if _, err := cp.Append(t.Context(), "s", []session.Event{
		session.UserEvent{Message: model.UserText("hello")},
		session.AssistantEvent{Message: model.AssistantText("hi")},
		session.ContextViewEvent{ThroughSeq: 2, View: json.RawMessage(`{"generation":1,"messages":[]}`)},
	}, 0); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, engine.Options{Checkpointer: cp, Context: &engine.ContextOptions{}})
	h.p.Reply(modeltest.Text("ok"))
	if _, _, err := h.turn(t, t.Context(), "s", "again"); err != nil {
		t.Fatal(err)
	}
	msgs := h.p.Requests()[0].Messages
	if len(msgs) != 3 || msgs[0].Text != "hello" || msgs[2].Text != "again" {
		t.Errorf("messages %+v", msgs)
	}
}

// Compact forces the levels and the summary pass, commits a view the next
// request starts from, and reports its phases in order.
func TestCompactCommitsAView(t *testing.T) {
	var instructions string
	summary := func(ins string) compaction.Pass {
		instructions = ins
		return compaction.PassFunc("summary", func(_ context.Context, msgs []model.Message) ([]model.Message, error) {
			return append([]model.Message{model.UserText("[Summary of earlier conversation]\nall of it")}, msgs...), nil
		})
	}
	h := newHarness(t, engine.Options{Context: &engine.ContextOptions{Summary: summary}})
	big := strings.Repeat("dolor sit ", 300)
	h.echoTurn(t, "s", "first", big)
	var phases []string
	res, err := h.eng.Compact(t.Context(), "s", engine.CompactOptions{Instructions: "keep the files", OnEvent: func(ev engine.Event) {
		if ev.Type != engine.EventCompaction || ev.SessionID != "s" {
			t.Errorf("event %+v", ev)
		}
		phases = append(phases, string(ev.Compaction.Phase)+"/"+string(ev.Compaction.Stage))
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"start/", "progress/measure", "progress/summarize", "progress/persist", "done/"}
	if !slices.Equal(phases, want) {
		t.Errorf("phases %q, want %q", phases, want)
	}
	if !res.Committed || res.Generation != 1 || res.After >= res.Before || instructions != "keep the files" {
		t.Errorf("result %+v, instructions %q", res, instructions)
	}
	if vs := views(t, h.cp, "s"); len(vs) != 1 {
		t.Fatalf("%d views", len(vs))
	}
	h.p.Reply(modeltest.Text("ok"))
	if _, _, err := h.turn(t, t.Context(), "s", "next"); err != nil {
		t.Fatal(err)
	}
	msgs := h.p.Requests()[len(h.p.Requests())-1].Messages
	if !strings.HasPrefix(msgs[0].Text, "[Pinned facts") || !strings.HasPrefix(msgs[1].Text, "[Summary of earlier conversation]") {
		t.Errorf("the request after Compact: %+v", msgs[:2])
	}
	for _, c := range resultContents(msgs) {
		if !strings.HasPrefix(c, "[tool result externalized after presentation]") {
			t.Errorf("a result was not externalized: %.60q", c)
		}
	}
}

func TestCompactNeedsTheContextEngine(t *testing.T) {
	h := newHarness(t, engine.Options{})
	if _, err := h.eng.Compact(t.Context(), "s", engine.CompactOptions{}); !errors.Is(err, engine.ErrNoContext) {
		t.Errorf("err %v", err)
	}
}

// Compact is refused while a turn runs on the session.
func TestCompactIsRefusedWhileATurnRuns(t *testing.T) {
	h := newHarness(t, engine.Options{Context: &engine.ContextOptions{}})
	started, release := make(chan struct{}), make(chan struct{})
	h.p.Respond(func(ctx context.Context, _ model.Request) ([]model.Chunk, error) {
		close(started)
		<-release
		return modeltest.Text("late").Chunks(), nil
	})
	done := make(chan error, 1)
	go func() {
		_, _, err := h.turn(t, t.Context(), "s", "slow")
		done <- err
	}()
	<-started
	_, err := h.eng.Compact(t.Context(), "s", engine.CompactOptions{})
	var busy *engine.BusyError
	if !errors.As(err, &busy) || !errors.Is(err, engine.ErrBusy) || busy.SessionID != "s" {
		t.Errorf("err %v, want a BusyError", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := h.eng.Compact(t.Context(), "s", engine.CompactOptions{}); err != nil {
		t.Errorf("after the turn: %v", err)
	}
}

// A compaction cancelled before it persists commits nothing and ends with
// a cancelled event.
func TestCompactCancelledCommitsNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	summary := func(string) compaction.Pass {
		return compaction.PassFunc("summary", func(_ context.Context, msgs []model.Message) ([]model.Message, error) {
			cancel() // the user gives up while the summary is made
			return msgs[1:], nil
		})
	}
	h := newHarness(t, engine.Options{Context: &engine.ContextOptions{Summary: summary}})
	h.echoTurn(t, "s", "first", strings.Repeat("x", 2000))
	head, err := h.cp.Head(t.Context(), "s")
	if err != nil {
		t.Fatal(err)
	}
	var last engine.CompactionEvent
	_, err = h.eng.Compact(ctx, "s", engine.CompactOptions{OnEvent: func(ev engine.Event) { last = *ev.Compaction }})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v", err)
	}
	if last.Phase != engine.CompactionCancelled {
		t.Errorf("last event %+v", last)
	}
	if after, _ := h.cp.Head(t.Context(), "s"); after != head {
		t.Errorf("head %d after a cancelled compaction, was %d", after, head)
	}
	// The session is free and whole afterwards.
	h.p.Reply(modeltest.Text("ok"))
	if _, _, err := h.turn(t, t.Context(), "s", "next"); err != nil {
		t.Fatal(err)
	}
	if msgs := h.p.Requests()[2].Messages; msgs[0].Text != "first" {
		t.Errorf("the next request starts with %+v", msgs[0])
	}
}

// plannerHarness runs two prompts with long answers, then a third whose
// request is over 85% of the window, with planner p.
func plannerHarness(t *testing.T, p engine.Planner) (*harness, []engine.ContextStatus) {
	t.Helper()
	h := newHarness(t, engine.Options{Context: &engine.ContextOptions{Window: 1200, Planner: p}})
	for _, prompt := range []string{"one", "two"} {
		h.p.Reply(modeltest.Text(strings.Repeat(prompt+" answer ", 200)))
		if _, _, err := h.turn(t, t.Context(), "s", prompt); err != nil {
			t.Fatal(err)
		}
	}
	h.p.Reply(modeltest.Text("ok"))
	evs, _, err := h.turn(t, t.Context(), "s", "three")
	if err != nil {
		t.Fatal(err)
	}
	return h, statuses(evs)
}

func TestContextPlannerSummarizesEarlierSegments(t *testing.T) {
	var got engine.PlanRequest
	h, st := plannerHarness(t, engine.PlannerFunc(func(_ context.Context, req engine.PlanRequest) (engine.Plan, error) {
		got = req
		var p engine.Plan
		for _, s := range req.Segments {
			ref := s.ID + ":" + "999" // cites no seq of the segment: ignored
			if s.Messages[0].Text == "one" {
				ref = s.ID + ":" + jsonInt(s.Seqs[0])
			}
			p.Segments = append(p.Segments, engine.SegmentPlan{Segment: s.ID, Action: engine.PlanSummarize,
				Summary: "the " + s.Messages[0].Text + " part", EvidenceRefs: []string{ref}})
		}
		p.Decisions = []string{"use the view"}
		return p, nil
	}))
	if len(got.Segments) != 2 || got.Segments[0].Messages[0].Text != "one" || got.Segments[1].Messages[0].Text != "two" {
		t.Fatalf("segments shown %+v", got.Segments)
	}
	if len(st) != 1 || st[0].Level < 3 || !st[0].PlannerUsed || st[0].PlannerFallback {
		t.Errorf("status %+v", st)
	}
	msgs := h.p.Requests()[2].Messages
	var texts []string
	for _, m := range msgs {
		texts = append(texts, m.PlainText())
	}
	all := strings.Join(texts, "\n")
	if !strings.Contains(all, "[Historical segment summary]\nthe one part") || strings.Contains(all, "the two part") ||
		!strings.Contains(all, "two answer") || texts[len(texts)-1] != "three" {
		t.Errorf("request texts %q", texts)
	}
	// The plan's state is in the view the request committed.
	vs := views(t, h.cp, "s")
	if len(vs) == 0 {
		t.Fatal("no view committed")
	}
	state, _ := viewOf(t, vs[len(vs)-1])["state"].(map[string]any)
	if d, _ := state["decisions"].([]any); len(d) != 1 || d[0] != "use the view" {
		t.Errorf("view state %v", state)
	}
}

func jsonInt(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// A planner that does not answer within the budget is not waited for: the
// request goes on without its plan, flagged as a fallback.
func TestContextPlannerTimeoutFallsBack(t *testing.T) {
	var calls atomic.Int32
	h, st := plannerHarness(t, engine.PlannerFunc(func(ctx context.Context, req engine.PlanRequest) (engine.Plan, error) {
		calls.Add(1)
		select {
		case <-ctx.Done():
		case <-time.After(5 * time.Second):
		}
		return engine.Plan{Segments: []engine.SegmentPlan{{Segment: req.Segments[0].ID, Action: engine.PlanSummarize, Summary: "late"}}}, nil
	}))
	if calls.Load() == 0 || len(st) != 1 || !st[0].PlannerUsed || !st[0].PlannerFallback || st[0].PlannerLatency > 2*time.Second {
		t.Errorf("status %+v after %d calls", st, calls.Load())
	}
	for _, m := range h.p.Requests()[2].Messages {
		if strings.Contains(m.PlainText(), "late") {
			t.Errorf("the late plan was used: %q", m.PlainText())
		}
	}
}

// Options.Passes run on every request, with or without the context
// engine; with it, their change is committed.
func TestHostPassesRunOnEveryRequest(t *testing.T) {
	redact := compaction.PassFunc("redact", func(_ context.Context, msgs []model.Message) ([]model.Message, error) {
		out := msgs
		for i, m := range msgs {
			if m.Role == model.RoleUser && strings.Contains(m.Text, "secret") {
				if &out[0] == &msgs[0] {
					out = slices.Clone(msgs)
				}
				out[i] = model.UserText("[redacted]")
			}
		}
		return out, nil
	})
	for _, tc := range []struct {
		name      string
		context   *engine.ContextOptions
		wantViews int
	}{
		{"context engine", &engine.ContextOptions{}, 1},
		{"no context engine", nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, engine.Options{Context: tc.context, Passes: []compaction.Pass{redact}})
			for _, p := range []string{"the secret is 42", "and then?"} {
				h.p.Reply(modeltest.Text("ok"))
				if _, _, err := h.turn(t, t.Context(), "s", p); err != nil {
					t.Fatal(err)
				}
			}
			for i, req := range h.p.Requests() {
				if req.Messages[0].Text != "[redacted]" {
					t.Errorf("request %d starts with %q", i, req.Messages[0].Text)
				}
			}
			if n := len(views(t, h.cp, "s")); n != tc.wantViews {
				t.Errorf("%d views, want %d", n, tc.wantViews)
			}
		})
	}
}

// Options.OverflowPasses run once before the retry of a request the
// provider refused as too long; level 5 then applies only if the request
// is still over the window.
func TestOverflowPassesRunBeforeTheRetry(t *testing.T) {
	var ran atomic.Int32
	trim := compaction.PassFunc("trim", func(_ context.Context, msgs []model.Message) ([]model.Message, error) {
		ran.Add(1)
		return msgs[len(msgs)-1:], nil
	})
	for _, tc := range []struct {
		name    string
		context *engine.ContextOptions
	}{
		{"context engine", &engine.ContextOptions{}},
		{"no context engine", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ran.Store(0)
			h := newHarness(t, engine.Options{Context: tc.context, OverflowPasses: []compaction.Pass{trim}})
			h.p.Reply(modeltest.Text("ok"))
			if _, _, err := h.turn(t, t.Context(), "s", "first"); err != nil {
				t.Fatal(err)
			}
			h.p.Fail(model.NewError(model.ClassContextOverflow, 413, "prompt is too long", nil))
			h.p.Reply(modeltest.Text("fits"))
			evs, res, err := h.turn(t, t.Context(), "s", "second")
			if err != nil || res.Text != "fits" {
				t.Fatalf("err %v, result %+v", err, res)
			}
			reqs := h.p.Requests()
			want := 1 // the overflow pass keeps the last message
			if tc.context != nil {
				want = 2 // and the context engine's facts message goes first
			}
			if ran.Load() != 1 || len(reqs) != 3 || len(reqs[2].Messages) != want || reqs[2].Messages[want-1].Text != "second" {
				t.Errorf("ran %d; retry %+v", ran.Load(), reqs[len(reqs)-1].Messages)
			}
			if st := statuses(evs); tc.context != nil && (len(st) != 1 || st[0].Reason != "overflow" || st[0].Level == 5) {
				t.Errorf("status %+v", st)
			}
		})
	}
}

// Compact on an unknown session commits nothing; on a log a crash left
// with an unanswered call, it answers the call before committing, so that
// the view never holds a call without its result.
func TestCompactEmptyAndInterruptedLogs(t *testing.T) {
	h := newHarness(t, engine.Options{Context: &engine.ContextOptions{}})
	res, err := h.eng.Compact(t.Context(), "none", engine.CompactOptions{})
	if err != nil || res.Committed {
		t.Errorf("empty session: %+v, %v", res, err)
	}
	if head, _ := h.cp.Head(t.Context(), "none"); head != 0 {
		t.Errorf("an empty session got head %d", head)
	}

	if _, err := h.cp.Append(t.Context(), "s", []session.Event{
		session.UserEvent{Message: model.UserText("start")},
		session.AssistantEvent{Message: model.AssistantBlocks(call("c1", "echo", `{"text":"q"}`))},
	}, 0); err != nil {
		t.Fatal(err)
	}
	if res, err := h.eng.Compact(t.Context(), "s", engine.CompactOptions{}); err != nil || !res.Committed {
		t.Fatalf("%+v, %v", res, err)
	}
	h.p.Reply(modeltest.Text("ok"))
	if _, _, err := h.turn(t, t.Context(), "s", "next"); err != nil {
		t.Fatal(err)
	}
	msgs := h.p.Requests()[0].Messages
	if got := resultContents(msgs); len(got) != 1 || !strings.Contains(got[0], "interrupted") {
		t.Errorf("results %q in %+v", got, msgs)
	}
}

// A summary pass of package compaction among Options.Passes gets Compact's
// instructions through the context, and its summary is committed.
func TestCompactInstructionsReachASummaryPass(t *testing.T) {
	summarizer := modeltest.New()
	summarizer.Reply(modeltest.Text("the summary"))
	sum := compaction.Summary(summarizer, compaction.SummaryOptions{Threshold: 1, KeepRecentTurns: 1, Base: []compaction.Pass{}})
	h := newHarness(t, engine.Options{Context: &engine.ContextOptions{}})
	for _, p := range []string{"one", "two", "three"} {
		h.p.Reply(modeltest.Text(p + " done"))
		if _, _, err := h.turn(t, t.Context(), "s", p); err != nil {
			t.Fatal(err)
		}
	}
	eng, err := engine.New(engine.Options{Provider: h.p, Checkpointer: h.cp, Model: "m", Context: &engine.ContextOptions{}, Passes: []compaction.Pass{sum}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Compact(t.Context(), "s", engine.CompactOptions{Instructions: "name every prompt"})
	if err != nil || !res.Committed {
		t.Fatalf("%+v, %v", res, err)
	}
	reqs := summarizer.Requests()
	if len(reqs) != 1 || !strings.Contains(reqs[0].Messages[len(reqs[0].Messages)-1].PlainText(), "name every prompt") {
		t.Fatalf("summary requests %+v", reqs)
	}
	vs := views(t, h.cp, "s")
	if len(vs) != 1 || !strings.Contains(string(vs[0].Event.(session.ContextViewEvent).View), "the summary") {
		t.Errorf("views %+v", vs)
	}
}

// A change levels 1, 2 and 4 alone make is committed only once the events
// after the latest view weigh a quarter of the window: the next request
// redoes it alike, and each view holds the whole compacted history.
func TestContextCommitsLevelChangesOnlyForAHeavyTail(t *testing.T) {
	h := newHarness(t, engine.Options{Context: &engine.ContextOptions{Window: 4000}})
	h.echoTurn(t, "s", "first", strings.Repeat("a", 12000))
	h.p.Reply(modeltest.Text("ok"))
	if _, _, err := h.turn(t, t.Context(), "s", "second"); err != nil {
		t.Fatal(err)
	}
	if n := len(views(t, h.cp, "s")); n != 1 {
		t.Fatalf("%d views after the big result, want 1", n)
	}
	// A small result, externalized by level 1 at the next prompt, in a
	// tail far under a quarter of the window.
	h.echoTurn(t, "s", "third", strings.Repeat("b", 600))
	h.p.Reply(modeltest.Text("ok"))
	evs, _, err := h.turn(t, t.Context(), "s", "fourth")
	if err != nil {
		t.Fatal(err)
	}
	st := statuses(evs)
	msgs := h.p.Requests()[len(h.p.Requests())-1].Messages
	got := resultContents(msgs)
	if len(st) != 1 || len(got) != 2 || !strings.HasPrefix(got[1], "[tool result externalized after presentation]") {
		t.Fatalf("status %+v, results %q", st, got)
	}
	if n := len(views(t, h.cp, "s")); n != 1 || st[0].Generation != 1 {
		t.Errorf("%d views, generation %d: a light tail was committed", n, st[0].Generation)
	}
}
