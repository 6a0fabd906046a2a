package liteagent_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

func TestDeleteUnknownSessionIsNotFound(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(nil))
	err := a.DeleteSession(t.Context(), "nope")
	var nf *session.NotFoundError
	if !errors.As(err, &nf) || nf.SessionID != "nope" || !errors.Is(err, session.ErrNotFound) {
		t.Fatalf("DeleteSession(nope) = %v, want a *session.NotFoundError", err)
	}
}

// A list an agent uses as its shared list is marked, so deleting a session
// that happens to have the list's name (through an agent without the
// shared list) keeps it.
func TestListMarkedSharedSurvivesASessionOfTheSameName(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.TaskListID = "team"
	a := f.agent(t, opts)
	f.p.Reply(modeltest.ToolCalls(call("t", "TaskCreate", `{"subject":"shared","description":""}`)))
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(t.Context(), "plan"); err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(a.Paths().TasksDir, "team")
	if _, err := os.Stat(filepath.Join(list, task.SharedMarker)); err != nil {
		t.Fatalf("shared list not marked: %v", err)
	}

	b := f.agent(t, f.options(nil))
	if err := b.Resume("team"); err != nil {
		t.Fatal(err)
	}
	f.p.Reply(modeltest.Text("hi"))
	if _, err := b.Send(t.Context(), "hello"); err != nil {
		t.Fatal(err)
	}
	if err := b.DeleteSession(t.Context(), "team"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(a.Paths().SessionsDir, "team.jsonl")); err == nil {
		t.Error("the session's log survived")
	}
	if _, err := os.Stat(filepath.Join(list, "1.json")); err != nil {
		t.Errorf("the shared list was removed with a session of its name: %v", err)
	}
}

// An id that cannot name a session file is refused as such, not reported
// missing, and nothing beside the sessions directory is touched.
func TestDeleteSessionRefusesAnInvalidID(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(nil))
	outside := filepath.Join(filepath.Dir(a.Paths().SessionsDir), "x.jsonl")
	if err := os.WriteFile(outside, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"../x", "a.b", "", "x/y", "sp ace"} {
		err := a.DeleteSession(t.Context(), id)
		var se *storage.Error
		if !errors.As(err, &se) || errors.Is(err, session.ErrNotFound) {
			t.Errorf("DeleteSession(%q) = %v, want the *storage.Error of an invalid id", id, err)
		}
	}
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("a file beside the sessions directory: %v", err)
	}
}
