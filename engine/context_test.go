package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/utf16text"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// archiveIn returns a Context option backed by real file archives under
// dir, one per session, and a way to reach them.
func archiveIn(t *testing.T, dir string) (func(context.Context, string) (archive.Archive, error), func(id string) *archive.FileArchive) {
	t.Helper()
	open := func(id string) *archive.FileArchive {
		ar, err := archive.NewFileArchive(filepath.Join(dir, id+".context"), archive.Options{SessionID: id})
		if err != nil {
			t.Fatal(err)
		}
		return ar
	}
	return func(_ context.Context, id string) (archive.Archive, error) { return open(id), nil }, open
}

// statuses returns the context_status payloads of evs.
func statuses(evs []engine.Event) []engine.ContextStatus {
	var out []engine.ContextStatus
	for _, ev := range evs {
		if ev.Type == engine.EventContextStatus {
			out = append(out, *ev.Context)
		}
	}
	return out
}

// resultContents returns the contents of the tool results in msgs.
func resultContents(msgs []model.Message) []string {
	var out []string
	for _, m := range msgs {
		for _, b := range m.Blocks {
			if b.Type == model.BlockToolResult {
				out = append(out, b.Content)
			}
		}
	}
	return out
}

// echoTurn runs a prompt whose model echoes text through the echo tool and
// then answers "ok".
func (h *harness) echoTurn(t *testing.T, id, prompt, text string) []engine.Event {
	t.Helper()
	in, _ := json.Marshal(map[string]string{"text": text})
	h.p.Reply(modeltest.ToolCalls(call("c-"+prompt, "echo", string(in))), modeltest.Text("ok"))
	evs, _, err := h.turn(t, t.Context(), id, prompt)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

var archivedRef = regexp.MustCompile(`^\[tool result archived: ([0-9a-f]{64})\] `)

func TestContextLevel1ArchivesToolResultsTheModelHasSeen(t *testing.T) {
	resolve, open := archiveIn(t, t.TempDir())
	h := newHarness(t, engine.Options{Context: &engine.ContextOptions{Window: 2000, Archive: resolve}})
	big := strings.Repeat("lorem ipsum ", 250) // 3,000 characters

	h.echoTurn(t, "s", "first", big)
	// The result was not yet seen by the model when it was sent back.
	reqs := h.p.Requests()
	if got := resultContents(reqs[1].Messages); len(got) != 1 || got[0] != "echo: "+big {
		t.Fatalf("a result the model has not seen was changed: %.80q", got)
	}

	h.p.Reply(modeltest.Text("done"))
	evs, _, err := h.turn(t, t.Context(), "s", "second")
	if err != nil {
		t.Fatal(err)
	}
	req := h.p.Requests()[2]
	got := resultContents(req.Messages)
	if len(got) != 1 {
		t.Fatalf("results %q", got)
	}
	m := archivedRef.FindStringSubmatch(got[0])
	if m == nil {
		t.Fatalf("the seen result was not archived: %.120q", got[0])
	}
	page, err := open("s").Read(t.Context(), archive.ReadRequest{Ref: m[1], Limit: 16000})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page, "echo: lorem ipsum") || !strings.Contains(page, "nextOffset=end") {
		t.Errorf("the archive does not give the result back whole: %.200q", page)
	}
	st := statuses(evs)
	if len(st) != 1 || st[0].Level != 1 || st[0].Reason != "pressure" || len(st[0].ArchiveRefs) != 1 || st[0].ArchiveRefs[0] != m[1] ||
		st[0].AfterTokens >= st[0].BeforeTokens {
		t.Errorf("status %+v", st)
	}
	// The log keeps the whole result: only the request is compacted.
	logged, err := h.cp.Read(t.Context(), "s", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, se := range logged {
		if tr, ok := se.Event.(session.ToolResultEvent); ok && tr.Result.Content != "echo: "+big {
			t.Errorf("the log's result changed: %.80q", tr.Result.Content)
		}
	}
}

func TestContextLevel1WithoutArchiveKeepsAPreview(t *testing.T) {
	h := newHarness(t, engine.Options{Context: &engine.ContextOptions{Window: 2000}})
	big := strings.Repeat("dolor sit ", 300)
	h.echoTurn(t, "s", "first", big)
	h.p.Reply(modeltest.Text("done"))
	if _, _, err := h.turn(t, t.Context(), "s", "second"); err != nil {
		t.Fatal(err)
	}
	got := resultContents(h.p.Requests()[2].Messages)
	want := "[tool result externalized after presentation] " + ("echo: " + big)[:160]
	if len(got) != 1 || got[0] != want {
		t.Errorf("result %q, want %q", got, want)
	}
}

func TestContextBelowPressureSendsTheLogAsIs(t *testing.T) {
	h := newHarness(t, engine.Options{Context: &engine.ContextOptions{}})
	plain := newHarness(t, engine.Options{})
	for _, hh := range []*harness{h, plain} {
		hh.echoTurn(t, "s", "first", strings.Repeat("x", 3000))
		hh.p.Reply(modeltest.Text("done"))
		evs, _, err := hh.turn(t, t.Context(), "s", "second")
		if err != nil {
			t.Fatal(err)
		}
		if st := statuses(evs); st != nil {
			t.Errorf("status under the window: %+v", st)
		}
	}
	a, b := h.p.Requests(), plain.p.Requests()
	if len(a) != len(b) {
		t.Fatalf("%d requests, want %d", len(a), len(b))
	}
	for i := range a {
		ja, _ := json.Marshal(a[i].Messages)
		jb, _ := json.Marshal(b[i].Messages)
		if string(ja) != string(jb) {
			t.Errorf("request %d differs from the engine without a context engine", i)
		}
	}
}

func TestContextLevel4PinsFactsAndShortensEarlierMessages(t *testing.T) {
	h := newHarness(t, engine.Options{Context: &engine.ContextOptions{Window: 2000}})
	goal := "Goal: port the parser. You must not change the public API."
	long := strings.Repeat("a long answer ", 300) // 4,200 characters
	h.p.Reply(modeltest.Text(long))
	if _, _, err := h.turn(t, t.Context(), "s", goal); err != nil {
		t.Fatal(err)
	}
	h.p.Reply(modeltest.Text(long))
	if _, _, err := h.turn(t, t.Context(), "s", "The acceptance criteria: every test passes."); err != nil {
		t.Fatal(err)
	}
	h.p.Reply(modeltest.Text("fine"))
	evs, _, err := h.turn(t, t.Context(), "s", "third")
	if err != nil {
		t.Fatal(err)
	}
	msgs := h.p.Requests()[2].Messages
	facts := msgs[0].Text
	if !strings.HasPrefix(facts, "[Pinned facts — verbatim, do not rewrite]") ||
		!strings.Contains(facts, "goal: "+goal) || !strings.Contains(facts, "constraint: The acceptance criteria: every test passes.") {
		t.Errorf("facts message %q", facts)
	}
	for _, m := range msgs[1 : len(msgs)-1] {
		if n := utf16text.Len(m.PlainText()); n > 768 {
			t.Errorf("a message before the prompt kept %d characters", n)
		}
	}
	if !strings.Contains(msgs[2].PlainText(), "chars omitted") {
		t.Errorf("no omission marker in %.100q", msgs[2].PlainText())
	}
	if last := msgs[len(msgs)-1]; last.Text != "third" {
		t.Errorf("last message %+v", last)
	}
	if st := statuses(evs); len(st) != 1 || st[0].Level != 4 || st[0].AfterTokens > 2000 {
		t.Errorf("status %+v", st)
	}
}

func TestContextLevel2ReplacesRepeatedReminders(t *testing.T) {
	h := newHarness(t, engine.Options{Context: &engine.ContextOptions{Window: 1000}})
	reminder := "Reminder: the background task build finished."
	filler := strings.Repeat("z", 1400)
	for _, p := range []string{reminder, reminder, "go on"} {
		h.p.Reply(modeltest.Text(filler))
		if _, _, err := h.turn(t, t.Context(), "s", p); err != nil {
			t.Fatal(err)
		}
	}
	msgs := h.p.Requests()[2].Messages
	var texts []string
	for _, m := range msgs {
		if m.Role == model.RoleUser && m.Blocks == nil {
			texts = append(texts, m.Text)
		}
	}
	if len(texts) < 3 || texts[len(texts)-3] != reminder || texts[len(texts)-2] != "[repeated reminder omitted]" {
		t.Errorf("user texts %q", texts)
	}
}

func TestContextLevel5KeepsNoResultWithoutItsCall(t *testing.T) {
	cp := session.NewMemoryCheckpointer()
	// A log whose last turn was cut off after its tool ran.
	big := strings.Repeat("q", 5000)
	if _, err := cp.Append(t.Context(), "s", []session.Event{
		session.UserEvent{Message: model.UserText("start")},
		session.AssistantEvent{Message: model.AssistantBlocks(call("c1", "echo", `{"text":"q"}`))},
		session.ToolResultEvent{Result: model.ToolResultBlock("c1", big, false), Turn: 1},
	}, 0); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, engine.Options{Checkpointer: cp, Context: &engine.ContextOptions{Window: 400}})
	h.p.Reply(modeltest.Text("ok"))
	// A prompt too long for the window by itself leaves only level 5.
	evs, _, err := h.turn(t, t.Context(), "s", "next "+strings.Repeat("p", 3000))
	if err != nil {
		t.Fatal(err)
	}
	msgs := h.p.Requests()[0].Messages
	calls := map[string]bool{}
	for _, m := range msgs {
		for _, b := range m.Blocks {
			switch b.Type {
			case model.BlockToolCall:
				calls[b.ID] = true
			case model.BlockToolResult:
				if !calls[b.ID] {
					t.Errorf("result %s sent without its call", b.ID)
				}
			}
		}
	}
	if len(msgs) != 3 || !strings.HasPrefix(msgs[0].Text, "[Pinned facts") || !strings.HasPrefix(msgs[2].Text, "next ppp") ||
		utf16text.Len(msgs[1].PlainText()) > 512+64 || utf16text.Len(msgs[2].Text) > 512 ||
		!strings.Contains(msgs[1].PlainText(), "[tool result of an earlier call c1]") {
		t.Errorf("messages %+v", msgs)
	}
	if st := statuses(evs); len(st) != 1 || st[0].Level != 5 {
		t.Errorf("status %+v", st)
	}
}

