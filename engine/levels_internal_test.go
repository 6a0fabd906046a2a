package engine

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/internal/utf16text"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// stored numbers events as a log from seq 1.
func stored(evs ...session.Event) []session.StoredEvent {
	out := make([]session.StoredEvent, len(evs))
	for i, ev := range evs {
		out[i] = session.StoredEvent{Seq: int64(i + 1), SessionID: "s", ParentSeq: int64(i), Event: ev}
	}
	return out
}

func user(s string) session.Event { return session.UserEvent{Message: model.UserText(s)} }

func answer(s string) session.Event { return session.AssistantEvent{Message: model.AssistantText(s)} }

func callOf(id string) session.Event {
	return session.AssistantEvent{Message: model.AssistantBlocks(model.ToolCallBlock(id, "echo", json.RawMessage(`{}`)))}
}

func resultOf(id, content string) session.Event {
	return session.ToolResultEvent{Result: model.ToolResultBlock(id, content, false), Turn: 1}
}

// Each context level is a compaction.Pass: given the run's messages it
// returns them unchanged (the same slice) or changed by its rule alone.
func TestLevelPasses(t *testing.T) {
	long := strings.Repeat("long text ", 200)
	tests := []struct {
		name    string
		level   int // index into levels: 0 externalize, 1 reminders, 2 planner, 3 pin
		events  []session.StoredEvent
		pinned  bool // the log was loaded from a pinned view
		planner Planner
		changed bool
		check   func(t *testing.T, msgs []model.Message)
	}{
		{name: "externalize a presented result", level: 0,
			events: stored(user("go"), callOf("c1"), resultOf("c1", long), answer("seen")), changed: true,
			check: func(t *testing.T, msgs []model.Message) {
				if c := msgs[2].Blocks[0].Content; !strings.HasPrefix(c, externalizedLabel+" long text") || utf16text.Len(c) > 256 {
					t.Errorf("result %q", c)
				}
			}},
		{name: "externalize leaves an unseen result", level: 0,
			events: stored(user("go"), callOf("c1"), resultOf("c1", long))},
		{name: "externalize leaves a short result", level: 0,
			events: stored(user("go"), callOf("c1"), resultOf("c1", "short"), answer("seen"))},
		{name: "reminders replace a repeat", level: 1,
			events: stored(user("Reminder: tests run"), answer("a"), user("Reminder: tests run"), answer("b"), user("go")), changed: true,
			check: func(t *testing.T, msgs []model.Message) {
				if msgs[0].Text != "Reminder: tests run" || msgs[2].Text != repeatedReminder || msgs[4].Text != "go" {
					t.Errorf("messages %+v", msgs)
				}
			}},
		{name: "reminders leave other repeats", level: 1,
			events: stored(user("hello"), answer("a"), user("hello"), answer("b"), user("go"))},
		{name: "reminders leave the current prompt", level: 1,
			events: stored(user("Reminder: tests run"), answer("a"), user("Reminder: tests run"))},
		{name: "reminders on a pinned view", level: 1, pinned: true,
			events: stored(user("Reminder: x"), answer("a"), user("Reminder: x"), answer("b"), user("go")), changed: true,
			check: func(t *testing.T, msgs []model.Message) {
				if !strings.HasPrefix(msgs[0].Text, "[Pinned facts") || msgs[3].Text != repeatedReminder {
					t.Errorf("messages %+v", msgs)
				}
			}},
		{name: "planner without a planner", level: 2,
			events: stored(user("one"), answer(long), user("two"), answer(long), user("go"))},
		{name: "planner keeps what it is not told to change", level: 2,
			planner: PlannerFunc(func(context.Context, PlanRequest) (Plan, error) { return Plan{}, nil }),
			events:  stored(user("one"), answer(long), user("two"), answer(long), user("go"))},
		{name: "planner archives nothing without an archive", level: 2,
			planner: PlannerFunc(func(_ context.Context, req PlanRequest) (Plan, error) {
				return Plan{Segments: []SegmentPlan{{Segment: req.Segments[0].ID, Action: PlanArchive}}}, nil
			}),
			events: stored(user("one"), answer(long), user("two"), answer(long), user("go"))},
		{name: "planner leaves verified segments", level: 2,
			planner: PlannerFunc(func(_ context.Context, req PlanRequest) (Plan, error) {
				if len(req.Segments) != 1 || req.Segments[0].Messages[0].Text != "two" {
					t.Errorf("segments %+v", req.Segments)
				}
				return Plan{Segments: []SegmentPlan{{Segment: req.Segments[0].ID, Action: PlanSummarize, Summary: "s", EvidenceRefs: []string{"x:4"}}}}, nil
			}),
			events: stored(user("one"), session.ArtifactVerifiedEvent{Path: "a.go", Command: "go test", Result: json.RawMessage(`"ok"`)},
				answer(long), user("two"), answer(long), user("go")), changed: true,
			check: func(t *testing.T, msgs []model.Message) {
				if len(msgs) != 4 || msgs[0].Text != "one" || msgs[2].Text != summaryPrefix+"s" || msgs[3].Text != "go" {
					t.Errorf("messages %+v", msgs)
				}
			}},
		{name: "pin shrinks the history and pins the facts", level: 3,
			events: stored(user("Goal: "+long), answer(long), user("go")), changed: true,
			check: func(t *testing.T, msgs []model.Message) {
				if len(msgs) != 4 || !strings.HasPrefix(msgs[0].Text, "[Pinned facts") || utf16text.Len(msgs[2].Text) > shrunkMessage || msgs[3].Text != "go" {
					t.Errorf("messages %+v", msgs)
				}
			}},
		{name: "pin leaves a pinned, short history", level: 3, pinned: true,
			events: stored(user("one"), answer("short"), user("go"))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := New(Options{Provider: nopProvider{}, Checkpointer: session.NewMemoryCheckpointer(),
				Context: &ContextOptions{Window: 100000, Planner: tt.planner}})
			if err != nil {
				t.Fatal(err)
			}
			st := &sessionState{events: tt.events}
			if tt.pinned {
				st.view = &viewBase{generation: 1, pinned: true}
			}
			r := &run{e: e, id: "s", st: st}
			c := r.contextRun("")
			c.status.Level = tt.level // the levels before it applied
			pass := c.levels(true)[tt.level]
			in := c.msgs
			out, err := compaction.Run(t.Context(), in, pass)
			if err != nil {
				t.Fatal(err)
			}
			if got := compaction.Changed(in, out); got != tt.changed {
				t.Fatalf("changed %v, want %v: %+v", got, tt.changed, out)
			}
			if tt.check != nil {
				tt.check(t, out)
			}
			if c.changed != tt.changed {
				t.Errorf("the run is marked changed %v", c.changed)
			}
		})
	}
}

