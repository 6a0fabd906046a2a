package liteagent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/task"
)

// TestTaskListReadsRaceNoWriteOfTheAgent checks that Agent.TaskList, which
// opens a list it does not keep for each read, reads the list a turn of
// the same agent is writing, and that another agent on the same backend
// reads it too, without a torn state: every read succeeds, no task is
// lost between reads, and an edge (TaskUpdate with addBlockedBy, which
// writes both its tasks) is seen on both its ends or on neither. In the
// data home (with a codec) and in PostgreSQL; run it with -race.
func TestTaskListReadsRaceNoWriteOfTheAgent(t *testing.T) {
	const n = 12
	for name, edit := range map[string]func(*testing.T, *liteagent.Options){
		"files": func(t *testing.T, o *liteagent.Options) { o.Storage.Codec = aeadCodec(t, "k1") },
		"postgres": func(t *testing.T, o *liteagent.Options) {
			st, _, _ := forkStore(t, pgtest.URL(t))
			o.Store = st
		},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			opts := f.options(nil)
			edit(t, &opts)
			a := f.agent(t, opts)
			b := f.agent(t, opts) // another agent of the same project
			ctx := t.Context()
			for i := 1; i <= n; i++ {
				calls := []model.Block{model.ToolCallBlock(fmt.Sprint("c", i), "TaskCreate", json.RawMessage(fmt.Sprintf(`{"subject":"s%d","description":"d"}`, i)))}
				if i > 2 { // tasks made by earlier replies: i-1 waits for i-2
					calls = append(calls, model.ToolCallBlock(fmt.Sprint("u", i), "TaskUpdate", json.RawMessage(fmt.Sprintf(`{"taskId":"%d","addBlockedBy":["%d"]}`, i-1, i-2))))
				}
				f.p.Reply(modeltest.ToolCalls(calls...))
			}
			f.p.Reply(modeltest.Text("planned"))
			id := a.SessionID()

			var wg sync.WaitGroup
			stop := make(chan struct{})
			for _, reader := range []struct {
				name string
				a    *liteagent.Agent
			}{{"the writing agent", a}, {"another agent", b}} {
				wg.Go(func() {
					seen := 0
					for {
						select {
						case <-stop:
							return
						default:
						}
						tasks, err := reader.a.TaskList(ctx, id)
						if err != nil {
							t.Errorf("%s: TaskList during the turn: %v", reader.name, err)
							return
						}
						if len(tasks) < seen {
							t.Errorf("%s: TaskList saw %d tasks, then %d", reader.name, seen, len(tasks))
							return
						}
						seen = len(tasks)
						if err := edgesWhole(tasks); err != nil {
							t.Errorf("%s: %v", reader.name, err)
							return
						}
					}
				})
			}
			_, err := a.Send(ctx, "plan")
			close(stop)
			wg.Wait()
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range []*liteagent.Agent{a, b} {
				tasks, err := r.TaskList(ctx, id)
				if err != nil || len(tasks) != n {
					t.Fatalf("TaskList after the turn = %d tasks, %v; want %d", len(tasks), err, n)
				}
				if err := edgesWhole(tasks); err != nil {
					t.Error(err)
				}
				for _, tk := range tasks[1 : n-1] { // 2 … n-1 each wait for the one before
					if len(tk.BlockedBy) != 1 {
						t.Fatalf("task %s is blocked by %q: the turn's updates were not made", tk.ID, tk.BlockedBy)
					}
				}
			}
		})
	}
}

// edgesWhole returns an error naming the first edge of tasks seen on one
// of its ends only.
func edgesWhole(tasks []task.Task) error {
	byID := map[string]task.Task{}
	for _, t := range tasks {
		byID[t.ID] = t
	}
	for _, t := range tasks {
		for _, b := range t.BlockedBy {
			if o, ok := byID[b]; !ok || !slices.Contains(o.Blocks, t.ID) {
				return fmt.Errorf("task %s is blocked by %s, which does not block it (a torn update): %+v", t.ID, b, tasks)
			}
		}
		for _, b := range t.Blocks {
			if o, ok := byID[b]; !ok || !slices.Contains(o.BlockedBy, t.ID) {
				return fmt.Errorf("task %s blocks %s, which is not blocked by it (a torn update): %+v", t.ID, b, tasks)
			}
		}
	}
	return nil
}

