package liteagent_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/task"
	"github.com/lite-agent/lite-agent-go/tool"
)

// A session deleted by another process (`lite-agent sessions delete`)
// while a turn of it runs, after the turn wrote the model's tool calls and
// before its TaskCreate or TaskUpdate ran, keeps nothing: the task tool
// finds, under the session's lock, that the session's log is gone and
// writes nothing. Before, the tool wrote into the deleted session's
// private task list, making it again (the delete had removed it): a task
// list no session owns, holding what the user had deleted, and an id that
// StartSession then refuses as taken.
func TestATaskWriteAfterTheSessionsDeleteKeepsNothing(t *testing.T) {
	for _, c := range []struct {
		name string
		// listBefore makes the session's task list before the turn.
		listBefore bool
		call       string
	}{
		{"create, no list before", false, `{"subject":"after the delete","description":"d"}`},
		{"create, list before", true, `{"subject":"after the delete","description":"d"}`},
		{"update, no list before", false, `{"taskId":"1","status":"completed"}`},
		{"update, list before", true, `{"taskId":"1","status":"completed"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			a := f.agent(t, f.options(nil))
			if c.listBefore {
				f.p.Reply(modeltest.ToolCalls(call("c0", "TaskCreate", `{"subject":"before","description":"d"}`)))
			}
			f.p.Reply(modeltest.Text("one"))
			if _, err := a.Send(t.Context(), "first"); err != nil {
				t.Fatal(err)
			}
			id := a.SessionID()
			list := a.Paths().TaskListDir(id)
			if _, err := os.Lstat(list); (err == nil) != c.listBefore {
				t.Fatalf("the task list before the turn: %v; want it there: %v", err, c.listBefore)
			}
			name := "TaskCreate"
			if c.call[2:8] == "taskId" {
				name = "TaskUpdate"
			}
			f.p.Reply(modeltest.ToolCalls(call("c1", name, c.call)))
			f.p.Reply(modeltest.Text("done"))
			// At the calls' event the calls are written; the tools have
			// not run.
			runDeleting(t, f, a, "make a task", func(ev engine.Event) bool { return ev.Type == engine.EventToolUse })
			if _, err := os.Lstat(list); !errors.Is(err, fs.ErrNotExist) {
				ents, _ := os.ReadDir(list)
				t.Errorf("the deleted session's task list after the turn: %v, holding %d entries; want it gone", err, len(ents))
			}
			if infos, err := a.ListSessions(t.Context()); err != nil || len(infos) != 0 {
				t.Errorf("sessions after the delete: %v, %v; want none", infos, err)
			}
			if err := a.StartSession(t.Context(), id); err != nil {
				t.Errorf("starting the deleted session's id again: %v", err)
			}
		})
	}
}

// The same for the session's context archive: a delete by another process
// between two model calls of a turn, before the second takes a large tool
// result out of the context into the archive, keeps nothing. Before, the
// archive's Put made the deleted session's <id>.context directory again,
// with the result in it, and the turn failed only at its next record.
func TestAnArchivePutAfterTheSessionsDeleteKeepsNothing(t *testing.T) {
	f := newFixture(t)
	body := strings.Repeat("build log line\n", 4_000)
	dump := tool.New("dump", "Prints the build log.", func(context.Context, *tool.Call, struct{}) (tool.Result, error) {
		return tool.Text(body), nil
	})
	opts := f.options(nil)
	opts.Tools, opts.ContextWindow = []tool.Tool{dump}, 20_000
	a := f.agent(t, opts)
	f.p.Reply(modeltest.Text("one"))
	if _, err := a.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	id := a.SessionID()
	archiveDir := a.Paths().ArchiveDir(id)
	// The first result is taken out of the third call's request, once an
	// answer follows it.
	f.p.Reply(modeltest.ToolCalls(call("d1", "dump", `{}`)))
	f.p.Reply(modeltest.ToolCalls(call("d2", "dump", `{}`)))
	f.p.Reply(modeltest.Text("done"))
	runDeleting(t, f, a, "dump it twice", func(ev engine.Event) bool {
		if ev.Type != engine.EventTurnStart || ev.Turn != 3 {
			return false
		}
		if _, err := os.Lstat(archiveDir); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("the archive before the third call: %v; want none yet", err)
		}
		return true
	})
	if _, err := os.Lstat(archiveDir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the deleted session's archive after the turn: %v; want it gone", err)
	}
	if err := a.StartSession(t.Context(), id); err != nil {
		t.Errorf("starting the deleted session's id again: %v", err)
	}
}

// runDeleting runs prompt on a's current session, has a child process
// delete the session (Agent.DeleteSession, as lite-agent sessions delete
// does) at the first event at reports, and checks that the turn failed.
func runDeleting(t *testing.T, f *fixture, a *liteagent.Agent, prompt string, at func(engine.Event) bool) {
	t.Helper()
	id := a.SessionID()
	deleted := false
	var runErr error
	for ev, err := range a.Run(t.Context(), prompt) {
		if !deleted && at(ev) {
			deleted = true
			out, err := childtest.Command(t.Context(), deleteAgentChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id).CombinedOutput()
			if err != nil {
				t.Fatalf("the delete failed: %v\n%s", err, out)
			}
		}
		if err != nil {
			runErr = err
		}
	}
	if !deleted {
		t.Fatalf("the turn never reached the delete: %v", runErr)
	}
	if runErr == nil {
		t.Errorf("the turn of the deleted session succeeded")
	}
}

// Every method of the task list a session's tools write, and of its held
// context archive, used after another process deleted the session, leaves
// nothing of it: the writes (Create, Update with an owner and new edges,
// the archive's Put) fail with the session's *session.NotFoundError, the
// reads (Get, List, Render, the archive's Search and Read) make nothing,
// and the list offers no unheld Import (task.Copy's way in).
func TestEveryHeldMethodAfterTheSessionsDeleteKeepsNothing(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.ContextWindow = 4000
	a := f.agent(t, opts)
	f.p.Reply(modeltest.ToolCalls(call("c0", "TaskCreate", `{"subject":"before","description":"d"}`)))
	f.p.Reply(modeltest.Text("one"))
	if _, err := a.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	id := a.SessionID()
	ctx := t.Context()
	w, err := liteagent.TaskWriter(ctx, a, id)
	if err != nil {
		t.Fatal(err)
	}
	ar, err := liteagent.SessionArchive(ctx, a, id)
	if err != nil || ar == nil {
		t.Fatalf("the session's archive: %v, %v", ar, err)
	}
	runChild(t, deleteAgentChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id)
	list, archiveDir := a.Paths().TaskListDir(id), a.Paths().ArchiveDir(id)
	madeNothing := func(what string) {
		t.Helper()
		for _, p := range []string{list, archiveDir} {
			if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s after the delete made %s again (%v)", what, p, err)
			}
		}
	}
	gone := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, session.ErrNotFound) {
			t.Errorf("%s after the delete: %v; want the session's *session.NotFoundError", what, err)
		}
		madeNothing(what)
	}
	_, err = w.Create(ctx, task.CreateInput{Subject: "after", Description: "d"})
	gone("Create", err)
	owner := "someone"
	_, err = w.Update(ctx, "1", task.UpdateInput{Owner: &owner, AddBlocks: []string{"2"}, AddBlockedBy: []string{"3"}})
	gone("Update", err)
	_, err = ar.Put(ctx, "after the delete", nil)
	gone("the archive's Put", err)
	_, err = ar.Search(ctx, archive.Query{})
	gone("the archive's Search", err)
	_, err = ar.Read(ctx, archive.ReadRequest{Ref: strings.Repeat("0", 64)})
	gone("the archive's Read", err)
	// A read fails or not (the list it had open is gone); it makes
	// nothing.
	_, _, _ = w.Get(ctx, "1")
	madeNothing("Get")
	_, _ = w.List(ctx)
	madeNothing("List")
	_, _ = w.Render(ctx, task.RenderOptions{})
	madeNothing("Render")
	if _, ok := w.(task.Importer); ok {
		t.Error("the session's task writer is a task.Importer: its Import would write unheld")
	}
}
