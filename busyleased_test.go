package liteagent_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// TestSessionBusyAndLeasedAreToldApart checks the two errors of "someone
// else is on this session" on a real PostgreSQL store: while a turn of
// agent a runs, a's own restore and compaction of the session are
// refused with ErrSessionBusy (work of this agent in the way, to wait
// for), and a second agent b's prompt, restore, compaction and delete
// with session.ErrLeased (another holder's lease), never both, so that a
// caller can tell them apart, and match both with the two errors.Is.
func TestSessionBusyAndLeasedAreToldApart(t *testing.T) {
	st, _, _ := forkStore(t, pgtest.URL(t))
	f := newFixture(t)
	inTurn, finish := make(chan struct{}), make(chan struct{})
	var once sync.Once
	first := modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		once.Do(func() { close(inTurn) })
		<-finish
		return modeltest.Text("done").Chunks(), nil
	})
	agent := func(p model.Provider) *liteagent.Agent {
		opts := f.options(nil)
		opts.Model, opts.Store = p, st
		return f.agent(t, opts)
	}
	a, b := agent(first), agent(modeltest.New())
	ctx := t.Context()
	id := a.SessionID()
	done := make(chan error, 1)
	go func() {
		_, err := a.Send(ctx, "work")
		done <- err
	}()
	<-inTurn
	check := func(what string, err error, busy, leased bool) {
		t.Helper()
		if errors.Is(err, liteagent.ErrSessionBusy) != busy || errors.Is(err, session.ErrLeased) != leased {
			t.Errorf("%s: %v (%T): ErrSessionBusy %v (want %v), session.ErrLeased %v (want %v)",
				what, err, err, errors.Is(err, liteagent.ErrSessionBusy), busy, errors.Is(err, session.ErrLeased), leased)
		}
	}
	_, err := a.Restore(ctx, id, 0, liteagent.RestoreOptions{})
	check("the running agent's Restore", err, true, false)
	_, err = a.CompactSession(ctx, id, liteagent.CompactOptions{})
	check("the running agent's CompactSession", err, true, false)

	if err := b.Resume(id); err != nil {
		t.Fatal(err)
	}
	_, err = b.Send(ctx, "me too")
	check("another agent's Send", err, false, true)
	_, err = b.Restore(ctx, id, 0, liteagent.RestoreOptions{})
	check("another agent's Restore", err, false, true)
	_, err = b.CompactSession(ctx, id, liteagent.CompactOptions{})
	check("another agent's CompactSession", err, false, true)
	err = b.DeleteSession(ctx, id)
	check("another agent's DeleteSession", err, false, true)

	close(finish)
	if err := <-done; err != nil {
		t.Fatalf("the first agent's turn: %v", err)
	}
}
