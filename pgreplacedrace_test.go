package liteagent_test

import (
	"slices"
	"sync"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/task"
)

// Through a Store, a task write outside a turn (a background subagent's
// outcome) checks that the session is the one the agent knows, then
// writes. Another process that deleted the session and a third that
// started it again between the check and the write (here, in children
// run at that point) got the write into the new session's task list.
// Now the check and the write are made under the session's lease: the
// other process's delete is refused (the session is busy) until the write
// is done, and the write lands in the agent's own session.
func TestATaskWriteThroughPostgresIsCheckedAndMadeUnderTheLease(t *testing.T) {
	url := pgtest.URL(t)
	f := newFixture(t)
	opts := f.options(nil)
	a, id, store := twoPrompts(t, f, &opts, pgForkStore(url), false)
	w, err := liteagent.TaskWriter(t.Context(), a, id)
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	liteagent.SetHeldStored(a, func(string) {
		once.Do(func() { replaceInChildren(t, f, id, store) })
	})
	_, werr := w.Create(t.Context(), task.CreateInput{Subject: "mine", Description: "d"})
	checkNotWrittenIntoReplaced(t, f, opts, a, id, werr)
}

// DeleteSession through a Store checks that the session is the one the
// agent knows, then deletes it. A replacement between the two (children
// deleting it and starting it again) got the other process's session
// deleted. Now both are made under the session's lease.
func TestDeleteSessionThroughPostgresIsCheckedAndMadeUnderTheLease(t *testing.T) {
	url := pgtest.URL(t)
	f := newFixture(t)
	opts := f.options(nil)
	a, id, store := twoPrompts(t, f, &opts, pgForkStore(url), false)
	var once sync.Once
	replaced := false
	liteagent.SetHeldStored(a, func(string) {
		once.Do(func() { replaced = replaceInChildren(t, f, id, store) })
	})
	derr := a.DeleteSession(t.Context(), id)
	b := f.agent(t, opts)
	infos, err := b.ListSessions(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	stored := slices.ContainsFunc(infos, func(in session.Info) bool { return in.ID == id })
	switch {
	case replaced && !stored:
		t.Errorf("the delete (%v) removed the session another process started again", derr)
	case replaced && promptsOf(t, b, id) != "the other run's prompt":
		t.Errorf("the session another process started has the prompts %q", promptsOf(t, b, id))
	case replaced:
		wantReplaced(t, "DeleteSession", derr, id)
	case derr != nil || stored:
		t.Errorf("the children did not replace the session; the delete: %v, still stored: %v", derr, stored)
	}
}

// replaceInChildren deletes session id in one child and starts it again
// in another, as `lite-agent sessions delete` and `lite-agent run
// --session-id` would, and reports whether both did; either may fail
// (the session busy).
func replaceInChildren(t *testing.T, f *fixture, id, store string) bool {
	ok := true
	for _, env := range []string{deleteAgentChildEnv, startChildEnv} {
		if out, err := childtest.Command(t.Context(), env+"="+f.home+"\n"+f.workdir+"\n"+id+store).CombinedOutput(); err != nil {
			t.Logf("the child %s failed: %v\n%s", env, err, out)
			ok = false
		}
	}
	return ok
}

// checkNotWrittenIntoReplaced checks, after a write of the task "mine"
// into session id's list that returned werr, that the task is in the
// session's list only if the session is still the agent's, and that the
// write failed otherwise.
func checkNotWrittenIntoReplaced(t *testing.T, f *fixture, opts liteagent.Options, a *liteagent.Agent, id string, werr error) {
	t.Helper()
	b := f.agent(t, opts)
	prompts := promptsOf(t, b, id)
	tasks := tasksOf(t, b, id)
	mine := slices.ContainsFunc(tasks, func(tk task.Task) bool { return tk.Subject == "mine" })
	switch {
	case prompts != "first|second" && mine:
		t.Errorf("the task went into the other process's session (prompts %q): %+v", prompts, tasks)
	case prompts != "first|second" && werr == nil:
		t.Errorf("the write succeeded, the session is the other process's (prompts %q)", prompts)
	case prompts == "first|second" && (werr != nil || !mine):
		t.Errorf("the session is still the agent's; the write: %v, tasks %+v", werr, tasks)
	}
}

// tasksOf returns the tasks of session id's list, read by agent a.
func tasksOf(t *testing.T, a *liteagent.Agent, id string) []task.Task {
	t.Helper()
	st, err := liteagent.TaskStore(t.Context(), a, id)
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := st.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return tasks
}
