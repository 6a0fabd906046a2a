package liteagent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

func TestCompactIsRefusedWhileARunIsActive(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(nil))
	f.p.Reply(modeltest.Text("hi"))
	if _, err := a.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	started, release := make(chan struct{}), make(chan struct{})
	f.p.Respond(func(ctx context.Context, _ model.Request) ([]model.Chunk, error) {
		close(started)
		<-release
		return modeltest.Text("late").Chunks(), nil
	})
	done := make(chan error, 1)
	go func() {
		_, err := a.Send(context.Background(), "slow")
		done <- err
	}()
	<-started
	_, err := a.Compact(t.Context(), liteagent.CompactOptions{})
	var busy *liteagent.SessionBusyError
	if !errors.As(err, &busy) || busy.SessionID != a.SessionID() || busy.HeldBy != liteagent.ActivityRun || busy.Op ||
		!strings.Contains(err.Error(), "run in progress") {
		t.Errorf("compact during a run: %v, want a *SessionBusyError held by a run", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestCompactCommitsAViewAndTheNextRunStartsFromIt compacts a session of
// large tool results, checks the events and the committed view, and that
// the next request (after a restart too) is smaller than before.
func TestCompactCommitsAViewAndTheNextRunStartsFromIt(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	a := f.agent(t, opts)
	big := strings.Repeat("line of output\n", 400)
	for i := range 4 {
		f.p.Reply(modeltest.ToolCalls(call("c"+string(rune('a'+i)), "bash", `{"command":"printf '`+strings.Repeat("x", 3000)+`'"}`)), modeltest.Text("done "+big))
		if _, err := a.Send(t.Context(), "step"); err != nil {
			t.Fatal(err)
		}
	}
	id := a.SessionID()
	beforeReqs := f.p.Requests()
	var mu sync.Mutex
	var phases []liteagent.CompactionEvent
	unsub, _ := a.Subscribe(func(n liteagent.Notice) {
		if n.Event.Type == liteagent.EventCompaction && n.SessionID == id {
			mu.Lock()
			phases = append(phases, *n.Event.Compaction)
			mu.Unlock()
		}
	})
	res, err := a.Compact(t.Context(), liteagent.CompactOptions{Instructions: "keep the file names"})
	unsub()
	if err != nil {
		t.Fatalf("Compact: %v", err)
	}
	if !res.Committed || res.After >= res.Before || res.Generation < 1 {
		t.Fatalf("Compact = %+v, want a committed view that shrinks the request", res)
	}
	mu.Lock()
	if len(phases) < 2 || phases[0].Phase != "start" || phases[len(phases)-1].Phase != "done" {
		t.Errorf("compaction phases %+v, want start … done", phases)
	}
	mu.Unlock()

	cp, err := session.NewFileCheckpointer(a.Paths().SessionsDir, session.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	view, _, err := cp.ReadFromView(t.Context(), id)
	if err != nil || view == nil {
		t.Fatalf("no committed view after Compact: %v", err)
	}
	// A new agent (a restart) resumes from the view.
	a.Close()
	b := f.agent(t, opts)
	if err := b.Resume(id); err != nil {
		t.Fatal(err)
	}
	f.p.Reply(modeltest.Text("ok"))
	if _, err := b.Send(t.Context(), "next"); err != nil {
		t.Fatal(err)
	}
	reqs := f.p.Requests()
	before, _ := json.Marshal(beforeReqs[len(beforeReqs)-1].Messages)
	after, _ := json.Marshal(reqs[len(reqs)-1].Messages)
	if len(after) >= len(before) {
		t.Errorf("the request after compaction and a restart is %d bytes of JSON, the one before it %d", len(after), len(before))
	}
}

func TestCompactSummaryReplacesOlderTurns(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.CompactSummary = true
	a := f.agent(t, opts)
	for i := range 6 {
		f.p.Reply(modeltest.Text("answer " + string(rune('a'+i))))
		if _, err := a.Send(t.Context(), "question "+string(rune('a'+i))); err != nil {
			t.Fatal(err)
		}
	}
	f.p.Reply(modeltest.Text("the user asked six questions"))
	res, err := a.Compact(t.Context(), liteagent.CompactOptions{Instructions: "count the questions"})
	if err != nil || !res.Committed {
		t.Fatalf("Compact = %+v, %v", res, err)
	}
	reqs := f.p.Requests()
	if prompt, _ := json.Marshal(reqs[len(reqs)-1].Messages); !strings.Contains(string(prompt), "count the questions") {
		t.Errorf("the summary request lacks the instructions: %s", prompt)
	}
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(t.Context(), "next"); err != nil {
		t.Fatal(err)
	}
	reqs = f.p.Requests()
	msgs := reqs[len(reqs)-1].Messages
	b, _ := json.Marshal(msgs)
	if !strings.Contains(string(b), "[Summary of earlier conversation]") || !strings.Contains(string(b), "the user asked six questions") ||
		strings.Contains(string(b), "answer a") {
		t.Errorf("the request after Compact does not start from the summary: %s", b)
	}
}

// TestBusyErrorNamesWhatHoldsTheSession starts a prompt and the other
// session operation while a compaction or a restore holds the session:
// both are refused with a *SessionBusyError whose HeldBy and text name the
// operation that holds it.
func TestBusyErrorNamesWhatHoldsTheSession(t *testing.T) {
	for _, tc := range []struct {
		held  liteagent.SessionActivity
		event liteagent.EventType
		text  string
	}{
		{liteagent.ActivityCompaction, liteagent.EventCompaction, "being compacted"},
		{liteagent.ActivityRestore, liteagent.EventCheckpointRestore, "being restored"},
	} {
		t.Run(string(tc.held), func(t *testing.T) {
			f := newFixture(t)
			a := f.agent(t, f.options(nil))
			writePrompt(t, f, a, "first", "a.txt", "one")
			id := a.SessionID()
			compact := func() error {
				_, err := a.CompactSession(context.Background(), id, liteagent.CompactOptions{})
				return err
			}
			restore := func() error { _, err := a.Restore(context.Background(), id, 0, liteagent.RestoreOptions{}); return err }
			own, other := compact, restore
			if tc.held == liteagent.ActivityRestore {
				own, other = restore, compact
			}
			var refused []error
			started := false
			unsub, _ := a.Subscribe(func(n liteagent.Notice) {
				if n.Event.Type != tc.event || started {
					return
				}
				started = true
				_, err := a.Send(context.Background(), "sneak in")
				refused = append(refused, err, other())
			})
			defer unsub()
			if err := own(); err != nil {
				t.Fatal(err)
			}
			if len(refused) != 2 {
				t.Fatalf("no %s event", tc.event)
			}
			for i, err := range refused {
				var busy *liteagent.SessionBusyError
				if !errors.As(err, &busy) || busy.HeldBy != tc.held || !busy.Op || busy.SessionID != id {
					t.Errorf("refusal %d: %#v, want a *SessionBusyError held by %s", i, err, tc.held)
					continue
				}
				if msg := err.Error(); !strings.Contains(msg, tc.text) || !strings.Contains(msg, id) {
					t.Errorf("refusal %d: %q does not say %q", i, msg, tc.text)
				}
			}
		})
	}
}

// A manual compaction fires compact:start (with the instructions) and
// compact:end with kind and source manual, paired by compaction id, in a
// run of their own; the automatic compaction hooks do not fire for it, and
// a failed one ends with status failed.
func TestManualCompactionFiresCompactHooks(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	take := collectHooks(&opts, hook.EventCompactStart, hook.EventCompactEnd)
	a := f.agent(t, opts)
	big := strings.Repeat("line of output\n", 400)
	for i := range 3 {
		f.p.Reply(modeltest.ToolCalls(call("c"+string(rune('a'+i)), "bash", `{"command":"printf '`+strings.Repeat("x", 3000)+`'"}`)), modeltest.Text("done "+big))
		if _, err := a.Send(t.Context(), "step"); err != nil {
			t.Fatal(err)
		}
	}
	take() // the runs' own compactions, if any
	res, err := a.Compact(t.Context(), liteagent.CompactOptions{Instructions: "keep the file names"})
	if err != nil {
		t.Fatal(err)
	}
	got := take()
	if len(got) != 2 {
		t.Fatalf("hooks fired: %+v, want compact:start and compact:end", got)
	}
	s, ok1 := got[0].(hook.CompactStart)
	e, ok2 := got[1].(hook.CompactEnd)
	if !ok1 || !ok2 {
		t.Fatalf("hooks fired: %+v", got)
	}
	if s.Kind != hook.CompactManual || s.Source != hook.SourceManual || s.Instructions != "keep the file names" ||
		s.SessionID != a.SessionID() || s.RunID == "" || s.CompactionID == "" || s.Before != int64(res.Before) {
		t.Errorf("compact:start %+v (result %+v)", s, res)
	}
	if e.Identity != s.Identity || e.CompactionID != s.CompactionID || e.Kind != hook.CompactManual ||
		e.Status != hook.StatusCompleted || e.Before != int64(res.Before) || e.After != int64(res.After) || e.Err != nil {
		t.Errorf("compact:end %+v, start %+v (result %+v)", e, s, res)
	}

	// A compaction cancelled once it started (here by its own start hook)
	// ends cancelled, still paired, and commits nothing.
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	cancelling := f.agent(t, func() liteagent.Options {
		o := opts
		o.Hooks = append(append([]hook.Hook(nil), opts.Hooks...), hook.Hook{Event: hook.EventCompactStart, Func: func(context.Context, hook.Payload) error {
			cancel()
			return nil
		}})
		return o
	}())
	if _, err := cancelling.CompactSession(ctx, a.SessionID(), liteagent.CompactOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled compaction: %v", err)
	}
	got = take()
	if len(got) != 2 {
		t.Fatalf("hooks fired: %+v, want compact:start and compact:end", got)
	}
	if e, ok := got[1].(hook.CompactEnd); !ok || e.Status != hook.StatusCancelled || e.CompactionID != got[0].(hook.CompactStart).CompactionID {
		t.Errorf("compact:end of a cancelled compaction: %+v", got[1])
	}
}