// TestTaskListOfAListNobodyWroteCreatesNoRowInPostgres checks that
// Agent.TaskList through the PostgreSQL store reads a list nobody wrote as
// empty and adds no row for it (a task_lists row is what a write, or the
// shared list's first use, makes), as it creates no directory in the data
// home; and that the shared list is marked on its first use.
func TestTaskListOfAListNobodyWroteCreatesNoRowInPostgres(t *testing.T) {
	st, url, schema := forkStore(t, pgtest.URL(t))
	ctx := t.Context()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	lists := func() string {
		t.Helper()
		rows, err := conn.Query(ctx, `SELECT list || ':' || shared::text FROM `+schema+`.task_lists ORDER BY 1`)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(got, ",")
	}
	f := newFixture(t)
	opts := f.options(nil)
	opts.Store = st
	a := f.agent(t, opts)
	for _, id := range []string{"never-used", a.SessionID()} {
		if tasks, err := a.TaskList(ctx, id); err != nil || len(tasks) != 0 {
			t.Fatalf("TaskList(%s) = %+v, %v", id, tasks, err)
		}
	}
	if got := lists(); got != "" {
		t.Errorf("reading lists nobody wrote left the task_lists rows %q", got)
	}
	opts.TaskListID = "team"
	shared := f.agent(t, opts)
	if tasks, err := shared.TaskList(ctx, "never-used"); err != nil || len(tasks) != 0 {
		t.Fatalf("TaskList of the shared list = %+v, %v", tasks, err)
	}
	if got := lists(); got != "team:true" {
		t.Errorf("after the shared list's first use the task_lists rows are %q, want team:true", got)
	}
}

// TestTaskListInMemoryReadsWhatASubagentWrote checks that, with sessions
// in memory (where a list the agent does not keep reads as empty), the
// tasks a subagent made in its parent's list are read by Agent.TaskList
// of the parent's session, also after the agent switched to another
// session and back.
func TestTaskListInMemoryReadsWhatASubagentWrote(t *testing.T) {
	f := newFixture(t)
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		delivered := false
		for _, m := range req.Messages {
			delivered = delivered || strings.Contains(m.PlainText(), "<background-task-completed")
		}
		switch {
		case strings.HasPrefix(req.System, `You are the "general-purpose" subagent`):
			if !slices.ContainsFunc(req.Messages, func(m model.Message) bool { return m.Role == model.RoleAssistant }) {
				return modeltest.ToolCalls(call("c1", "TaskCreate", `{"subject":"child's task","description":"d"}`)).Chunks(), nil
			}
			return modeltest.Text("child planned").Chunks(), nil
		case delivered:
			return modeltest.Text("done").Chunks(), nil
		case len(req.Messages) == 1:
			return modeltest.ToolCalls(call("a1", "Agent", `{"tasks":[{"display_name":"Planner","subagent_type":"general-purpose","prompt":"plan"}]}`)).Chunks(), nil
		}
		return modeltest.Text("dispatched").Chunks(), nil
	})
	opts := f.options(nil)
	opts.DisableSessions = true
	a := f.agent(t, opts)
	ctx := t.Context()
	if _, err := a.Send(ctx, "ask a subagent"); err != nil {
		t.Fatal(err)
	}
	if err := a.AwaitIdle(ctx); err != nil {
		t.Fatal(err)
	}
	parent := a.SessionID()
	check := func(when string) {
		t.Helper()
		tasks, err := a.TaskList(ctx, parent)
		// The subagent's run (recorded by the Agent tool) and its task.
		if err != nil || len(tasks) != 2 || !slices.ContainsFunc(tasks, func(tk task.Task) bool { return tk.Subject == "child's task" }) {
			t.Errorf("TaskList of the parent's session %s = %+v, %v; want the subagent's run and task", when, tasks, err)
		}
	}
	check("after the subagent")
	a.Clear()
	check("after the agent left it")
	if err := a.Resume(parent); err != nil {
		t.Fatal(err)
	}
	check("resumed")
}
