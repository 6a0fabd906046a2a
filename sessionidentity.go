package liteagent

import (
	"context"

	"github.com/lite-agent/lite-agent-go/engine"
)

// The agent's engine tells each session by its first record (see
// engine/identity.go) and takes a session with records only when told
// which one it is (engine.Options.IdentifiedOnly): the one a turn of the
// agent learned, or the one stored when the agent was told to take it as
// it is (Resume, a compaction by id of a session it knows nothing of).
//
// So that a long-lived agent serving many sessions keeps only what it
// uses, it forgets the sessions it has left, whenever it makes another
// current (Resume, ResumeStored, StartSession, Clear), deletes one, or
// compacts one by id: every session but the current one that has no work
// under way (a turn, a prompt, a restore or compaction, a subagent group,
// a background command of it or of its subagents). A session kept for its
// work goes at a later sweep, once the work is over. What is forgotten is
// never taken silently afterwards: a turn on it that nothing made current
// again (a delivery that finds it forgotten) fails with an
// *engine.UnidentifiedError and writes nothing, where the session may have
// been replaced meanwhile; one made current again is taken as its Resume,
// ResumeStored or StartSession says. A Run called before the agent left
// the session keeps what the agent knew of it then (an engine.Pin, about
// 100 bytes held by the sequence) and reinstates it when its sequence is
// ranged over: its turn runs on that session, checked as any turn, and
// fails (engine.DeletedError) once the agent deleted that session, which
// DeleteSession tells the engine (engine.Deleting) before it cancels the
// session's turns. A restore, fork or delete by id of a session the agent
// knows nothing of acts on the session stored under the id, as the
// lite-agent command does.

// forgetLeft drops what the engine knows of every session but current and
// those with work under way. The caller holds a.mu, which keeps the
// current session as it is meanwhile.
func (a *Agent) forgetLeft(current string) {
	a.eng.DropIdentities(func(id string) bool {
		return id == current || a.busyWith(id)
	})
	a.sweepLeft(current)
}

// sweepLeft drops the bookkeeping of sessions the agent left that nothing
// needs any more, so that a long-lived agent serving many sessions keeps
// only what it uses: the mark of a session deleted (once no delivery,
// audit or cancelled group's result of it may still come), the entries of
// a subagent's session (once its run and tool calls are over and its
// background commands reported), and, where sessions are stored, the
// opened task lists and archives of sessions with no work under way
// (opened again at their next use, as by another process: an archive's
// read budgets start afresh then). A mark or entry that guards a write
// still to come stays for a later sweep. The caller holds a.mu.
func (a *Agent) sweepLeft(current string) {
	deleted, children := a.sched.leftEntries()
	for _, id := range children {
		if a.bg.Unreported(id) == 0 {
			a.sched.dropChild(id)
		}
	}
	for _, id := range deleted {
		if id != current && !a.busyWith(id) {
			a.sched.dropDeleted(id)
		}
	}
	if !a.persistent() {
		return // the task lists in memory are the data
	}
	for id := range a.archives {
		if id != current && !a.busyWith(id) {
			delete(a.archives, id)
		}
	}
	for list := range a.tasks {
		if list != a.lay.taskListID && list != a.listID(current) && !a.busyWith(list) {
			delete(a.tasks, list)
		}
	}
}

// busyWith reports whether session id has work under way whose turns the
// engine must still tell the session for: turns, prompts or a session
// operation or a delivery (see schedule.idle), subagent groups, or
// background commands of the session or of its subagents, until their
// completion was handed to the delivery.
func (a *Agent) busyWith(id string) bool {
	if !a.sched.idle(id) {
		return true
	}
	if a.pool != nil && a.pool.Groups(id) > 0 {
		return true
	}
	for _, s := range a.sched.family(id) {
		if a.bg.Unreported(s) > 0 {
			return true
		}
	}
	return false
}

// idle reports whether session id has no turn running, no prompt in
// progress, no session operation (a restore, a compaction) and no
// delivery of a background completion under way.
func (s *schedule) idle(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.idleLocked(id)
}

// idleLocked is idle with s.mu held; an audit still to be written counts
// as work under way too.
func (s *schedule) idleLocked(id string) bool {
	return len(s.running[id]) == 0 && s.prompts[id] == 0 && s.ops[id] == nil && s.delivering[id] == 0 && s.auditing[id] == 0
}

// sameSession returns nil when session id, as stored now, is the one the
// agent knows under id, before a write beside its log (its task list, its
// archive) made for work of the session: a *session.ReplacedError when
// another session was started under the id since, and an
// *engine.UnidentifiedError when the agent knows none (forgotten: see
// forgetLeft), since the write cannot tell then. A subagent's session is
// its own run's, which the agent's engine does not follow: it is not
// checked. Call it under the session's lock or lease where there is one.
func (a *Agent) sameSession(ctx context.Context, id string) error {
	if _, child := a.sched.parent(id); child {
		return nil
	}
	if !a.eng.Identified(id) {
		return &engine.UnidentifiedError{SessionID: id}
	}
	return a.eng.CheckStored(ctx, id)
}
