package liteagent_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// An agent serving many sessions in one process (Resume, a prompt, the
// next) keeps the identity of the current session only: those it left,
// compacted by id or deleted are forgotten. Before, it kept the first
// record's digest of every session it had worked on for its lifetime
// (about 100 bytes each, without bound).
func TestALongLivedAgentKeepsOnlyTheSessionsItUses(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.ContextWindow = 4000
	a := f.agent(t, opts)
	var ids []string
	for i := range 12 {
		id := fmt.Sprintf("served-%02d", i)
		ids = append(ids, id)
		if err := a.Resume(id); err != nil {
			t.Fatal(err)
		}
		f.p.Reply(modeltest.Text("answer"))
		if _, err := a.Send(t.Context(), "prompt"); err != nil {
			t.Fatal(err)
		}
	}
	if got := liteagent.Identified(a, ids...); !slices.Equal(got, ids[len(ids)-1:]) {
		t.Errorf("after serving %d sessions the agent knows %d of them (%v); want only the current one", len(ids), len(got), got)
	}
	if _, err := a.CompactSession(t.Context(), ids[0], liteagent.CompactOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteSession(t.Context(), ids[1]); err != nil {
		t.Fatal(err)
	}
	if got := liteagent.Identified(a, ids...); !slices.Equal(got, ids[len(ids)-1:]) {
		t.Errorf("after a compaction and a delete by id the agent knows %v; want only the current one", got)
	}
	// The current session is still checked: a prompt on it goes on.
	f.p.Reply(modeltest.Text("answer"))
	if _, err := a.Send(t.Context(), "again"); err != nil {
		t.Fatal(err)
	}
}

// A session the agent leaves while its work goes on (a background
// subagent) stays known until the work is over: another process that
// deletes it and starts the id again gets nothing of the work (neither
// the subagent's task record nor the delivery's turn), as if the agent
// had not left. Once the work is over, the next session made current
// forgets it.
func TestASessionLeftWithWorkUnderWayStaysKnown(t *testing.T) {
	f := newFixture(t)
	var started, finish, answered chan struct{}
	f.p, started, finish, answered = blockedSubagent()
	opts := f.options(nil)
	a := f.agent(t, opts)
	if _, err := a.Send(t.Context(), "ask a subagent"); err != nil {
		t.Fatal(err)
	}
	id := a.SessionID()
	<-started
	if err := a.Resume("elsewhere-1"); err != nil {
		t.Fatal(err)
	}
	if got := liteagent.Identified(a, id); len(got) != 1 {
		t.Errorf("the session left with its subagent running is forgotten; want it known until the work is over")
	}
	runChild(t, deleteAgentChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id)
	runChild(t, sessionOpChildEnv+"=task\n"+f.home+"\n"+f.workdir+"\n"+id)
	close(finish)
	<-answered
	deadline := time.Now().Add(10 * time.Second)
	for i := 2; len(liteagent.Identified(a, id)) > 0; i++ {
		if time.Now().After(deadline) {
			t.Fatal("the session is still known 10 s after its work ended")
		}
		time.Sleep(10 * time.Millisecond)
		if err := a.Resume(fmt.Sprintf("elsewhere-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	b := f.agent(t, opts)
	if got, want := promptsOf(t, b, id), "another process's prompt"; got != want {
		t.Errorf("the other process's session holds the prompts %q; want only its own %q", got, want)
	}
	st, err := liteagent.TaskStore(t.Context(), b, id)
	if err != nil {
		t.Fatal(err)
	}
	if tasks, err := st.List(t.Context()); err != nil || len(tasks) != 1 || tasks[0].Execution != nil {
		t.Errorf("the other process's tasks: %+v, %v; want its one task, untouched", tasks, err)
	}
}

// A background command that ends while the agent is elsewhere is
// delivered to its session even when the agent sweeps the sessions it
// left between the command's end and the delivery's turn: the session has
// work under way until the delivery is over. Before, the sweep found it
// idle (the command no longer running, the turn not yet started) and
// forgot it, and the delivery failed with an *engine.UnidentifiedError:
// the completion was lost.
func TestABackgroundCompletionOutlivesASweepBeforeItsTurn(t *testing.T) {
	f := newFixture(t)
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		last := req.Messages[len(req.Messages)-1]
		switch {
		case strings.Contains(last.PlainText(), "<background-task-completed"):
			return modeltest.Text("It ended.").Chunks(), nil
		case len(req.Messages) == 1:
			return modeltest.ToolCalls(call("b1", "bash", `{"command":"sleep 0.3; echo out","run_in_background":true}`)).Chunks(), nil
		}
		return modeltest.Text("Started.").Chunks(), nil
	})
	a := f.agent(t, f.options(nil))
	entered, release := make(chan string, 1), make(chan struct{})
	liteagent.SetDeliveryStarting(a, func(id string) {
		entered <- id
		<-release
	})
	ended := make(chan error, 1)
	if _, err := a.Subscribe(func(n liteagent.Notice) {
		if n.Source != hook.SourceBackground {
			return
		}
		switch {
		case n.Event.Err != nil:
			ended <- n.Event.Err
		case n.Event.Type == engine.EventDone:
			ended <- nil
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Send(t.Context(), "run it in the background"); err != nil {
		t.Fatal(err)
	}
	id := a.SessionID()
	if err := a.Resume("elsewhere-1"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the command's completion was not delivered")
	}
	if err := a.Resume("elsewhere-2"); err != nil { // the sweep
		t.Fatal(err)
	}
	if got := liteagent.Identified(a, id); len(got) != 1 {
		t.Errorf("the session whose completion is being delivered is forgotten")
	}
	close(release)
	select {
	case err := <-ended:
		if err != nil {
			t.Errorf("the delivery's turn: %v; want it run", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the delivery's turn did not end")
	}
}
