package liteagent

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/rewind"
	"github.com/lite-agent/lite-agent-go/session"
)

// Checkpoint is a point of a session that Restore can go back to: the
// state just before a real user prompt. See [rewind.Checkpoint].
type Checkpoint = rewind.Checkpoint

// RestoreOptions says what Restore does; the zero value restores both the
// files and the conversation. Set FilesOnly or ConversationOnly for one of
// them, DryRun for the plan alone. See [rewind.Options].
type RestoreOptions = rewind.Options

// RestoreResult is what Restore did or, for a dry run, would do. See
// [rewind.Result].
type RestoreResult = rewind.Result

// ForkAtHead is the sequence number that makes Fork copy the whole log.
const ForkAtHead = rewind.AtHead

// ErrSessionBusy is matched by every *[SessionBusyError]: work of this
// agent (or of its family: a subagent, another goroutine's call) holds the
// session: a turn that a restore or a compaction must not cut into, or a
// restore or compaction that a prompt (or another of them) must wait
// for. It is decided in this process, before any lease is asked for, and
// clears when that work ends. Another agent or process holding the session (a Store's
// lease, such as store/postgres's) is session.ErrLeased instead; no error
// matches both. A caller to whom both mean "someone else is on this
// session, try later" asks errors.Is(err, ErrSessionBusy) ||
// errors.Is(err, session.ErrLeased).
var ErrSessionBusy = errors.New("liteagent: session busy")

// A SessionBusyError reports a session operation ([Agent.Restore],
// [Agent.CompactSession]) refused because a run of the session or another
// session operation is in progress, or a prompt refused because a session
// operation is. Nothing was changed.
type SessionBusyError struct {
	// SessionID is the busy session.
	SessionID string
	// Op reports that a session operation holds the session; otherwise a
	// run does. HeldBy says which.
	Op bool
	// HeldBy names what holds the session: [ActivityRun],
	// [ActivityRestore] or [ActivityCompaction].
	HeldBy SessionActivity
}

// SessionActivity names what holds a busy session.
type SessionActivity string

// What may hold a session: a run (a turn of it, or of the subagent whose
// session it is), or a session operation.
const (
	ActivityRun        SessionActivity = "run"
	ActivityRestore    SessionActivity = "restore"
	ActivityCompaction SessionActivity = "compaction"
)

// Error names the session and what holds it.
func (e *SessionBusyError) Error() string {
	prefix := "liteagent: session " + e.SessionID
	switch {
	case e.HeldBy == ActivityRestore:
		return prefix + " is being restored; try again when the restore has finished"
	case e.HeldBy == ActivityCompaction:
		return prefix + " is being compacted; try again when the compaction has finished"
	case e.HeldBy == ActivityRun || !e.Op:
		return prefix + " has a run in progress; wait for it to end (or interrupt it) first"
	}
	return prefix + " is busy with a session operation; try again when it has finished"
}

// Is reports whether target is [ErrSessionBusy].
func (e *SessionBusyError) Is(target error) bool { return target == ErrSessionBusy }

// Checkpoints returns the checkpoints of session id, oldest first: one
// before each real user prompt (not background deliveries or reminders),
// each with the files the file tools changed after it. Changes made by
// bash are not recorded. A session with nothing stored is a
// *session.NotFoundError.
func (a *Agent) Checkpoints(ctx context.Context, id string) ([]Checkpoint, error) {
	if !a.made() {
		return nil, ErrClosed
	}
	if !a.persistent() {
		return nil, ErrNoSessions
	}
	return rewind.Checkpoints(ctx, a.cp, id)
}

