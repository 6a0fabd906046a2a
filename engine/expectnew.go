package engine

import (
	"errors"

	"github.com/lite-agent/lite-agent-go/session"
)

// A newSession is the mark [Engine.ExpectNew] puts on a session chosen to
// start empty, until its first record is written.
type newSession struct {
	taken func(head int64, cause error) error
}

// ExpectNew marks session id as one that must start empty: its first
// record, by a turn or [Engine.RecordBetweenTurns], is written only to a
// log that has none, checked by the checkpointer's head check in the same
// append. A log found with records when it is loaded, or written by
// another writer (another process, a fork) between that load and the
// first append, fails the operation with taken's error, given the head
// found and the checkpointer's error (nil, or its *session.ConflictError),
// and nothing is written. The mark goes once a record is written; a nil
// taken removes it.
func (e *Engine) ExpectNew(id string, taken func(head int64, cause error) error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if taken == nil {
		delete(e.fresh, id)
		return
	}
	if e.fresh == nil {
		e.fresh = map[string]*newSession{}
	}
	e.fresh[id] = &newSession{taken: taken}
}

// ExpectsNew reports whether session id is marked by [Engine.ExpectNew]
// and has had no record written since.
func (e *Engine) ExpectsNew(id string) bool {
	return e.newMark(id) != nil
}

// newMark returns the mark of session id, or nil.
func (e *Engine) newMark(id string) *newSession {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.fresh[id]
}

// wrote removes mark from session id, unless it was replaced meanwhile.
func (e *Engine) wrote(id string, mark *newSession) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.fresh[id] == mark {
		delete(e.fresh, id)
	}
}

// checkNew returns the error of a session marked new whose loaded log
// has records (head), or nil.
func (r *run) checkNew() error {
	if mark := r.e.newMark(r.id); mark != nil && r.st.head > 0 {
		return mark.taken(r.st.head, nil)
	}
	return nil
}

// newTaken returns the error of an append, at expected head 0, to a
// session marked new that failed with err: mark's when the head check
// failed, err otherwise.
func newTaken(mark *newSession, expected int64, err error) error {
	var ce *session.ConflictError
	if mark == nil || expected != 0 || !errors.As(err, &ce) {
		return nil
	}
	return mark.taken(ce.Head, err)
}
