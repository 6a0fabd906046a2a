package liteagent_test

import (
	"errors"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
)

// A session the agent started (StartSession, `run --session-id`, chat's
// current session) that another process took before the agent's first
// record is not the agent's: a Restore of it (chat's /rewind, which
// restores the current session) fails with a *SessionExistsError and
// leaves the other writer's log whole. Before, the refused prompt was
// followed by a restore that truncated the other owner's log to before
// its prompt.
func TestRestoreOfAStartedSessionTakenMeanwhileIsRefused(t *testing.T) {
	checkRestoreTaken(t, nil)
}

// The same through PostgreSQL.
func TestRestoreOfAStartedSessionTakenMeanwhileThroughPostgresIsRefused(t *testing.T) {
	url := pgtest.URL(t)
	checkRestoreTaken(t, pgForkStore(url))
}

// checkRestoreTaken starts an id in the agent, has a child run a prompt
// on it, and restores it to before that prompt. withStore, when not nil,
// sets the agent's Store and returns what the child needs to open it.
func checkRestoreTaken(t *testing.T, withStore func(*testing.T, *liteagent.Options) string) {
	const id = "chosen-0002"
	f := newFixture(t)
	opts := f.options(nil)
	store := ""
	if withStore != nil {
		store = withStore(t, &opts)
	}
	a := f.agent(t, opts)
	if err := a.StartSession(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	out, err := childtest.Command(t.Context(), startChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id+store).CombinedOutput()
	if err != nil {
		t.Fatalf("the other run failed: %v\n%s", err, out)
	}
	if _, err := a.Send(t.Context(), "my prompt"); !errors.Is(err, liteagent.ErrSessionExists) {
		t.Fatalf("the prompt on the taken session: %v; want ErrSessionExists", err)
	}
	cps, err := a.Checkpoints(t.Context(), id)
	if err != nil || len(cps) != 1 {
		t.Fatalf("the other writer's checkpoints: %v, %v", cps, err)
	}
	var se *liteagent.SessionExistsError
	if _, err := a.Restore(t.Context(), id, cps[0].Seq, liteagent.RestoreOptions{}); !errors.As(err, &se) || se.SessionID != id {
		t.Errorf("restoring the session another writer took: %v; want a *SessionExistsError", err)
	}
	if after, err := a.Checkpoints(t.Context(), id); err != nil || len(after) != 1 || after[0].Prompt != "the other run's prompt" {
		t.Errorf("the other writer's session after the restore: %v, %v; want its prompt kept", after, err)
	}
	// Once resumed, as asked, the session is the agent's to restore.
	resumeThenPrompt(t, f, a, id, nil)
	if _, err := a.Restore(t.Context(), id, cps[0].Seq, liteagent.RestoreOptions{}); err != nil {
		t.Errorf("restoring the resumed session: %v", err)
	}
}
