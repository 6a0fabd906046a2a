package rewind

import (
	"context"
	"errors"

	"github.com/lite-agent/lite-agent-go/session"
)

// AtHead is the sequence number that makes [Fork] copy the whole log.
const AtHead int64 = -1

// Fork copies the records 1..atSeq of session id into session newID, which
// must have nothing stored, through the same checkpointer (so the same
// project and codec), and returns the new session's head. atSeq is an
// existing record that does not split a tool call from its result, or
// [AtHead]; 0, which would copy nothing, is a *SequenceError. The original session and the workspace files are not touched.
//
// The copies keep their order and sequence numbers, and their events as
// stored (members this version does not know included), but carry the
// fork's time: a log's timestamps are those of its appends. A session with
// nothing stored is a *session.NotFoundError; a newID already in use is a
// *session.ConflictError.
func Fork(ctx context.Context, cp session.Checkpointer, id string, atSeq int64, newID string) (int64, error) {
	if newID == "" || newID == id {
		return 0, errors.New("rewind: a fork needs a new session id")
	}
	copies, err := ForkEvents(ctx, cp, id, atSeq)
	if err != nil {
		return 0, err
	}
	return cp.Append(ctx, newID, copies, 0)
}

// ForkEvents returns the events [Fork] copies from session id: records
// 1..atSeq as stored, checked as Fork checks them (with the same errors).
// It writes nothing. Appending them to a new session with expected head 0
// is the fork; a caller that keeps data beside the log (a context archive,
// a task list) can copy that first and write the log last, so that a fork
// cut short leaves no session without its data.
func ForkEvents(ctx context.Context, cp session.Checkpointer, id string, atSeq int64) ([]session.Event, error) {
	return ForkEventsWith(ctx, cp, id, atSeq, ForkOptions{})
}

// ForkOptions says what [ForkEventsWith] does beside what [ForkEvents]
// does. The zero value does nothing more.
type ForkOptions struct {
	// Check, when not nil, is called with the log read (every record)
	// before anything is taken from it; its error fails the call as it
	// is. A caller that must know the session is still the one it knows
	// (liteagent's Fork, which tells a session by its first record)
	// checks here, on the records it copies. Check must not keep log.
	Check func(log []session.StoredEvent) error
}

// ForkEventsWith is [ForkEvents] with opts.
func ForkEventsWith(ctx context.Context, cp session.Checkpointer, id string, atSeq int64, opts ForkOptions) ([]session.Event, error) {
	events, err := readSession(ctx, cp, id)
	if err != nil {
		return nil, err
	}
	if opts.Check != nil {
		if err := opts.Check(events); err != nil {
			return nil, err
		}
	}
	if atSeq == AtHead {
		atSeq = int64(len(events))
	}
	if err := checkSeq(id, events, atSeq); err != nil {
		return nil, err
	}
	if atSeq == 0 {
		return nil, &SequenceError{SessionID: id, Head: int64(len(events)), Empty: true}
	}
	copies := make([]session.Event, 0, atSeq)
	for _, se := range events[:atSeq] {
		ev := se.Event
		if se.Raw != nil {
			ev = session.RawEvent{Type: ev.EventType(), JSON: se.Raw}
		}
		copies = append(copies, ev)
	}
	return copies, nil
}
