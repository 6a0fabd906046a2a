package liteagent_test

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/task"
)

// Through a Store, a task write checks the session and writes under the
// session's lease, which the agent shares between its own users of the
// session: a DeleteSession of the same agent took it too and ran to its
// end between the write's check and the write, which then made the
// deleted session's task list again (a session started later under the
// id found the task). Now the write and the delete are kept apart in the
// process as in the data home (sessionWrites): the delete waits for the
// write under way, and removes its task with the session.
func TestATaskWriteThroughPostgresAndADeleteOfTheSameAgentDoNotOverlap(t *testing.T) {
	url := pgtest.URL(t)
	f := newFixture(t)
	opts := f.options(nil)
	a, id, _ := twoPrompts(t, f, &opts, pgForkStore(url), false)
	w, err := liteagent.TaskWriter(t.Context(), a, id)
	if err != nil {
		t.Fatal(err)
	}
	var first atomic.Bool
	deleted := make(chan error, 1)
	liteagent.SetHeldStored(a, func(string) {
		if !first.CompareAndSwap(false, true) {
			return // the delete's own check: the hook runs again there
		}
		func() {
			// The delete starts between the write's check and the
			// write; the write goes on once the delete is over, or has
			// waited a second for it.
			done := make(chan struct{})
			go func() {
				defer close(done)
				deleted <- a.DeleteSession(context.Background(), id)
			}()
			select {
			case <-done:
			case <-time.After(time.Second):
				t.Log("the delete waited for the write")
			}
		}()
	})
	_, werr := w.Create(t.Context(), task.CreateInput{Subject: "mine", Description: "d"})
	derr := <-deleted
	if derr != nil {
		t.Fatalf("DeleteSession: %v", derr)
	}
	tasks := tasksOf(t, f.agent(t, opts), id)
	if slices.ContainsFunc(tasks, func(tk task.Task) bool { return tk.Subject == "mine" }) {
		t.Errorf("the session is deleted, its task list holds the task written (the write: %v): %+v", werr, tasks)
	}
}
