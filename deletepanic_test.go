package liteagent_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/storage"
)

// panickyDelete is a Store whose DeleteSession panics the first time.
type panickyDelete struct {
	*elsewhere
	calls atomic.Int32
}

func (p *panickyDelete) DeleteSession(ctx context.Context, enc storage.Encoding, id string) error {
	if p.calls.Add(1) == 1 {
		panic("store broke")
	}
	return p.elsewhere.DeleteSession(ctx, enc, id)
}

// A Store whose delete panics (recovered by the caller, as net/http
// recovers a handler's) leaves the session as a failed delete does: the
// mark that fails the Runs called before the delete was not undone (the
// undo ran only on an error), so a Run called before it failed with
// *engine.DeletedError though nothing was deleted, and the session's
// write lock stayed held, so the next DeleteSession of the id waited
// forever.
func TestAPanickingStoreDeleteLeavesTheSessionAsItWas(t *testing.T) {
	f := newFixture(t)
	st := &panickyDelete{elsewhere: newElsewhere(t)}
	opts := f.options(nil)
	opts.Store = st
	a := f.agent(t, opts)
	f.p.Reply(modeltest.Text("one"), modeltest.Text("two"), modeltest.Text("three"))
	if _, err := a.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	id := a.SessionID()
	seq := a.Run(t.Context(), "second")
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the store's delete did not panic")
			}
		}()
		_ = a.DeleteSession(t.Context(), id)
	}()
	if _, err := resultOfSeq(seq); err != nil {
		t.Errorf("the Run called before the delete that panicked: %v (%T); want it to run", err, err)
	}
	done := make(chan error, 1)
	go func() { done <- a.DeleteSession(t.Context(), id) }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the next DeleteSession: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the next DeleteSession still waits after 5s (the session's write lock was left held)")
	}
}
