package liteagent_test

import (
	"encoding/json"
	"fmt"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// TestTaskListKeepsNoListOpenPerIDAsked checks that Agent.TaskList, asked
// for the lists of ever more sessions, keeps none of them open (a
// long-lived host listing the tasks of every session it serves grew the
// agent by one open list per id ever asked for), and still reads what
// the agent wrote: a session's list after the agent left it, and the
// current session's.
func TestTaskListKeepsNoListOpenPerIDAsked(t *testing.T) {
	for name, edit := range map[string]func(*liteagent.Options){
		"files":  func(*liteagent.Options) {},
		"Store":  func(o *liteagent.Options) { o.Store = newElsewhere(t) },
		"memory": func(o *liteagent.Options) { o.DisableSessions = true },
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			opts := f.options(nil)
			edit(&opts)
			a := f.agent(t, opts)
			ctx := t.Context()
			f.p.Reply(
				modeltest.ToolCalls(model.ToolCallBlock("t1", "TaskCreate", json.RawMessage(`{"subject":"Reproduce","description":"d"}`))),
				modeltest.Text("planned"),
			)
			if _, err := a.Send(ctx, "plan"); err != nil {
				t.Fatal(err)
			}
			planned := a.SessionID()
			a.Clear()
			open := liteagent.OpenTaskLists(a)
			for i := range 300 {
				id := fmt.Sprintf("asked-%d", i)
				if tasks, err := a.TaskList(ctx, id); err != nil || len(tasks) != 0 {
					t.Fatalf("TaskList(%s) = %+v, %v", id, tasks, err)
				}
				if tasks, err := a.TaskList(ctx, planned); err != nil || len(tasks) != 1 || tasks[0].Subject != "Reproduce" {
					t.Fatalf("TaskList of the session planned in = %+v, %v", tasks, err)
				}
			}
			if n := liteagent.OpenTaskLists(a); n > open {
				t.Errorf("after TaskList of 300 session ids the agent keeps %d task lists open, was %d", n, open)
			}
			if err := a.Resume(planned); err != nil {
				t.Fatal(err)
			}
			if tasks, err := a.TaskList(ctx, ""); err != nil || len(tasks) != 1 {
				t.Errorf("TaskList of the resumed session = %+v, %v", tasks, err)
			}
		})
	}
}