// Restore puts session id back to sequence toSeq (a Checkpoint's Seq, or
// 0): it writes back the files the file tools changed after toSeq, as
// they were, deletes those they created, and truncates the log to toSeq.
// A refused restore changes nothing: a sequence that splits a tool call or
// is out of range (*rewind.SequenceError), a file changed since the agent
// last wrote it or without a usable snapshot (too large to keep, not
// recording what the write left, unreadable: *rewind.FileError, whose
// Reason says which), a checkpointer that cannot truncate
// (*rewind.NoTruncateError), a log that grew meanwhile
// (*session.ConflictError), a missing session (*session.NotFoundError). A
// failure while applying puts the written files back
// (*rewind.RollbackError if some could not be).
//
// Restore is a session operation: it fails with a *SessionBusyError while
// a run of the session or another session operation (a compaction) is in
// progress, and a prompt started on the
// session meanwhile fails the same way (the delivery of background work
// waits for the restore instead). With a store that
// leases sessions it takes the session's lease, so a session busy in
// another process is refused too. Subscribers get its
// [EventCheckpointRestore] events (not for a dry run). It does not change
// the current session. Bash's changes to files are not undone.
//
// A session the agent started ([Agent.StartSession]) and has written
// nothing to is not the agent's to restore: when another writer (another
// process) made it meanwhile, Restore fails with a *SessionExistsError and
// changes neither its log nor the files, where it would otherwise rewind
// the other owner's session (chat's /rewind restores the current
// session). This is checked on the log the restore reads, while it holds
// the session's lock (a file store's) or lease, so a first write by
// another process just before the restore began is seen too.
// [Agent.Resume] of the id makes it the agent's.
//
// Likewise a session the agent knows (it resumed it, or ran turns on it)
// that another process deleted and another writer started again under its
// id is not the agent's: Restore fails with a *session.ReplacedError and
// changes nothing, checked (one read of the log's first record) under the
// same lock or lease (see [Agent.ResumeStored]). A restore to 0 that empties the agent's own
// session makes the record written next, by anyone, its first.
func (a *Agent) Restore(ctx context.Context, id string, toSeq int64, opts RestoreOptions) (RestoreResult, error) {
	if !a.made() {
		return RestoreResult{}, ErrClosed
	}
	if !a.persistent() {
		return RestoreResult{}, ErrNoSessions
	}
	if inHook(ctx, a) {
		return RestoreResult{}, ErrReentrant
	}
	end, err := a.sched.beginOp(id, ActivityRestore)
	if err != nil {
		return RestoreResult{}, err
	}
	defer end()
	release, err := a.leaseSession(ctx, id)
	if err != nil {
		return RestoreResult{}, err
	}
	defer release()
	var files rewind.Files
	if a.files != nil {
		files = a.files
	}
	if a.restoreLocking != nil {
		a.restoreLocking(id)
	}
	// Whether the session is the agent's to restore is checked on the log
	// the restore reads, under the session's lock: checked before it, a
	// first write by another process in between would go unseen.
	// So is whether it is still the session the agent knows under id (a
	// session deleted and started again by others is not): one read of
	// its first record. A caller's own Check runs after them.
	check := opts.Check
	opts.Check = func(head int64) error {
		if err := a.notTaken(id, head); err != nil {
			return err
		}
		if err := a.eng.CheckStored(ctx, id); err != nil {
			return err
		}
		if check != nil {
			return check(head)
		}
		return nil
	}
	res, err := rewind.Restore(ctx, a.cp, files, id, toSeq, opts, func(p rewind.Progress) {
		ev := Event{Type: EventCheckpointRestore, SessionID: id, Restore: &RestoreEvent{
			Phase: string(p.Phase), ToSeq: p.ToSeq, Completed: p.Completed, Total: p.Total, Message: p.Message,
		}}
		if p.Phase == rewind.PhaseError {
			ev.Err = p.Err // typed, for errors.As
		}
		a.publish(Notice{SessionID: id, Source: hook.SourceUser, Event: ev})
	})
	if !opts.DryRun && !opts.FilesOnly {
		a.eng.Forget(id) // even after a failure: the log may have changed
	}
	if err == nil && res.ConversationRestored && toSeq == 0 && res.DroppedEvents > 0 {
		// The agent emptied its own session (checked above): the
		// record written next, by anyone, starts it again, and no
		// check of the session as resumed (ResumeStored) takes the
		// emptied log for a deleted one.
		a.eng.Unidentify(id)
		a.eng.ExpectStored(id, nil)
	}
	return res, err
}