func TestContextOverflowIsRetriedOnceCompacted(t *testing.T) {
	overflow := model.NewError(model.ClassContextOverflow, 413, "prompt is too long", nil)
	for _, tc := range []struct {
		name      string
		context   *engine.ContextOptions
		streamed  bool
		wantRetry bool
	}{
		{name: "before any chunk", context: &engine.ContextOptions{}, wantRetry: true},
		{name: "after a chunk", context: &engine.ContextOptions{}, streamed: true},
		{name: "context engine off"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, engine.Options{Context: tc.context})
			if tc.streamed {
				h.p.FailAfter([]model.Chunk{{Kind: model.ChunkText, Text: "par"}}, overflow)
			} else {
				h.p.Fail(overflow)
			}
			h.p.Reply(modeltest.Text("fits now"))
			evs, res, err := h.turn(t, t.Context(), "s", "hello")
			if !tc.wantRetry {
				if !model.IsClass(err, model.ClassContextOverflow) || len(h.p.Requests()) != 1 {
					t.Errorf("err %v after %d requests; want the overflow, unretried", err, len(h.p.Requests()))
				}
				return
			}
			if err != nil || res.Text != "fits now" {
				t.Fatalf("err %v, result %+v", err, res)
			}
			st := statuses(evs)
			if len(st) != 1 || st[0].Reason != "overflow" || st[0].Level != 5 {
				t.Errorf("status %+v", st)
			}
			if reqs := h.p.Requests(); len(reqs) != 2 || !strings.HasPrefix(reqs[1].Messages[0].Text, "[Pinned facts") {
				t.Errorf("retry request %+v", reqs)
			}
		})
	}
}

