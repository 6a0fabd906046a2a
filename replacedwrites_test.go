package liteagent_test

import (
	"context"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/task"
)

// A background subagent that finishes after its parent session was
// deleted by another process (`lite-agent sessions delete`) and started
// again under its id by a third, whose turn made its own task 1, records
// nothing: the record of its outcome on its task (task 1 of the parent's
// private list, named after the session) is refused with a
// *session.ReplacedError. Before, it was written into the new session's
// list, over the other process's task 1 (status review, the subagent's
// execution and result).
func TestABackgroundSubagentWritesNothingIntoAReplacedSessionsTasks(t *testing.T) {
	checkSubagentAfterReplace(t, nil)
}

// The same through PostgreSQL.
func TestABackgroundSubagentThroughPostgresWritesNothingIntoAReplacedSessionsTasks(t *testing.T) {
	url := pgtest.URL(t)
	checkSubagentAfterReplace(t, pgForkStore(url))
}

// blockedSubagent returns a model whose first prompt dispatches one
// background subagent (a task of the session's list, in progress) and
// whose subagent, once its request is in (started closed), answers only
// when finish is closed (answered is closed as it answers); other
// requests get "dispatched".
func blockedSubagent() (p *modeltest.Provider, started, finish, answered chan struct{}) {
	started, finish, answered = make(chan struct{}), make(chan struct{}), make(chan struct{})
	p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		switch {
		case strings.HasPrefix(req.System, `You are the "general-purpose" subagent`):
			close(started)
			select {
			case <-finish:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			defer close(answered)
			return modeltest.Text("child found 42").Chunks(), nil
		case len(req.Messages) == 1:
			return modeltest.ToolCalls(call("a1", "Agent", `{"tasks":[{"display_name":"Finder","subagent_type":"general-purpose","prompt":"find the answer"}]}`)).Chunks(), nil
		}
		return modeltest.Text("dispatched").Chunks(), nil
	})
	return p, started, finish, answered
}

func checkSubagentAfterReplace(t *testing.T, withStore func(*testing.T, *liteagent.Options) string) {
	f := newFixture(t)
	var started, finish chan struct{}
	f.p, started, finish, _ = blockedSubagent()
	opts := f.options(nil)
	a, store := agentWithStore(t, f, &opts, withStore)
	if _, err := a.Send(t.Context(), "ask a subagent"); err != nil {
		t.Fatal(err)
	}
	id := a.SessionID()
	<-started // the subagent's task 1 is in progress, the session's turn over
	runChild(t, deleteAgentChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id+store)
	runChild(t, sessionOpChildEnv+"=task\n"+f.home+"\n"+f.workdir+"\n"+id+store)
	close(finish)
	if err := a.AwaitIdle(t.Context()); err != nil {
		t.Fatal(err)
	}
	// The agent's writes to the session's list are refused the same way.
	w, err := liteagent.TaskWriter(t.Context(), a, id)
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.Create(t.Context(), task.CreateInput{Subject: "mine", Description: "d"})
	wantReplaced(t, "a task create", err, id)
	done := task.Completed
	_, err = w.Update(t.Context(), "1", task.UpdateInput{Status: &done})
	wantReplaced(t, "a task update", err, id)
	tasks := tasksOf(t, f.agent(t, opts), id)
	if len(tasks) != 1 || tasks[0].Subject != "another process's task" || tasks[0].Status != task.Pending || tasks[0].Owner != "" || tasks[0].Execution != nil {
		t.Errorf("the new session's tasks are %+v; want only the other process's task, pending, untouched", tasks)
	}
}

// DeleteSession of a session the agent ran turns on, which another process
// has deleted and a third started again under its id, refuses with a
// *session.ReplacedError and removes nothing: the session under the id is
// the other process's. Before, it deleted that session. A delete by id
// from an agent that knows nothing of the session (lite-agent sessions
// delete) deletes what is stored under it, as before.
func TestDeleteSessionOfAReplacedSessionRefuses(t *testing.T) {
	checkDeleteReplaced(t, nil)
}

// The same through PostgreSQL.
func TestDeleteSessionThroughPostgresOfAReplacedSessionRefuses(t *testing.T) {
	url := pgtest.URL(t)
	checkDeleteReplaced(t, pgForkStore(url))
}

func checkDeleteReplaced(t *testing.T, withStore func(*testing.T, *liteagent.Options) string) {
	f := newFixture(t)
	opts := f.options(nil)
	a, id, store := twoPrompts(t, f, &opts, withStore, false)
	runChild(t, deleteAgentChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id+store)
	runChild(t, startChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id+store)
	wantReplaced(t, "DeleteSession", a.DeleteSession(t.Context(), id), id)
	if got, want := promptsOf(t, a, id), "the other run's prompt"; got != want {
		t.Errorf("after the refused delete the session's prompts are %q; want the other run's %q", got, want)
	}
	b := f.agent(t, opts)
	if err := b.DeleteSession(t.Context(), id); err != nil {
		t.Errorf("a delete by an agent that knows nothing of the session: %v", err)
	}
}
