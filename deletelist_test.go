package liteagent_test

import (
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/task"
)

// An agent with its own TaskListID had no private list: deleting one of its
// sessions removes no task list, not even an unmarked list that bears the
// session's name (a list another agent used, or one made by hand), whether
// the data lives in the data home's files or in a Store.
func TestDeleteSessionOfASharedListAgentKeepsAListNamedLikeTheSession(t *testing.T) {
	for _, backend := range []string{"files", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			ctx := t.Context()
			f := newFixture(t)
			opts := f.options(nil)
			opts.TaskListID = "team"
			var lists func(id string) task.Store
			if backend == "postgres" {
				st, _, _ := forkStore(t, pgtest.URL(t))
				opts.Store = st
				a := f.agent(t, opts)
				enc := encodingOf(a, opts)
				lists = func(id string) task.Store {
					l, err := st.TaskList(ctx, enc, id)
					if err != nil {
						t.Fatal(err)
					}
					return l
				}
				deleteWithListNamedLikeSession(t, f, a, lists)
				return
			}
			a := f.agent(t, opts)
			enc := encodingOf(a, opts)
			lists = func(id string) task.Store {
				l, err := task.NewFileStore(a.Paths().TasksDir, id, enc)
				if err != nil {
					t.Fatal(err)
				}
				return l
			}
			deleteWithListNamedLikeSession(t, f, a, lists)
		})
	}
}

func deleteWithListNamedLikeSession(t *testing.T, f *fixture, a *liteagent.Agent, lists func(id string) task.Store) {
	t.Helper()
	ctx := t.Context()
	f.p.Reply(modeltest.Text("hi"))
	if _, err := a.Send(ctx, "hello"); err != nil {
		t.Fatal(err)
	}
	id := a.SessionID()
	if _, err := lists(id).Create(ctx, task.CreateInput{Subject: "not the session's"}); err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteSession(ctx, id); err != nil {
		t.Fatal(err)
	}
	if infos, err := a.ListSessions(ctx); err != nil || len(infos) != 0 {
		t.Fatalf("the session survived: %v, %v", infos, err)
	}
	got, err := lists(id).List(ctx)
	if err != nil || len(got) != 1 {
		t.Errorf("the list named like the session, not the agent's: %v, %v; want its one task", got, err)
	}
}