func TestContextWindowMustNotBeNegative(t *testing.T) {
	_, err := engine.New(engine.Options{Provider: modeltest.New(), Checkpointer: session.NewMemoryCheckpointer(),
		Context: &engine.ContextOptions{Window: -1}})
	if err == nil {
		t.Fatal("a negative window was accepted")
	}
}

func TestContextCompactingIsCalledAroundTheLevels(t *testing.T) {
	type call struct {
		before, after int
		err           error
		ended         bool
	}
	for _, tc := range []struct {
		name    string
		archive func(context.Context, string) (archive.Archive, error)
	}{
		{name: "levels applied"},
		{name: "archive fails", archive: func(context.Context, string) (archive.Archive, error) {
			return nil, errors.New("disk on fire")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls []*call
			opts := &engine.ContextOptions{Window: 2000, Archive: tc.archive,
				Compacting: func(_ context.Context, _ string, before int) func(int, error) {
					c := &call{before: before}
					calls = append(calls, c)
					return func(after int, err error) {
						if c.ended {
							t.Error("done called twice")
						}
						c.after, c.err, c.ended = after, err, true
					}
				}}
			h := newHarness(t, engine.Options{Context: opts})
			h.echoTurn(t, "s", "first", strings.Repeat("x", 4000))
			calls = nil // the first prompt's second request was over level 1 too
			h.p.Reply(modeltest.Text("done"))
			evs, _, err := h.turn(t, t.Context(), "s", "second")
			if len(calls) != 1 || !calls[0].ended {
				t.Fatalf("calls %+v", calls)
			}
			if tc.archive != nil {
				if err == nil || calls[0].err == nil || !errors.Is(err, calls[0].err) || !strings.Contains(err.Error(), "disk on fire") {
					t.Errorf("turn error %v, done got %v", err, calls[0].err)
				}
				return
			}
			st := statuses(evs)
			if err != nil || len(st) != 1 || calls[0].before != st[0].BeforeTokens || calls[0].after != st[0].AfterTokens || calls[0].err != nil {
				t.Errorf("err %v, calls %+v, status %+v", err, *calls[0], st)
			}
		})
	}
}

