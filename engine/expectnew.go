package engine

import (
	"errors"

	"github.com/lite-agent/lite-agent-go/session"
)

// A sessionMark is what [Engine.ExpectNew] or [Engine.ExpectStored] says
// of a session a caller checked: it must start empty (empty), or it must
// still have records.
type sessionMark struct {
	empty bool
	fail  func(head int64, cause error) error
	spent bool // used up by a record written or a load (unmark); under Engine.mu
}

// ExpectNew marks session id as one that must start empty: its first
// record, by a turn or [Engine.RecordBetweenTurns], is written only to a
// log that has none, checked by the checkpointer's head check in the same
// append. A log found with records when it is loaded, or written by
// another writer (another process, a fork) between that load and the
// first append, fails the operation with taken's error, given the head
// found and the checkpointer's error (nil, or its *session.ConflictError),
// and nothing is written. The mark goes once a record is written; a nil
// taken removes it (and a mark of [Engine.ExpectStored]).
func (e *Engine) ExpectNew(id string, taken func(head int64, cause error) error) {
	e.mark(id, true, taken)
}

// ExpectStored marks session id as one that must still be stored when it
// is next loaded, by a turn or [Engine.RecordBetweenTurns]: a caller
// checked that it is. A log found empty then is given to gone (with head
// 0 and a nil cause), which says whether the session is gone (deleted
// meanwhile, by another process say): its error fails the operation and
// nothing is written, where the turn would otherwise start the deleted
// session over under its id; nil (a log emptied by a restore to its start,
// say) lets the load go on, and gone is asked again just before the first
// append, under the session's lock, since an append at head 0 cannot tell
// an emptied log from a deleted one. The mark goes once a load finds
// records, or with the first record written: from there each append
// expects the head loaded, so a delete after it makes the append
// conflict. A nil gone removes it (and a mark of [Engine.ExpectNew]).
func (e *Engine) ExpectStored(id string, gone func(head int64, cause error) error) {
	e.mark(id, false, gone)
}

// mark sets or (fail nil) removes the mark of session id.
func (e *Engine) mark(id string, empty bool, fail func(head int64, cause error) error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if fail == nil {
		delete(e.marks, id)
		return
	}
	if e.marks == nil {
		e.marks = map[string]*sessionMark{}
	}
	e.marks[id] = &sessionMark{empty: empty, fail: fail}
}

// ExpectsNew reports whether session id is marked by [Engine.ExpectNew]
// and has had no record written since.
func (e *Engine) ExpectsNew(id string) bool {
	m := e.markOf(id)
	return m != nil && m.empty
}

// markOf returns the mark of session id, or nil.
func (e *Engine) markOf(id string) *sessionMark {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.marks[id]
}

// unmark removes mark from session id, unless it was replaced meanwhile.
func (e *Engine) unmark(id string, mark *sessionMark) {
	e.mu.Lock()
	defer e.mu.Unlock()
	mark.spent = true
	if e.marks[id] == mark {
		delete(e.marks, id)
	}
}

// checkMark returns the error of a marked session whose loaded log
// (head records) is not what the mark expects, or nil; a session marked
// stored and found still stored loses its mark.
func (r *run) checkMark() error {
	if err := r.pinDeleted(); err != nil {
		return err // checked after the load read the log: see TurnPinned
	}
	mark := r.e.markOf(r.id)
	switch {
	case mark == nil:
		return nil
	case mark.empty && r.st.head > 0:
		return mark.fail(r.st.head, nil)
	case mark.empty:
		return nil
	case r.st.head == 0:
		// Kept until the first append, which asks again under the
		// session's lock (storedGone): the append at head 0 cannot tell
		// an emptied log from a deleted one.
		return mark.fail(0, nil)
	}
	r.e.unmark(r.id, mark)
	return nil
}

// storedGone returns the error of a session marked stored whose log, at
// expected head 0 (loaded empty), is found gone just before an append
// (asked under the session's lock, where the checkpointer has one), or
// nil.
func storedGone(mark *sessionMark, expected int64) error {
	if mark == nil || mark.empty || expected != 0 {
		return nil
	}
	return mark.fail(0, nil)
}

// newTaken returns the error of an append, at expected head 0, to a
// session marked new that failed with err: mark's when the head check
// failed, nil otherwise.
func newTaken(mark *sessionMark, expected int64, err error) error {
	var ce *session.ConflictError
	if mark == nil || !mark.empty || expected != 0 || !errors.As(err, &ce) {
		return nil
	}
	return mark.fail(ce.Head, err)
}
