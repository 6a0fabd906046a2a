package liteagent_test

import (
	"errors"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Whether a host Checkpointer's id that no file task list can take is
// refused (see TestAHostIDWithoutAFileTaskListIsRefusedUpFront) is decided
// at New, by the shared list LITE_AGENT_TASK_LIST_ID names then (in the
// default namespace only): changing the variable later changes nothing.
func TestAHostIDCheckFollowsTheTaskListEnvAtNew(t *testing.T) {
	const id = "team/alpha"
	for _, c := range []struct {
		name         string
		namespace    string
		atNew, after string
		wantRefused  bool
	}{
		{"env at New", "", "team", "", false},
		{"env after New", "", "", "team", true},
		{"env in a custom namespace", "acme", "team", "team", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			t.Setenv(liteagent.TaskListEnv, c.atNew)
			cp := session.NewMemoryCheckpointer()
			opts := f.options(nil)
			opts.Storage.Namespace = c.namespace
			opts.Checkpointer = cp
			a := f.agent(t, opts)
			t.Setenv(liteagent.TaskListEnv, c.after)
			err := a.Resume(id)
			if _, refused := errors.AsType[*storage.Error](err); refused != c.wantRefused {
				t.Fatalf("Resume(%q) = %v, want refused %v", id, err, c.wantRefused)
			}
			if c.wantRefused {
				return
			}
			f.p.Reply(modeltest.Text("ok"))
			if _, err := a.Send(t.Context(), "go"); err != nil {
				t.Fatalf("a turn on the host's id: %v", err)
			}
		})
	}
}

// With a host Checkpointer and a Store, the session's private task list is
// the Store's, whose list ids follow storage.ValidateID too: an id no list
// can take is refused up front as with the data home's lists, not accepted
// and failed by the next turn after writing its prompt. With a shared list
// (TaskListID) the host's id works.
func TestAHostIDWithTheStoresTaskListsIsRefusedUpFront(t *testing.T) {
	const id = "team/alpha"
	url := pgtest.URL(t)
	for _, shared := range []bool{false, true} {
		t.Run(map[bool]string{false: "private list", true: "shared list"}[shared], func(t *testing.T) {
			f := newFixture(t)
			st, _, _ := forkStore(t, url)
			cp := session.NewMemoryCheckpointer()
			opts := f.options(nil)
			opts.Checkpointer = cp
			opts.Store = st
			if shared {
				opts.TaskListID = "team"
			}
			a := f.agent(t, opts)
			err := a.Resume(id)
			if _, refused := errors.AsType[*storage.Error](err); refused == shared {
				t.Fatalf("Resume(%q) = %v", id, err)
			}
			if !shared {
				if a.SessionID() == id {
					t.Error("the refused id became the current session")
				}
				return
			}
			f.p.Reply(modeltest.Text("ok"))
			if _, err := a.Send(t.Context(), "go"); err != nil {
				t.Fatalf("a turn on the host's id: %v", err)
			}
			if evs, err := cp.Read(t.Context(), id, 0); err != nil || len(evs) != 2 {
				t.Errorf("the host's log: %d events, %v", len(evs), err)
			}
		})
	}
}
