package liteagent_test

import (
	"context"
	"sync"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// appendHooked is the PostgreSQL store whose checkpointer calls before
// ahead of each append.
type appendHooked struct {
	*postgres.Store
	before func(evs []session.Event)
	cp     *postgres.Checkpointer // the last one made
}

func (s *appendHooked) Checkpointer(ctx context.Context, enc storage.Encoding) (session.Checkpointer, error) {
	p, err := s.Project(enc)
	if err != nil {
		return nil, err
	}
	s.cp = p.Checkpointer()
	return hookedLog{Checkpointer: s.cp, before: s.before}, nil
}

// hookedLog is a PostgreSQL checkpointer (its lease and delete included)
// whose appends call before first.
type hookedLog struct {
	*postgres.Checkpointer
	before func(evs []session.Event)
}

func (l hookedLog) Append(ctx context.Context, id string, evs []session.Event, expected int64) (int64, error) {
	l.before(evs)
	return l.Checkpointer.Append(ctx, id, evs, expected)
}

// The audit of a permission decision made around a turn (a run:start or
// run:end hook's) is recorded between the session's turns. Through
// PostgreSQL it took no lease: the engine read the session's first record
// and then appended, two queries apart, and another process that deleted
// the session and started it again in between (here, children run right
// before the append, leaving as many records as the agent's session had)
// got the decision in its new session. Now the record is checked and
// made under the session's lease: the other process's delete is refused
// until it is written into the agent's own session.
func TestARecordBetweenTurnsThroughPostgresIsMadeUnderTheLease(t *testing.T) {
	url := pgtest.URL(t)
	f := newFixture(t)
	opts := f.options(nil)
	st, url, schema := forkStore(t, url)
	var (
		mu      sync.Mutex
		armed   bool
		replace func()
	)
	hooked := &appendHooked{Store: st, before: func(evs []session.Event) {
		mu.Lock()
		do := armed && len(evs) == 1
		if do {
			if _, ok := evs[0].(session.PermissionDecisionEvent); !ok {
				do = false
			}
		}
		if do {
			armed = false
		}
		mu.Unlock()
		if do {
			replace()
		}
	}}
	opts.Store = hooked
	a := f.agent(t, opts)
	f.p.Reply(modeltest.Text("one"))
	if _, err := a.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	id := a.SessionID()
	replaced := false
	replace = func() { replaced = replaceInChildren(t, f, id, "\n"+url+"\n"+schema) }
	mu.Lock()
	armed = true
	mu.Unlock()
	ev := session.PermissionDecisionEvent{Call: session.PermissionCall{ID: "c1", Name: "bash"}, Decision: "allow", Reason: "mine"}
	rerr := liteagent.RecordBetweenTurns(t.Context(), a, id, ev)
	evs, err := hooked.cp.Read(t.Context(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	var prompts []string
	decision := false
	for _, e := range evs {
		switch x := e.Event.(type) {
		case session.UserEvent:
			prompts = append(prompts, x.Message.Text)
		case session.PermissionDecisionEvent:
			decision = decision || x.Reason == "mine"
		}
	}
	theirs := len(prompts) == 1 && prompts[0] == "the other run's prompt"
	switch {
	case theirs && decision:
		t.Errorf("the agent's decision went into the session another process started (replaced by the children: %v)", replaced)
	case theirs && rerr == nil:
		t.Errorf("the record succeeded; the session is the other process's")
	case !theirs && (rerr != nil || !decision):
		t.Errorf("the session is still the agent's (prompts %q); the record: %v, written: %v", prompts, rerr, decision)
	}
}
