package liteagent

import (
	"context"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/task"
)

// taskWriter returns the task list that the tools of session sessionID
// (its task tools, and the subagent tool recording its runs) write: the
// list of [Agent.taskStore], whose writes, for a session's private list in
// the data home, are held (see heldList).
func (a *Agent) taskWriter(ctx context.Context, sessionID string) (task.Store, error) {
	st, err := a.taskStore(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	h, ok := a.cp.(session.Holder)
	id := a.listID(sessionID)
	if !ok || a.store != nil || id == a.lay.taskListID {
		// A shared list outlives its sessions. A Store's delete refuses
		// a session leased for a turn, so none goes while its tools run;
		// what is written outside a turn (a background subagent's
		// outcome) is an update, which finds a removed list's task gone.
		return st, nil
	}
	return &heldList{Store: st, a: a, h: h, id: id}, nil
}

// A heldList is the private task list of session id in the data home
// (the list has the session's id). Its writes hold the session's lock and
// find the session still stored first; otherwise they fail with the
// session's *session.NotFoundError (or *session.DeletingError) and write
// nothing. A delete of the session in another process holds that lock
// from its first look to its end and sets the log aside before it removes
// the list, so a write either lands before the delete, which removes it
// with the list, or finds the log gone: a write after the delete never
// makes the deleted session's list again, a list no session owns.
type heldList struct {
	task.Store
	a  *Agent
	h  session.Holder
	id string
}

// Create creates the task while the session is held and stored.
func (l *heldList) Create(ctx context.Context, in task.CreateInput) (t task.Task, err error) {
	err = l.held(ctx, func() error {
		t, err = l.Store.Create(ctx, in)
		return err
	})
	return t, err
}

// Update updates task id while the session is held and stored.
func (l *heldList) Update(ctx context.Context, id string, in task.UpdateInput) (t task.Task, err error) {
	err = l.held(ctx, func() error {
		t, err = l.Store.Update(ctx, id, in)
		return err
	})
	return t, err
}

// held runs write with the session held, once it is found stored.
func (l *heldList) held(ctx context.Context, write func() error) (err error) {
	release, err := l.h.Hold(ctx, l.id)
	if err != nil {
		return err
	}
	defer func() {
		// A lock found taken over while held: a delete may have run
		// meanwhile, which the write must not pass for a success beside.
		if rerr := release(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	if err := l.a.logStored(ctx, l.id); err != nil {
		return err
	}
	return write()
}

// logStored returns nil when session id has a log: records, or in the data
// home an emptied log file; a *session.NotFoundError when it has none,
// and the store's error (a *session.DeletingError for a delete begun)
// otherwise.
func (a *Agent) logStored(ctx context.Context, id string) error {
	head, err := a.cp.Head(ctx, id)
	switch {
	case err != nil:
		return err
	case head == 0 && !a.emptyLogKept(id):
		return &session.NotFoundError{SessionID: id}
	}
	return nil
}
