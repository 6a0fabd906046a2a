package liteagent_test

import (
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// A lease the Store is slow to give (a database that does not answer)
// holds up that session's turn only: the agent held its lock of all its
// leases while it asked, and a delete of another session (or any other
// lease) waited as long, up to the lease's TTL through PostgreSQL.
func TestAStalledLeaseHoldsUpOnlyItsSession(t *testing.T) {
	f := newFixture(t)
	st := newElsewhere(t)
	stall := make(chan struct{})
	st.stall = map[string]chan struct{}{"stalled": stall}
	st.stalling = make(chan string, 1)
	opts := f.options(nil)
	opts.Store = st
	a := f.agent(t, opts)
	ev := []session.Event{session.UserEvent{Message: model.UserText("old")}}
	if _, err := st.cp.Checkpointer.Append(t.Context(), "other", ev, 0); err != nil {
		t.Fatal(err)
	}
	if err := a.Resume("stalled"); err != nil {
		t.Fatal(err)
	}
	f.p.Reply(modeltest.Text("done"))
	turn := make(chan error, 1)
	go func() {
		_, err := a.Send(t.Context(), "go")
		turn <- err
	}()
	select { // the turn is asking for its lease
	case <-st.stalling:
	case err := <-turn:
		t.Fatalf("the turn ended without asking for its lease: %v", err)
	case <-time.After(30 * time.Second):
		close(stall)
		t.Fatal("the turn did not ask for its lease in 30 s")
	}

	deleted := make(chan error, 1)
	go func() { deleted <- a.DeleteSession(t.Context(), "other") }()
	select {
	case err := <-deleted:
		if err != nil {
			t.Errorf("DeleteSession of another session: %v", err)
		}
	case <-time.After(20 * time.Second): // it would wait until stall is closed
		t.Errorf("DeleteSession of another session waited for the stalled lease")
		close(stall)
		<-deleted
		stall = nil
	}
	if stall != nil {
		close(stall)
	}
	select {
	case err := <-turn:
		if err != nil {
			t.Errorf("the stalled turn: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Error("the stalled turn still runs 30 s after its lease was given")
	}
}
