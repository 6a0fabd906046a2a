package liteagent

import (
	"slices"
	"sync"

	"github.com/lite-agent/lite-agent-go/hook"
)

// A Notice is one event of the agent's runs, as [Agent.Subscribe] delivers
// it.
type Notice struct {
	// SessionID is the session the run belongs to.
	SessionID string
	// Source is [hook.SourceUser] for prompts (Run, Send) and
	// [hook.SourceBackground] for the autonomous turns that deliver the
	// results of background work (subagent groups, background commands).
	Source hook.Source
	// Event is the event.
	Event Event
}

// subscribers holds the functions of [Agent.Subscribe] and
// [Agent.SubscribeAll].
type subscribers struct {
	mu   sync.Mutex
	next uint64
	fns  map[uint64]subscriber
}

// A subscriber is one function of subscribers; all marks one of
// SubscribeAll, which subagents' runs publish to as well.
type subscriber struct {
	f   func(Notice)
	all bool
}

// Subscribe calls f with every event of the agent's runs until the
// returned function is called: the events of prompts, as Run yields them,
// and those of the autonomous turns that deliver the results of background
// work (subagent groups, background commands), which no caller sees
// otherwise, each such turn preceded by an [engine.EventBackgroundCompleted]
// event; and the [EventCheckpointRestore] events of Restore. Subagents'
// own runs are not included ([Agent.SubscribeAll] adds them).
//
// f runs on the run's goroutine before the run goes on (for a prompt,
// before Run yields the event), so it should return quickly. Calls for one
// run come in order; calls for different runs may come concurrently. A
// panic in f is recovered and logged, and the run goes on. f must not call
// the agent's Run, Send, AwaitIdle, DeleteSession or Close, which may wait
// for the run that is calling f; nor Shutdown, unless from a goroutine of
// its own or with a context that ends.
//
// A delivery starts after the prompts in progress on its session have
// ended, so a subscriber sees their done events first.
//
// After the returned function returns, no new publication calls f; one
// already under way may still call it once. Subscribe fails with [ErrClosed]
// after Close; events of runs that Close ends are still delivered.
func (a *Agent) Subscribe(f func(Notice)) (unsubscribe func(), err error) {
	return a.subscribe(f, false)
}

// SubscribeAll is [Agent.Subscribe] that also calls f with the events of
// subagents' own runs, as they happen: each with the subagent's session
// in Notice.SessionID and Event.SessionID, its id in Event.AgentID, and
// the Source of the run that dispatched it. An audit log uses it to record
// what subagents did too.
func (a *Agent) SubscribeAll(f func(Notice)) (unsubscribe func(), err error) {
	return a.subscribe(f, true)
}

func (a *Agent) subscribe(f func(Notice), all bool) (unsubscribe func(), err error) {
	if !a.made() {
		return nil, ErrClosed
	}
	if f == nil {
		return nil, ErrNilSubscriber
	}
	if a.sched.isClosed() {
		return nil, ErrClosed
	}
	s := &a.subs
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fns == nil {
		s.fns = make(map[uint64]subscriber)
	}
	s.next++
	n := s.next
	s.fns[n] = subscriber{f: f, all: all}
	return func() {
		s.mu.Lock()
		delete(s.fns, n)
		s.mu.Unlock()
	}, nil
}

// publish calls every subscriber with n, in the order they subscribed.
func (a *Agent) publish(n Notice) { a.publishTo(n, false) }

// publishSubagent calls the subscribers of SubscribeAll with n, an event
// of a subagent's own run.
func (a *Agent) publishSubagent(n Notice) { a.publishTo(n, true) }

// publishTo calls the subscribers with n, in the order they subscribed:
// with onlyAll, those of SubscribeAll only.
func (a *Agent) publishTo(n Notice, onlyAll bool) {
	s := &a.subs
	s.mu.Lock()
	if len(s.fns) == 0 {
		s.mu.Unlock()
		return
	}
	ids := make([]uint64, 0, len(s.fns))
	for id := range s.fns {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	slices.Sort(ids)
	for _, id := range ids {
		s.mu.Lock()
		sub, ok := s.fns[id]
		s.mu.Unlock()
		if ok && (sub.all || !onlyAll) {
			a.callSubscriber(sub.f, n)
		}
	}
}

func (a *Agent) callSubscriber(f func(Notice), n Notice) {
	defer func() {
		if r := recover(); r != nil {
			a.log.Warn("subscriber panicked", "session", n.SessionID, "event", string(n.Event.Type), "panic", r)
		}
	}()
	f(n)
}