// Level 2 replaces repeats in the history only: a prompt that repeats an
// earlier one is the model's task and goes whole.
func TestContextLevel2KeepsTheCurrentPrompt(t *testing.T) {
	h := newHarness(t, engine.Options{Context: &engine.ContextOptions{Window: 1000}})
	p := "What is the status of the background task?"
	h.p.Reply(modeltest.Text(strings.Repeat("z", 3000)))
	if _, _, err := h.turn(t, t.Context(), "s", p); err != nil {
		t.Fatal(err)
	}
	h.p.Reply(modeltest.Text("ok"))
	evs, _, err := h.turn(t, t.Context(), "s", p)
	if err != nil {
		t.Fatal(err)
	}
	msgs := h.p.Requests()[1].Messages
	if last := msgs[len(msgs)-1]; last.Text != p {
		t.Errorf("the current prompt was sent as %q (status %+v)", last.Text, statuses(evs))
	}
}

// A seen result no longer than its replacement stays whole, is not
// archived and is not reported.
func TestContextLevel1LeavesResultsShorterThanTheirReplacement(t *testing.T) {
	dir := t.TempDir()
	resolve, _ := archiveIn(t, dir)
	h := newHarness(t, engine.Options{Context: &engine.ContextOptions{Window: 300, Archive: resolve}})
	mid := strings.Repeat("m", 300)
	h.echoTurn(t, "s", "first", mid)
	h.p.Reply(modeltest.Text("done"))
	evs, _, err := h.turn(t, t.Context(), "s", "second")
	if err != nil {
		t.Fatal(err)
	}
	if got := resultContents(h.p.Requests()[2].Messages); len(got) != 1 || got[0] != "echo: "+mid {
		t.Errorf("results %q", got)
	}
	st := statuses(evs)
	if len(st) != 1 || st[0].Level == 0 || st[0].ArchiveRefs != nil {
		t.Errorf("status %+v", st)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("the archive was written: %v", ents)
	}
}

