package liteagent_test

import (
	"errors"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// Run takes the session current when it is called; its turn runs when the
// sequence is ranged over. A Resume (or ResumeStored, StartSession, Clear)
// of another session in between makes the agent leave the first one and
// forget what it knew of it; the turn then failed with an
// *engine.UnidentifiedError and the prompt was lost. Now the turn runs on
// the session as the agent knew it at the call.
func TestARunRangedAfterTheAgentLeftItsSessionRunsOnIt(t *testing.T) {
	for name, leave := range map[string]func(t *testing.T, a *liteagent.Agent){
		"Resume": func(t *testing.T, a *liteagent.Agent) {
			if err := a.Resume("other"); err != nil {
				t.Fatal(err)
			}
		},
		"ResumeStored": func(t *testing.T, a *liteagent.Agent) {
			if err := a.ResumeStored(t.Context(), "stored"); err != nil {
				t.Fatal(err)
			}
		},
		"Clear": func(t *testing.T, a *liteagent.Agent) { a.Clear() },
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			opts := f.options(nil)
			a := f.agent(t, opts)
			f.p.Reply(modeltest.Text("stored one"))
			if err := a.Resume("stored"); err != nil {
				t.Fatal(err)
			}
			if _, err := a.Send(t.Context(), "stored first"); err != nil {
				t.Fatal(err)
			}
			a.Clear()
			f.p.Reply(modeltest.Text("one"), modeltest.Text("two"))
			if _, err := a.Send(t.Context(), "first"); err != nil {
				t.Fatal(err)
			}
			id := a.SessionID()
			seq := a.Run(t.Context(), "second")
			leave(t, a)
			if _, err := resultOfSeq(seq); err != nil {
				t.Fatalf("the turn of the Run called before the agent left %s: %v", id, err)
			}
			if got, want := promptsOf(t, a, id), "first|second"; got != want {
				t.Errorf("session %s has the prompts %q; want %q", id, got, want)
			}
		})
	}
}

// The turn of such a Run is checked against the session the agent knew at
// the call: one deleted and started again by another process meanwhile
// is refused with a *session.ReplacedError, and nothing is written.
func TestARunRangedAfterItsSessionWasReplacedRefuses(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	a := f.agent(t, opts)
	f.p.Reply(modeltest.Text("one"))
	if _, err := a.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	id := a.SessionID()
	seq := a.Run(t.Context(), "second")
	if err := a.Resume("other"); err != nil {
		t.Fatal(err)
	}
	runChild(t, deleteAgentChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id)
	runChild(t, startChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id)
	_, err := resultOfSeq(seq)
	wantReplaced(t, "the turn", err, id)
	if got, want := promptsOf(t, a, id), "the other run's prompt"; got != want {
		t.Errorf("session %s has the prompts %q; want only the other run's %q", id, got, want)
	}
}

// A session started (StartSession) and left before the Run called on it
// is ranged over keeps its check: another process that started the id
// meanwhile has it, and the turn fails with a *SessionExistsError.
func TestARunOnAStartedSessionRangedAfterTheAgentLeftItKeepsTheCheck(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	a := f.agent(t, opts)
	id := "started-later"
	if err := a.StartSession(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	seq := a.Run(t.Context(), "mine")
	if err := a.Resume("other"); err != nil {
		t.Fatal(err)
	}
	runChild(t, startChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id)
	_, err := resultOfSeq(seq)
	if !errors.Is(err, liteagent.ErrSessionExists) {
		t.Errorf("the turn on the session another process started: %v (%T); want liteagent.ErrSessionExists", err, err)
	}
	if got, want := promptsOf(t, a, id), "the other run's prompt"; got != want {
		t.Errorf("session %s has the prompts %q; want only the other run's %q", id, got, want)
	}
}

// resultOfSeq ranges over a Run's events and returns the error that ended
// them, if any.
func resultOfSeq(seq func(func(liteagent.Event, error) bool)) (*liteagent.Result, error) {
	var res *liteagent.Result
	for ev, err := range seq {
		if err != nil {
			return nil, err
		}
		if ev.Result != nil {
			res = ev.Result
		}
	}
	if res == nil {
		return nil, session.ErrNotFound // no done event: never expected here
	}
	return res, nil
}

// Two Runs called on a session started with StartSession: the first
// writes its first record, the agent leaves the session, and the second,
// ranged over then, runs on the session the first made (the check of
// StartSession, used up by that first record, is not put back).
func TestTwoRunsOnAStartedSessionRangedAfterTheAgentLeftIt(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	a := f.agent(t, opts)
	id := "started-twice"
	if err := a.StartSession(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	f.p.Reply(modeltest.Text("one"), modeltest.Text("two"))
	first, second := a.Run(t.Context(), "first"), a.Run(t.Context(), "second")
	if _, err := resultOfSeq(first); err != nil {
		t.Fatal(err)
	}
	if err := a.Resume("other"); err != nil {
		t.Fatal(err)
	}
	if _, err := resultOfSeq(second); err != nil {
		t.Fatalf("the second Run: %v", err)
	}
	if got, want := promptsOf(t, a, id), "first|second"; got != want {
		t.Errorf("session %s has the prompts %q; want %q", id, got, want)
	}
}
