package liteagent_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
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