// Fork copies session id up to sequence atSeq (an existing record that
// does not split a tool call from its result, or ForkAtHead) into a new
// session and returns its id. The new session has the same project and
// codec and resumes like any other (Resume); the original and the
// workspace files are not touched. The copies carry the time of the fork.
//
// The new session also gets the session's data: every note of its
// context archive, so that the archive refs of the copied events resolve
// in the fork (re-encoded under the new session's id; refs stay the
// same), and, unless the agent uses a shared task list, its private task
// list with ids and records unchanged. A shared list is never copied or
// changed. A failure to copy them is a *ForkError, and the new session's
// data is removed again.
//
// The data is copied before the new session's log, which is what makes
// the session exist: a fork cut short, even by a crash, leaves no session
// whose events refer to notes it does not have. A crash may leave the
// copied data of a session that does not exist, which nothing lists. An
// external Store (Options.Store) removes a session's data only with its
// log (see Store.DeleteSession), so after a failure there the log is
// written and then removed with the data. A fork paused between its copy
// and its log for longer than a retention sweep's MaxAge may find its
// copy removed as a dead fork's leftover: it then fails with a *ForkError
// (Part ForkPartMark) holding a *storage.ForkMarkLostError, and removes
// the new session, log included. A session deleted (or whose delete
// began, in another process say) while the fork copied its data may have
// lost its archive or tasks before they were copied: the fork then fails
// with a *ForkError (Part ForkPartSource) and removes what it copied.
//
// From its first write to its last check the fork holds the new session:
// its lease when the checkpointer is a [SessionLeaser] (a turn on the new
// id, in any process, is refused meanwhile) and its lock when it is a
// [session.Holder] (the data home's files: other processes' operations
// on it wait). Under them it checks that nothing of the new session
// exists yet (its log, a delete of it, and in the data home its archive
// or task list); otherwise it fails with a *ForkError (Part
// ForkPartNewSession) matching [ErrSessionExists], copies nothing and
// removes nothing, so that two forks to one id never both succeed and the
// one that fails never removes the other's session.
//
// A session the agent knows (see [Agent.ResumeStored]) that another
// process deleted and another writer started again under its id is not
// forked: Fork fails with a *session.ReplacedError, checked on the log it
// read, and writes nothing.
func (a *Agent) Fork(ctx context.Context, id string, atSeq int64) (string, error) {
	if !a.made() {
		return "", ErrClosed
	}
	if !a.persistent() {
		return "", ErrNoSessions
	}
	newID := newSessionID()
	if a.forkNewID != nil {
		newID = a.forkNewID()
	}
	// The session forked is the one the agent knows under id, if it
	// knows one: checked on the log the fork copies.
	copies, err := rewind.ForkEventsWith(ctx, a.cp, id, atSeq, rewind.ForkOptions{Check: func(log []session.StoredEvent) error {
		return a.eng.CheckSame(id, log)
	}})
	if err != nil {
		return "", err
	}
	if a.forkRead != nil {
		a.forkRead()
	}
	// The new session is the fork's alone from its first write to its
	// last check: another fork to the same id, or a turn started on it,
	// waits (a file store's lock) or is refused (a store's lease), and
	// finds it taken afterwards.
	h, err := a.holdNewSession(ctx, id, newID)
	if err != nil {
		return "", err
	}
	defer h.release()
	// The data kept beside the log goes first and the log last: a fork
	// cut short (a crash, a failure) leaves no listed session whose
	// archived results or tasks are missing.
	copied, err := a.forkData(ctx, id, newID, copies, h)
	if err != nil {
		return "", err
	}
	// A delete of the session (by another process, say) that began after
	// its events were read may have removed its archive or tasks before
	// they were copied. A delete takes the log away first (renamed, or
	// removed) and the rest after: a log still in place now means that
	// nothing was removed before the copy ended.
	if err := a.forkSourceKept(ctx, id); err != nil {
		return "", &ForkError{SessionID: id, NewID: newID, Part: ForkPartSource, Err: err, CleanupErr: a.dropFork(ctx, newID, copies, h)}
	}
	if a.forkPaused != nil {
		a.forkPaused(newID)
	}
	if _, err := a.cp.Append(ctx, newID, copies, 0); err != nil {
		if cerr := a.dropFork(ctx, newID, copies, h); cerr != nil {
			return "", fmt.Errorf("%w; removing the fork's copied data also failed: %w", err, cerr)
		}
		return "", err
	}
	if part, err := a.forkDone(ctx, newID, copied); err != nil {
		// A sweep removed the copy, or part of it, while the fork was
		// paused: the new session goes, its log with it.
		return "", &ForkError{SessionID: id, NewID: newID, Part: part, Err: err, CleanupErr: a.dropFork(ctx, newID, copies, h)}
	}
	return newID, nil
}

// beginOp reserves session id for the session operation what: it fails
// with a *SessionBusyError while a turn of the session runs (or the
// session is a running subagent's) or another operation holds it, and
// until end is called no turn starts on it.
func (s *schedule) beginOp(id string, what SessionActivity) (end func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, child := s.parentOf[id]
	switch {
	case s.closed:
		return nil, ErrClosed
	case s.ops[id] != nil:
		return nil, s.ops[id].busy(id)
	case len(s.running[id]) > 0 || child:
		return nil, &SessionBusyError{SessionID: id, HeldBy: ActivityRun}
	}
	if s.ops == nil {
		s.ops = map[string]*sessionOp{}
	}
	op := &sessionOp{what: what, done: make(chan struct{})}
	s.ops[id] = op
	return sync.OnceFunc(func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.ops, id)
		close(op.done)
	}), nil
}

// A sessionOp is a session operation in progress.
type sessionOp struct {
	what SessionActivity
	done chan struct{} // closed when it ends
}

// busy returns the error of what op refuses on session id.
func (op *sessionOp) busy(id string) error {
	return &SessionBusyError{SessionID: id, Op: true, HeldBy: op.what}
}

// awaitOp waits until no session operation holds session id and reports
// true, or false when life ends first.
func (s *schedule) awaitOp(life context.Context, id string) bool {
	s.mu.Lock()
	op := s.ops[id]
	s.mu.Unlock()
	if op == nil {
		return true
	}
	select {
	case <-op.done:
		return true
	case <-life.Done():
		return false
	}
}

// notTaken returns a *SessionExistsError for session id, whose log has
// head records, when the agent started it ([Agent.StartSession]) and has
// written nothing to it while another writer has: its log is the other
// owner's.
func (a *Agent) notTaken(id string, head int64) error {
	if head > 0 && a.eng.ExpectsNew(id) {
		return &SessionExistsError{SessionID: id, Head: head}
	}
	return nil
}