// countingProvider is a scripted model that also counts tokens: count
// returns what it says for each request.
type countingProvider struct {
	*modeltest.Provider
	count func(model.Request) (int, error)
}

func (p countingProvider) CountTokens(_ context.Context, req model.Request) (int, error) {
	return p.count(req)
}

// A provider that counts tokens decides when compaction starts: a small
// session it counts as large is compacted, and a failed count falls back
// to estimates. A tiny request is not counted at all.
func TestContextUsesTheProvidersTokenCount(t *testing.T) {
	for _, tc := range []struct {
		name      string
		count     func(model.Request) (int, error)
		wantLevel bool
	}{
		{"large count", func(model.Request) (int, error) { return 1800, nil }, true},
		{"count fails", func(model.Request) (int, error) { return 0, errors.New("no counting today") }, false},
		{"negative count", func(model.Request) (int, error) { return -1, nil }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := countingProvider{Provider: modeltest.New(), count: tc.count}
			eng, err := engine.New(engine.Options{Provider: model.WithRetry(p, model.RetryOptions{}), Checkpointer: session.NewMemoryCheckpointer(),
				Model: "m", Context: &engine.ContextOptions{Window: 2000}})
			if err != nil {
				t.Fatal(err)
			}
			p.Reply(modeltest.Text("ok"))
			var st []engine.ContextStatus
			// ~375 estimated tokens: counted (over a quarter of 65% of the
			// window), yet far under the threshold by estimate.
			for ev, err := range eng.Turn(t.Context(), "s", model.UserText(strings.Repeat("word ", 300))) {
				if err != nil {
					t.Fatal(err)
				}
				if ev.Type == engine.EventContextStatus {
					st = append(st, *ev.Context)
				}
			}
			if got := len(st) == 1; got != tc.wantLevel {
				t.Fatalf("status %+v", st)
			}
			if tc.wantLevel && (st[0].BeforeTokens != 1800 || st[0].Level != 2) {
				t.Errorf("status %+v, want 1,800 tokens before (levels 1 and 2 at 90%%)", st[0])
			}
		})
	}
}

func TestContextDoesNotCountTinyRequests(t *testing.T) {
	var calls atomic.Int32
	p := countingProvider{Provider: modeltest.New(), count: func(model.Request) (int, error) { calls.Add(1); return 10, nil }}
	eng, err := engine.New(engine.Options{Provider: p, Checkpointer: session.NewMemoryCheckpointer(), Model: "m", Context: &engine.ContextOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	p.Reply(modeltest.Text("ok"))
	for _, err := range eng.Turn(t.Context(), "s", model.UserText("hi")) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d counts for a tiny request", n)
	}
}

// windowProvider is a scripted model that reports a context window.
type windowProvider struct {
	*modeltest.Provider
	window int
}

func (p windowProvider) ContextWindow(string) int { return p.window }

// The window is the option's, else the provider's, else 32,000.
func TestContextWindowComesFromTheOptionsOrTheProvider(t *testing.T) {
	prompt := strings.Repeat("word ", 1000) // ~1,250 tokens
	for _, tc := range []struct {
		name      string
		option    int
		reported  int
		wantLevel bool
	}{
		{"provider's small window", 0, 1500, true},
		{"option over the provider", 100000, 1500, false},
		{"provider knows no window", 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := windowProvider{Provider: modeltest.New(), window: tc.reported}
			eng, err := engine.New(engine.Options{Provider: model.WithRetry(p, model.RetryOptions{}), Checkpointer: session.NewMemoryCheckpointer(),
				Model: "m", Context: &engine.ContextOptions{Window: tc.option}})
			if err != nil {
				t.Fatal(err)
			}
			p.Reply(modeltest.Text("ok"))
			var st []engine.ContextStatus
			for ev, err := range eng.Turn(t.Context(), "s", model.UserText(prompt)) {
				if err != nil {
					t.Fatal(err)
				}
				if ev.Type == engine.EventContextStatus {
					st = append(st, *ev.Context)
				}
			}
			if got := len(st) > 0; got != tc.wantLevel {
				t.Errorf("status %+v", st)
			}
		})
	}
}
