package liteagent_test

import (
	"errors"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestAgentNotMadeByNewIsClosed checks that the zero Agent and a nil *Agent
// (what a failed New returns) behave as closed agents instead of panicking.
func TestAgentNotMadeByNewIsClosed(t *testing.T) {
	ctx := t.Context()
	for name, a := range map[string]*liteagent.Agent{"zero": new(liteagent.Agent), "nil": nil} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			closed := func(what string, err error) {
				t.Helper()
				if !errors.Is(err, liteagent.ErrClosed) {
					t.Errorf("%s: err = %v, want ErrClosed", what, err)
				}
			}
			if err := a.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			if err := a.Shutdown(ctx); err != nil {
				t.Errorf("Shutdown: %v", err)
			}
			if id := a.SessionID(); id != "" {
				t.Errorf("SessionID = %q", id)
			}
			if p := a.Paths(); p != (storage.ProjectPaths{}) {
				t.Errorf("Paths = %+v", p)
			}
			a.Clear()
			_, err := a.Send(ctx, "hi")
			closed("Send", err)
			for _, err := range a.Run(ctx, "hi") {
				closed("Run", err)
			}
			closed("Resume", a.Resume("s1"))
			closed("Steer", a.Steer("more"))
			_, err = a.ListSessions(ctx)
			closed("ListSessions", err)
			closed("DeleteSession", a.DeleteSession(ctx, "s1"))
			_, err = a.Compact(ctx, liteagent.CompactOptions{})
			closed("Compact", err)
			_, err = a.Checkpoints(ctx, "s1")
			closed("Checkpoints", err)
			_, err = a.Restore(ctx, "s1", 1, liteagent.RestoreOptions{})
			closed("Restore", err)
			_, err = a.Fork(ctx, "s1", liteagent.ForkAtHead)
			closed("Fork", err)
			closed("AwaitIdle", a.AwaitIdle(ctx))
			_, err = a.Subscribe(func(liteagent.Notice) {})
			closed("Subscribe", err)
			_, err = a.SubscribeAll(func(liteagent.Notice) {})
			closed("SubscribeAll", err)
		})
	}
}
