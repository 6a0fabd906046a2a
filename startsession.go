package liteagent

import (
	"context"
	"errors"
	"fmt"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A SessionExistsError reports that session SessionID, which
// [Agent.StartSession] was to start empty, is taken: something of it was
// stored when StartSession checked, or another writer (another process's
// run, a fork) wrote its log before the agent's first record, or holds its
// lease. Nothing was written. It matches [ErrSessionExists].
type SessionExistsError struct {
	// SessionID is the session that was to start.
	SessionID string
	// Head is the number of records found in its log; 0 when what was
	// found is something else (a delete begun, an archive, a lease).
	Head int64
	// Err is what was found: the store's conflict or lease error, or the
	// check's own, or nil.
	Err error
}

// Error says which session is taken and how.
func (e *SessionExistsError) Error() string {
	if errors.Is(e.Err, ErrSessionExists) { // the check's own, which says what exists
		return "liteagent: session " + e.SessionID + ": " + e.Err.Error()
	}
	msg := "liteagent: session " + e.SessionID + " already exists"
	if e.Head > 0 {
		msg += fmt.Sprintf(" (a log of %d records written by another writer)", e.Head)
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg + "; nothing was written to it"
}

// Is reports whether target is [ErrSessionExists].
func (e *SessionExistsError) Is(target error) bool { return target == ErrSessionExists }

// Unwrap returns Err.
func (e *SessionExistsError) Unwrap() error { return e.Err }

// StartSession makes id the current session as a new, empty one, as
// `lite-agent run --session-id` does. It fails with a *SessionExistsError
// (matching [ErrSessionExists]) when something of id is stored: a log, a
// delete of it begun, or, in the data home, its context archive or private
// task list; the current session is then unchanged. The id must be valid
// as for [Agent.Resume].
// Without sessions (Options.DisableSessions) only the agent's own memory
// is checked.
//
// The check holds until the session's first record: a turn on it (or a
// record made around one) that finds its log written meanwhile, by a fork
// to that id or by another process starting it too, fails with a
// *SessionExistsError and writes nothing, where it would otherwise have
// continued the other writer's log. Through a [SessionLeaser] a turn that
// finds the session leased by another holder fails the same way. Once the
// first record is written the session is the agent's like any other.
// [Agent.Resume] of the id lifts the check. A turn refused so runs no
// hooks: run:start fires only once the turn has written its prompt, so
// neither it nor run:end acts for the run that lost the id, or on the
// other writer's session.
func (a *Agent) StartSession(ctx context.Context, id string) error {
	if !a.made() {
		return ErrClosed
	}
	if err := a.checkID(id); err != nil {
		return err
	}
	free := a.newSessionFree
	if a.mode == memoryStore {
		free = a.newLogFree // nothing of it is kept beside the log
	}
	if err := free(ctx, id); err != nil {
		if errors.Is(err, ErrSessionExists) {
			return &SessionExistsError{SessionID: id, Err: err}
		}
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.leaveCurrent(id)
	a.eng.Unidentify(id) // the session is the one its first record makes
	a.eng.ExpectNew(id, func(head int64, cause error) error {
		return &SessionExistsError{SessionID: id, Head: head, Err: cause}
	})
	a.current = id
	return nil
}

// takenLease returns the error of a turn on session id whose lease could
// not be taken (err): a *SessionExistsError when the session was to start
// empty (see [Agent.StartSession]) and another holder leases it (err
// matches session.ErrLeased), and err otherwise: a lease that failed
// because the turn's context ended, or the store could not be reached,
// says nothing of another holder.
func (a *Agent) takenLease(id string, err error) error {
	if a.eng.ExpectsNew(id) && errors.Is(err, session.ErrLeased) {
		return &SessionExistsError{SessionID: id, Err: err}
	}
	return err
}

// ResumeStored makes id the current session like [Agent.Resume], but only
// a stored one, as `lite-agent run --resume` and `--continue` do: an id
// whose log has no records (in the data home: no log file, an emptied one
// is still stored) fails with a *session.NotFoundError (a delete
// of it begun: its *session.DeletingError), and the current session is
// unchanged. The id must be valid as for [Agent.Resume].
//
// The check holds until a turn on the session (or a record made around
// one) first loads its log, and for an emptied log until its first record
// is written: a session deleted meanwhile, by another
// process say, makes it fail with a *session.NotFoundError and write
// nothing, where it would otherwise start the deleted session over, empty,
// under its id. From that load on, every append expects the head loaded,
// so a delete after it makes the append fail too. A turn refused so runs
// no hooks (neither run:start nor run:end), as for [Agent.StartSession].
//
// The session resumed is the one stored under id now, told by its first
// record: once another process has deleted it and another writer has
// started the id again (`lite-agent run --session-id`), a turn on it, or
// a restore, fork or compaction of it, fails with a
// *session.ReplacedError and writes nothing, where it would otherwise
// continue the other writer's session. The same holds for a session the
// agent ran turns on. [Agent.Resume] of the id takes the session it holds
// then.
func (a *Agent) ResumeStored(ctx context.Context, id string) error {
	if !a.made() {
		return ErrClosed
	}
	if err := a.checkID(id); err != nil {
		return err
	}
	// The session is known by its first record before its log is found
	// there: a delete between the two looks then fails the resume. The
	// other way round, a delete between them left the agent knowing no
	// session under id, and a session started again there later was
	// taken for the one resumed.
	if err := a.eng.Identify(ctx, id); err != nil {
		return err
	}
	if a.resumeLooked != nil {
		a.resumeLooked(id)
	}
	if err := a.logStored(ctx, id); err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.leaveCurrent(id)
	a.eng.ExpectStored(id, func(int64, error) error {
		if a.emptyLogKept(id) {
			return nil
		}
		return &session.NotFoundError{SessionID: id}
	})
	a.current = id
	return nil
}

// emptyLogKept reports whether session id, whose log has no records, is
// still stored: in the data home, a log file emptied by a restore to
// before its first prompt. A store tells only the records.
func (a *Agent) emptyLogKept(id string) bool {
	fc, ok := a.cp.(*session.FileCheckpointer)
	if !ok {
		return false
	}
	p, err := fc.Path(id)
	return err == nil && existsNoFollow(p)
}

// checkID returns the *storage.Error of [storage.ValidateID] for an id the
// agent cannot make current: an empty one, or, with the built-in file
// store or a Store, one that breaks the file session id rule, or, with a
// host Checkpointer whose sessions keep private task lists (in the data
// home or a Store), one that cannot name such a list.
func (a *Agent) checkID(id string) error {
	if id == "" || a.mode == fileStore || a.mode == externalStore {
		return storage.ValidateID(id)
	}
	if a.idNamesTaskList {
		// A host checkpointer may take any id, but the session's private
		// task list is named after it, in the data home or a Store: refuse
		// here what its first turn would fail on after writing the prompt.
		if err := storage.ValidateID(id); err != nil {
			if se, ok := errors.AsType[*storage.Error](err); ok && !errors.Is(err, storage.ErrIDTooLong) {
				c := *se
				c.Message = "the session's private task list needs an id of only letters, digits, underscores or hyphens (set TaskListID or DisableTasks for other ids)"
				return &c
			}
			return err
		}
	}
	return nil
}

// leaveCurrent drops the check (see [Agent.StartSession],
// [Agent.ResumeStored]) of the current session when the agent makes id
// current instead: a session left before its first turn is no longer the
// agent's to start or resume, and its check would otherwise fail a later
// operation on it (a compaction, say) once its rightful owner wrote it.
// It also forgets the sessions left (see forgetLeft). The caller holds
// a.mu.
func (a *Agent) leaveCurrent(id string) {
	if a.current != "" && a.current != id {
		a.eng.ExpectNew(a.current, nil)
	}
	a.forgetLeft(id)
}
