package liteagent_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// A long-lived agent serving many sessions, each dispatching a
// background subagent, some deleted, keeps no entry for a session it has
// left with no work under way: its schedule forgot neither the subagents'
// sessions (parentOf, listOf), nor the sessions deleted (deleted), nor
// its caches of their task lists and archives, one entry (or more) per
// session ever served. Now they go at the sweep that forgets the
// sessions the agent left (see forgetLeft).
func TestAnAgentServingManySessionsKeepsNoEntryForThoseItLeft(t *testing.T) {
	f := newFixture(t)
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		switch {
		case strings.HasPrefix(req.System, `You are the "general-purpose" subagent`):
			return modeltest.Text("child found 42").Chunks(), nil
		case len(req.Messages) == 1:
			return modeltest.ToolCalls(call("a1", "Agent", `{"tasks":[{"display_name":"Finder","subagent_type":"general-purpose","prompt":"find the answer"}]}`)).Chunks(), nil
		}
		return modeltest.Text("done").Chunks(), nil
	})
	a := f.agent(t, f.options(nil))
	const n = 8
	for i := range n {
		id := fmt.Sprintf("served-%d", i)
		if err := a.Resume(id); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Send(t.Context(), "ask a subagent"); err != nil {
			t.Fatal(err)
		}
		if err := a.AwaitIdle(t.Context()); err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			if err := a.DeleteSession(t.Context(), id); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := a.Resume("last"); err != nil {
		t.Fatal(err)
	}
	for name, v := range liteagent.Bookkeeping(a) {
		if v > 0 {
			t.Errorf("after %d sessions served and left, the agent keeps %d entries in %s; want none", n, v, name)
		}
	}
}

// A sweep while a subagent runs keeps its session's entries (its parent,
// its task list, which the subagent's task tools write), and the next
// sweep after the run drops them.
func TestASweepKeepsTheEntriesOfASubagentThatRuns(t *testing.T) {
	f := newFixture(t)
	var started, finish chan struct{}
	f.p, started, finish, _ = blockedSubagent()
	a := f.agent(t, f.options(nil))
	if _, err := a.Send(t.Context(), "ask a subagent"); err != nil {
		t.Fatal(err)
	}
	id := a.SessionID()
	<-started
	if err := a.Resume("elsewhere"); err != nil {
		t.Fatal(err)
	}
	if got := liteagent.Bookkeeping(a); got["parentOf"] != 1 || got["listOf"] != 1 {
		t.Errorf("a sweep while the subagent runs left %d parents and %d lists; want its own 1 and 1", got["parentOf"], got["listOf"])
	}
	close(finish)
	if err := a.Resume(id); err != nil {
		t.Fatal(err)
	}
	if err := a.AwaitIdle(t.Context()); err != nil {
		t.Fatal(err)
	}
	a.Clear()
	if got := liteagent.Bookkeeping(a); got["parentOf"] != 0 || got["listOf"] != 0 {
		t.Errorf("a sweep after the subagent's run left %d parents and %d lists; want none", got["parentOf"], got["listOf"])
	}
}
