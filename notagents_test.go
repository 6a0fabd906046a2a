package liteagent_test

import (
	"errors"
	"os/exec"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// Session operations on a session that is not the agent's write nothing
// and run no hook:
//
//   - A compaction (CompactSession) of a session another process deleted,
//     or of an id never stored, finds no session: it fails with a
//     *session.NotFoundError, writes nothing and runs no compaction hook.
//     Before, it reported a compaction done and ran compact:start and
//     compact:end for a session that did not exist.
//   - A session the agent started (StartSession, `run --session-id`,
//     chat's current session) that another process took before the
//     agent's first record is not the agent's: a Restore of it (chat's
//     /rewind, which restores the current session) fails with a
//     *SessionExistsError and leaves the other writer's log whole. Before,
//     the refused prompt was followed by a restore that truncated the other
//     owner's log to before its prompt.
func TestOperationsOnASessionNotTheAgents(t *testing.T) {
	checkNotTheAgents(t, nil)
}

// The same through PostgreSQL.
func TestOperationsOnASessionNotTheAgentsThroughPostgres(t *testing.T) {
	url := pgtest.URL(t)
	checkNotTheAgents(t, pgForkStore(url))
}

// checkNotTheAgents runs the cases of TestOperationsOnASessionNotTheAgents.
func checkNotTheAgents(t *testing.T, withStore func(*testing.T, *liteagent.Options) string) {
	t.Run("compact of a deleted session", func(t *testing.T) { checkCompactGone(t, withStore) })
	t.Run("restore of a taken session", func(t *testing.T) { checkRestoreTaken(t, withStore) })
	t.Run("restore of a session taken before its lock", func(t *testing.T) { checkRestoreTakenLate(t, withStore) })
}

// checkCompactGone deletes a session in a child and compacts it, and an
// id never stored, in the agent that wrote it. withStore, when not nil,
// sets the agent's Store and returns what the child needs to open it.
func checkCompactGone(t *testing.T, withStore func(*testing.T, *liteagent.Options) string) {
	f := newFixture(t)
	opts := f.options(nil)
	hooks := recordHooks(t, &opts, hook.EventCompactStart, hook.EventCompactEnd)
	a, store := agentWithStore(t, f, &opts, withStore)
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

// checkRestoreTaken starts an id in the agent, has a child run a prompt
// on it, and restores it to before that prompt. withStore, when not nil,
// sets the agent's Store and returns what the child needs to open it.
func checkRestoreTaken(t *testing.T, withStore func(*testing.T, *liteagent.Options) string) {
	const id = "chosen-0002"
	f := newFixture(t)
	opts := f.options(nil)
	a, store := agentWithStore(t, f, &opts, withStore)
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

// checkRestoreTakenLate starts an id in the agent and restores it to 0
// while, just before the restore takes the session's lock (after its
// lease, when the store leases sessions), a child runs a prompt on it.
// In the data home the child writes its session there, and the restore,
// which checks under the lock that the session is still the agent's to
// restore, fails with a *SessionExistsError and leaves the child's log
// whole; before, the check ran before the lock, missed the child's write
// and the restore truncated its log to nothing. Through a store that
// leases sessions the restore's lease refuses the child's prompt.
func checkRestoreTakenLate(t *testing.T, withStore func(*testing.T, *liteagent.Options) string) {
	const id = "chosen-0003"
	f := newFixture(t)
	opts := f.options(nil)
	a, store := agentWithStore(t, f, &opts, withStore)
	if err := a.StartSession(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	var childErr error
	var childOut []byte
	ran := false
	liteagent.SetRestoreLocking(a, func(string) {
		if ran {
			return
		}
		ran = true
		childOut, childErr = childtest.Command(t.Context(), startChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id+store).CombinedOutput()
	})
	_, err := a.Restore(t.Context(), id, 0, liteagent.RestoreOptions{})
	if !ran {
		t.Fatalf("the restore never reached its lock: %v", err)
	}
	if withStore != nil {
		// The restore leases the session first: the child's prompt is
		// refused as taken (exit 4), and there is nothing to restore.
		var ee *exec.ExitError
		if !errors.As(childErr, &ee) || ee.ExitCode() != 4 {
			t.Fatalf("the other run under the restore's lease: %v; want it refused as taken\n%s", childErr, childOut)
		}
		var nf *session.NotFoundError
		if !errors.As(err, &nf) {
			t.Errorf("restoring the session nobody wrote: %v; want a *session.NotFoundError", err)
		}
		return
	}
	if childErr != nil {
		t.Fatalf("the other run failed: %v\n%s", childErr, childOut)
	}
	var se *liteagent.SessionExistsError
	if !errors.As(err, &se) || se.SessionID != id || se.Head == 0 {
		t.Errorf("restoring the session another writer took before the restore's lock: %v; want a *SessionExistsError with its head", err)
	}
	if after, err := a.Checkpoints(t.Context(), id); err != nil || len(after) != 1 || after[0].Prompt != "the other run's prompt" {
		t.Errorf("the other writer's session after the restore: %v, %v; want its prompt kept", after, err)
	}
}
