package liteagent_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/tool"

	liteagent "github.com/lite-agent/lite-agent-go"
)

// A session deleted by another process and started again under its id by
// a third while a turn of it runs, after the turn wrote the model's
// TaskCreate call and before the tool ran, gets nothing of the turn: the
// tool's write into the session's private task list is checked, under the
// session's lock, to be of the session the turn loaded, and fails as
// replaced. Before, the held write looked only for the session's log,
// found the new session's, and wrote the task into the new session's
// list: the other writer's session got a task of a turn not its own.
func TestATaskWriteAfterTheSessionsReplacementKeepsNothing(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	a, id := firstTurn(t, f, opts)
	f.p.Reply(modeltest.ToolCalls(call("c1", "TaskCreate", `{"subject":"not theirs","description":"d"}`)))
	f.p.Reply(modeltest.Text("done"))
	// At the call's event the call is written; the tool has not run.
	runReplacing(t, f, a, "make a task", func(ev engine.Event) bool { return ev.Type == engine.EventToolUse })
	c := f.agent(t, opts)
	for _, tk := range tasksOf(t, c, id) {
		t.Errorf("the new session's task list holds %q, written by the replaced session's turn", tk.Subject)
	}
	if got, want := promptsOf(t, c, id), "the other run's prompt"; got != want {
		t.Errorf("the session's prompts are %q; want only the other run's %q", got, want)
	}
}

// The same for the session's context archive: a replacement between two
// model calls of a turn, before the third call's request takes a large
// tool result out of the context into the archive, leaves the new
// session's archive alone.
func TestAnArchivePutAfterTheSessionsReplacementKeepsNothing(t *testing.T) {
	f := newFixture(t)
	body := strings.Repeat("build log line\n", 4_000)
	dump := tool.New("dump", "Prints the build log.", func(context.Context, *tool.Call, struct{}) (tool.Result, error) {
		return tool.Text(body), nil
	})
	opts := f.options(nil)
	opts.Tools, opts.ContextWindow = []tool.Tool{dump}, 20_000
	a, id := firstTurn(t, f, opts)
	archiveDir := a.Paths().ArchiveDir(id)
	f.p.Reply(modeltest.ToolCalls(call("d1", "dump", `{}`)))
	f.p.Reply(modeltest.ToolCalls(call("d2", "dump", `{}`)))
	f.p.Reply(modeltest.Text("done"))
	runReplacing(t, f, a, "dump it twice", func(ev engine.Event) bool { return ev.Type == engine.EventTurnStart && ev.Turn == 3 })
	if _, err := os.Lstat(archiveDir); !errors.Is(err, fs.ErrNotExist) {
		ents, _ := os.ReadDir(archiveDir)
		t.Errorf("the new session's archive after the turn: %v, holding %d entries; want none", err, len(ents))
	}
}

// A session that another process deletes while ResumeStored looks at it,
// and that a third process then starts again under its id, is not the
// resumed one: the resumed agent's prompt fails (the resume, as not
// found, or the prompt, as replaced) and the other writer's session gets
// nothing. Before, ResumeStored saw the log, then found no first record
// to know the session by, and succeeded knowing none: the prompt then
// took the new session for the one resumed and was appended to it.
func TestAResumeOfASessionDeletedWhileItLooksTakesNoOtherSession(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	a, id := firstTurn(t, f, opts)
	a.Close()
	b := f.agent(t, opts)
	looked := 0
	liteagent.SetResumeLooked(b, func(string) {
		looked++
		runChild(t, deleteAgentChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id)
	})
	resumeErr := b.ResumeStored(t.Context(), id)
	if looked != 1 {
		t.Fatalf("ResumeStored looked %d times between its looks; want 1", looked)
	}
	runChild(t, startChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id)
	if resumeErr != nil {
		var nf *session.NotFoundError
		if !errors.As(resumeErr, &nf) {
			t.Errorf("the resume: %v; want a *session.NotFoundError or success", resumeErr)
		}
	} else {
		f.p.Reply(modeltest.Text("my answer"))
		_, err := b.Send(t.Context(), "mine")
		var nf *session.NotFoundError
		if !errors.As(err, &nf) && !errors.Is(err, session.ErrReplaced) {
			t.Errorf("the prompt after the resume: %v; want it refused as not found or replaced", err)
		}
	}
	c := f.agent(t, opts)
	if got, want := promptsOf(t, c, id), "the other run's prompt"; got != want {
		t.Errorf("the session's prompts are %q; want only the other run's %q", got, want)
	}
}

// runReplacing runs prompt on a's current session, has child processes
// delete the session and start it again under its id (as lite-agent
// sessions delete and run --session-id do) at the first event at
// reports, and checks that the turn failed as replaced.
func runReplacing(t *testing.T, f *fixture, a *liteagent.Agent, prompt string, at func(engine.Event) bool) {
	t.Helper()
	id := a.SessionID()
	replaced := false
	var runErr error
	for ev, err := range a.Run(t.Context(), prompt) {
		if !replaced && at(ev) {
			replaced = true
			runChild(t, deleteAgentChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id)
			runChild(t, startChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id)
		}
		if err != nil {
			runErr = err
		}
	}
	if !replaced {
		t.Fatalf("the turn never reached the replacement: %v", runErr)
	}
	wantReplaced(t, "the turn", runErr, id)
}

// firstTurn runs the prompt "first" in a new agent of opts and returns
// the agent, its session current, and the session's id.
func firstTurn(t *testing.T, f *fixture, opts liteagent.Options) (*liteagent.Agent, string) {
	t.Helper()
	a := f.agent(t, opts)
	f.p.Reply(modeltest.Text("one"))
	if _, err := a.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	return a, a.SessionID()
}
