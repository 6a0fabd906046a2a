package liteagent_test

import (
	"context"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// turnKey marks the context of a turn in TestStoreOpensWithTheTurnsContext.
type turnKey struct{}

// ctxStore is elsewhere recording whether the task lists and archives it
// opens are opened with the context of the turn that needs them.
type ctxStore struct {
	*elsewhere
	mu               sync.Mutex
	listCtx, archCtx []bool // per call: the turn's context reached the Store
	sharedCtx        []bool
}

func (s *ctxStore) TaskList(ctx context.Context, enc storage.Encoding, listID string) (task.Store, error) {
	s.mu.Lock()
	s.listCtx = append(s.listCtx, ctx.Value(turnKey{}) != nil)
	s.mu.Unlock()
	st, err := s.elsewhere.TaskList(ctx, enc, listID)
	if err != nil {
		return nil, err
	}
	return &ctxSharedList{Store: st, s: s}, nil
}

func (s *ctxStore) Archive(ctx context.Context, enc storage.Encoding, sessionID string) (archive.Archive, error) {
	s.mu.Lock()
	s.archCtx = append(s.archCtx, ctx.Value(turnKey{}) != nil)
	s.mu.Unlock()
	return s.elsewhere.Archive(ctx, enc, sessionID)
}

// ctxSharedList is a task list with a MarkShared(ctx) method.
type ctxSharedList struct {
	task.Store
	s *ctxStore
}

func (l *ctxSharedList) MarkShared(ctx context.Context) error {
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	l.s.sharedCtx = append(l.s.sharedCtx, ctx.Value(turnKey{}) != nil)
	return nil
}

// TestStoreOpensWithTheTurnsContext checks that a Store's TaskList,
// MarkShared and Archive get the context of the turn that opens them, so
// that a cancelled turn cancels a slow open, rather than a background
// context that nothing cancels.
func TestStoreOpensWithTheTurnsContext(t *testing.T) {
	f := newFixture(t)
	st := &ctxStore{elsewhere: newElsewhere(t)}
	opts := f.options(nil)
	opts.Store = st
	opts.TaskListID = "shared"
	a := f.agent(t, opts)
	f.p.Reply(modeltest.ToolCalls(
		call("c1", "TaskCreate", `{"subject":"one","description":"d"}`),
		call("c2", "context", `{"ref":"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}`),
	))
	f.p.Reply(modeltest.Text("done"))
	ctx := context.WithValue(t.Context(), turnKey{}, true)
	if _, err := a.Send(ctx, "plan"); err != nil {
		t.Fatal(err)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	for name, saw := range map[string][]bool{"TaskList": st.listCtx, "MarkShared": st.sharedCtx, "Archive": st.archCtx} {
		if len(saw) == 0 {
			t.Errorf("%s was not called", name)
		}
		for i, ok := range saw {
			if !ok {
				t.Errorf("%s call %d did not get the turn's context", name, i+1)
			}
		}
	}
}
