package liteagent

import (
	"context"
	"errors"
	"sync"

	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/rewind"
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

// ErrSessionBusy is matched by every *[SessionBusyError].
var ErrSessionBusy = errors.New("liteagent: session busy")

// A SessionBusyError reports a session operation (Restore) refused because
// a run of the session is in progress, or a prompt refused because a
// session operation is. Nothing was changed.
type SessionBusyError struct {
	SessionID string
	// Op reports that a session operation holds the session (a prompt
	// was refused); otherwise a run does (the operation was refused).
	Op bool
}

func (e *SessionBusyError) Error() string {
	if e.Op {
		return "liteagent: session " + e.SessionID + " is being restored; try again when the restore has finished"
	}
	return "liteagent: session " + e.SessionID + " has a run in progress; wait for it to end (or interrupt it) first"
}

// Is reports whether target is [ErrSessionBusy].
func (e *SessionBusyError) Is(target error) bool { return target == ErrSessionBusy }

// Checkpoints returns the checkpoints of session id, oldest first: one
// before each real user prompt (not background deliveries or reminders),
// each with the files the file tools changed after it. Changes made by
// bash are not recorded. A session with nothing stored is a
// *session.NotFoundError.
func (a *Agent) Checkpoints(ctx context.Context, id string) ([]Checkpoint, error) {
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
// last wrote it or whose snapshot was too large to keep
// (*rewind.FileError), a checkpointer that cannot truncate
// (*rewind.NoTruncateError), a log that grew meanwhile
// (*session.ConflictError), a missing session (*session.NotFoundError). A
// failure while applying puts the written files back
// (*rewind.RollbackError if some could not be).
//
// Restore is a session operation: it fails with a *SessionBusyError while
// a run of the session is in progress, and a prompt started on the
// session meanwhile fails the same way (the delivery of background work
// waits for the restore instead). With a store that
// leases sessions it takes the session's lease, so a session busy in
// another process is refused too. Subscribers get its
// [EventCheckpointRestore] events (not for a dry run). It does not change
// the current session. Bash's changes to files are not undone.
func (a *Agent) Restore(ctx context.Context, id string, toSeq int64, opts RestoreOptions) (RestoreResult, error) {
	if !a.persistent() {
		return RestoreResult{}, ErrNoSessions
	}
	if inHook(ctx, a) {
		return RestoreResult{}, ErrReentrant
	}
	end, err := a.sched.beginOp(id)
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
func (a *Agent) Fork(ctx context.Context, id string, atSeq int64) (string, error) {
	if !a.persistent() {
		return "", ErrNoSessions
	}
	newID := newSessionID()
	if _, err := rewind.Fork(ctx, a.cp, id, atSeq, newID); err != nil {
		return "", err
	}
	if err := a.forkData(ctx, id, newID); err != nil {
		return "", err
	}
	return newID, nil
}

// beginOp reserves session id for a session operation: it fails with a
// *SessionBusyError while a turn of the session runs (or the session is
// a running subagent's), and until end is called no turn starts on it.
func (s *schedule) beginOp(id string) (end func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, child := s.parentOf[id]
	switch {
	case s.closed:
		return nil, ErrClosed
	case len(s.running[id]) > 0 || child || s.ops[id] != nil:
		return nil, &SessionBusyError{SessionID: id, Op: s.ops[id] != nil}
	}
	if s.ops == nil {
		s.ops = map[string]chan struct{}{}
	}
	ch := make(chan struct{})
	s.ops[id] = ch
	return sync.OnceFunc(func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.ops, id)
		close(ch)
	}), nil
}

// awaitOp waits until no session operation holds session id and reports
// true, or false when life ends first.
func (s *schedule) awaitOp(life context.Context, id string) bool {
	s.mu.Lock()
	ch := s.ops[id]
	s.mu.Unlock()
	if ch == nil {
		return true
	}
	select {
	case <-ch:
		return true
	case <-life.Done():
		return false
	}
}