func TestModelPlannerReadsTheModelsJSON(t *testing.T) {
	p := modeltest.New()
	p.Reply(modeltest.Text("Here it is:\n```json\n{\"segments\":[{\"segment\":\"segment-1\",\"action\":\"summarize\",\"summary\":\"s\",\"evidenceRefs\":[\"segment-1:1\"]}],\"nextStep\":\"ship\"}\n```"))
	p.Reply(modeltest.Text("no plan today"))
	req := PlanRequest{Segments: []Segment{{ID: "segment-1", Seqs: []int64{1, 2}, Messages: []model.Message{model.UserText("one")}}}}
	plan, err := ModelPlanner(p, "m").Plan(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Segments) != 1 || plan.Segments[0].Action != PlanSummarize || plan.NextStep != "ship" {
		t.Errorf("plan %+v", plan)
	}
	if sent := p.Requests()[0].Messages[0].Text; !strings.Contains(sent, "## segment-1") || !strings.Contains(sent, "user: one") {
		t.Errorf("prompt %q", sent)
	}
	if _, err := ModelPlanner(p, "m").Plan(t.Context(), req); err == nil {
		t.Error("an answer without JSON gave a plan")
	}
}

// FuzzDecodeView checks that any view member decodes or fails cleanly, and
// that a view that decodes encodes back to one that decodes the same.
func FuzzDecodeView(f *testing.F) {
	f.Add([]byte(`{"format":"lite-agent-go/context-view/1","generation":1,"entries":[{"message":{"role":"user","content":"hi"},"seq":1,"prompt":true}]}`))
	f.Add([]byte(`{"format":"lite-agent-go/context-view/1","generation":2,"pinned":true,"entries":[],"facts":[{"kind":"goal","text":"x"}],"sawPrompt":true,"state":{"nextStep":"y"},"calibration":{"model":"m","ratio":2.5}}`))
	f.Add([]byte(`{"generation":1,"messages":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := decodeView(data)
		if err != nil {
			return
		}
		again, err := encodeView(b.generation, b.pinned, b.entries, &b.facts, b.state, b.archiveRefs, b.calib, b.calibModel)
		if err != nil {
			t.Fatalf("a decoded view does not encode: %v", err)
		}
		b2, err := decodeView(again)
		if err != nil {
			t.Fatalf("a re-encoded view does not decode: %v\n%s", err, again)
		}
		third, _ := encodeView(b2.generation, b2.pinned, b2.entries, &b2.facts, b2.state, b2.archiveRefs, b2.calib, b2.calibModel)
		if string(third) != string(again) {
			t.Errorf("encoding is not stable:\n%s\n%s", again, third)
		}
	})
}

// FuzzViewResume checks committed views on any log and window: after a
// request commits a view, the same request again commits nothing more (the
// levels are idempotent on their own output), and a fresh engine resuming
// the log from the view builds the very request the first engine builds.
func FuzzViewResume(f *testing.F) {
	f.Add([]byte{0, 40, 2, 2, 90, 90, 90, 1, 30, 0, 50, 3, 0, 200}, uint16(300), false)
	f.Add([]byte{0, 255, 2, 1, 255, 255, 0, 255}, uint16(100), true)
	f.Add([]byte{0, 9, 1, 200, 0, 9, 1, 200, 0, 1}, uint16(700), false)
	f.Fuzz(func(t *testing.T, script []byte, window uint16, force bool) {
		if len(script) > 200 {
			return
		}
		logged := fuzzLog(script)
		if len(logged) == 0 {
			return
		}
		ctx := t.Context()
		cp := session.NewMemoryCheckpointer()
		evs := make([]session.Event, len(logged))
		for i, se := range logged {
			evs[i] = se.Event
		}
		if _, err := cp.Append(ctx, "s", evs, 0); err != nil {
			t.Fatal(err)
		}
		newRun := func() *run {
			e, err := New(Options{Provider: nopProvider{}, Checkpointer: cp, Context: &ContextOptions{Window: int(window) + 1}})
			if err != nil {
				t.Fatal(err)
			}
			r := &run{e: e, id: "s", st: &sessionState{turn: make(chan struct{}, 1)}}
			if err := r.load(ctx); err != nil {
				t.Fatal(err)
			}
			return r
		}
		a := newRun()
		if _, _, err := a.messages(ctx, "reminder", force); err != nil {
			t.Fatal(err)
		}
		head, _ := cp.Head(ctx, "s")
		ma, _, err := a.messages(ctx, "reminder", false)
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := cp.Head(ctx, "s"); again != head {
			t.Fatalf("a second request on the committed view committed again (head %d -> %d)", head, again)
		}
		b := newRun()
		mb, _, err := b.messages(ctx, "reminder", false)
		if err != nil {
			t.Fatal(err)
		}
		ja, _ := json.Marshal(ma)
		jb, _ := json.Marshal(mb)
		if string(ja) != string(jb) {
			t.Errorf("the resumed request differs:\n%s\nwant\n%s", jb, ja)
		}
	})
}

// FuzzMentions checks mentions against the regular expression it replaces,
// on ASCII text.
func FuzzMentions(f *testing.F) {
	f.Add("You MUST keep it")
	f.Add("Acceptance Criteria: musts_")
	f.Add("x-requirements-y mustard")
	re := regexp.MustCompile(`(?i)\b(?:constraint|requirement|must|acceptance criteria)s?\b`)
	f.Fuzz(func(t *testing.T, text string) {
		for i := 0; i < len(text); i++ {
			if text[i] >= 0x80 {
				return
			}
		}
		if got, want := mentions(text, constraintWords, nil), re.MatchString(text); got != want {
			t.Errorf("mentions(%q) = %v, the expression says %v", text, got, want)
		}
	})
}
