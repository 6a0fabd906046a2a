package liteagent_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"sync"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/task"
)

// A DeleteSession of this process, run while a held task write of the
// session has found its log and not written yet (a background subagent's
// outcome, a tool of a turn the delete cancels too late), waits for the
// write and removes it with the rest. The session's hold is shared within
// a process, so it kept out only other processes' deletes: the delete ran
// to its end meanwhile and the write then made the deleted session's
// private task list again, data no session owns, whose id StartSession
// refuses as taken.
func TestAHeldWriteDuringThisProcesssDeleteKeepsNothing(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(nil))
	f.p.Reply(modeltest.Text("one"))
	if _, err := a.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	id := a.SessionID()
	list := a.Paths().TaskListDir(id)
	if _, err := os.Lstat(list); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the task list before: %v; want none", err)
	}
	st, err := liteagent.TaskWriter(t.Context(), a, id)
	if err != nil {
		t.Fatal(err)
	}
	deleted := make(chan error, 1)
	var once sync.Once
	liteagent.SetHeldStored(a, func(string) {
		once.Do(func() {
			ended := make(chan struct{})
			go func() {
				deleted <- a.DeleteSession(context.Background(), id)
				close(ended)
			}()
			// The delete either ends meanwhile (nothing keeps it out)
			// or waits for the write.
			select {
			case <-ended:
			case <-time.After(500 * time.Millisecond):
			}
		})
	})
	_, werr := st.Create(t.Context(), task.CreateInput{Subject: "during the delete", Description: "d"})
	if err := <-deleted; err != nil {
		t.Fatalf("DeleteSession: %v", err)
	}
	if _, err := os.Lstat(list); !errors.Is(err, fs.ErrNotExist) {
		ents, _ := os.ReadDir(list)
		t.Errorf("the deleted session's task list after the write (%v): %v, holding %d entries; want it gone", werr, err, len(ents))
	}
	if err := a.StartSession(t.Context(), id); err != nil {
		t.Errorf("starting the deleted session's id again: %v", err)
	}
}
