package liteagent_test

import (
	"errors"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// A compaction (CompactSession) of a session another process deleted, or
// of an id never stored, finds no session: it fails with a
// *session.NotFoundError, writes nothing and runs no compaction hook.
// Before, it reported a compaction done and ran compact:start and
// compact:end (completed) for a session that did not exist.
func TestCompactingADeletedSessionFindsNone(t *testing.T) {
	checkCompactGone(t, nil)
}

// The same through PostgreSQL.
func TestCompactingADeletedSessionThroughPostgresFindsNone(t *testing.T) {
	url := pgtest.URL(t)
	checkCompactGone(t, pgForkStore(url))
}

// checkCompactGone deletes a session in a child and compacts it, and an
// id never stored, in the agent that wrote it. withStore, when not nil,
// sets the agent's Store and returns what the child needs to open it.
func checkCompactGone(t *testing.T, withStore func(*testing.T, *liteagent.Options) string) {
	f := newFixture(t)
	opts := f.options(nil)
	hooks := recordHooks(t, &opts, hook.EventCompactStart, hook.EventCompactEnd)
	store := ""
	if withStore != nil {
		store = withStore(t, &opts)
	}
	a := f.agent(t, opts)
	f.p.Reply(modeltest.Text("one"))
	if _, err := a.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	id := a.SessionID()
	out, err := childtest.Command(t.Context(), deleteAgentChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id+store).CombinedOutput()
	if err != nil {
		t.Fatalf("the delete failed: %v\n%s", err, out)
	}
	for _, gone := range []string{id, "never-stored-1"} {
		var nf *session.NotFoundError
		if _, err := a.CompactSession(t.Context(), gone, liteagent.CompactOptions{}); !errors.As(err, &nf) || nf.SessionID != gone {
			t.Errorf("compacting %s (not stored): %v; want a *session.NotFoundError", gone, err)
		}
	}
	checkNoRunHooks(t, hooks, 0, "the compactions of no session")
	infos, err := a.ListSessions(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 0 {
		t.Errorf("sessions after the compactions: %+v; want none", infos)
	}
	// A stored session is compacted, with its hooks.
	resumeThenPrompt(t, f, a, id, nil)
	if _, err := a.CompactSession(t.Context(), id, liteagent.CompactOptions{}); err != nil {
		t.Fatalf("compacting a stored session: %v", err)
	}
	if got := hooks(); len(got) != 2 {
		t.Errorf("the compaction of a stored session ran hooks %v; want compact:start and compact:end", got)
	}
}
