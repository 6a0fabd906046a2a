package session

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// AnyHead is the expectedHead that accepts any head: Append and Truncate
// then check nothing. Every negative value means the same.
const AnyHead int64 = -1

// A Checkpointer stores session logs: per session, an append-only sequence
// of events numbered 1, 2, 3, … with no gaps. Implementations must be safe
// for concurrent use; the built-in ones are also safe across processes.
//
// [FileCheckpointer] and [MemoryCheckpointer] implement it, and the suite
// in session/sessiontest checks any implementation.
type Checkpointer interface {
	// Append adds events to the log of session id as one batch, numbered
	// from the current head plus one, and returns the new head. With
	// expectedHead >= 0 it fails with a *ConflictError, appending nothing,
	// unless the head equals expectedHead; use AnyHead to append
	// unconditionally. An empty batch appends nothing and returns the head.
	// A batch is appended whole or not at all.
	Append(ctx context.Context, id string, events []Event, expectedHead int64) (int64, error)

	// Read returns the records of session id with Seq > sinceSeq, in
	// order. An unknown session reads as empty.
	Read(ctx context.Context, id string, sinceSeq int64) ([]StoredEvent, error)

	// Head returns the Seq of the last record of session id, or 0 when the
	// session is empty or unknown.
	Head(ctx context.Context, id string) (int64, error)

	// List returns the stored sessions, most recently modified first.
	List(ctx context.Context) ([]Info, error)

	// Delete removes the log of session id. Deleting an unknown session
	// is not an error.
	Delete(ctx context.Context, id string) error

	// Truncate drops the records of session id after toSeq, so that toSeq
	// becomes the head. It fails with a *ConflictError unless expectedHead
	// is negative or equals the head, and with a *RangeError unless
	// 0 <= toSeq <= head. Truncating an unknown session to 0 creates
	// nothing.
	Truncate(ctx context.Context, id string, toSeq, expectedHead int64) error
}

// Info describes one stored session.
type Info struct {
	// ID is the session id.
	ID string
	// ModTime is when the session's log last changed.
	ModTime time.Time
}

// ErrConflict is matched by every *[ConflictError], for callers that only
// need to know that a head check failed: errors.Is(err, ErrConflict).
var ErrConflict = errors.New("checkpoint conflict")

// A ConflictError reports that the head of a session's log was not the head
// the caller expected, so that nothing was changed. Reload and retry.
type ConflictError struct {
	SessionID string
	// Expected is the head the caller passed, Head the one found.
	Expected, Head int64
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("checkpoint conflict on '%s': expected head %d, found %d", e.SessionID, e.Expected, e.Head)
}

// Is reports whether target is [ErrConflict].
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// A RangeError reports a Truncate to a sequence number outside 0..head.
// Nothing was changed.
type RangeError struct {
	SessionID string
	// ToSeq is the requested sequence number, Head the log's head.
	ToSeq, Head int64
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("Invalid checkpoint sequence %d for '%s': head is %d", e.ToSeq, e.SessionID, e.Head)
}

// ProblemKind classifies what is wrong with one record of a log.
type ProblemKind string

// The kinds of problem [FileCheckpointer.Verify] reports.
const (
	// ProblemDecode: the configured encoding refused the record (wrong or
	// missing codec, a different codec id, a wrong key, a damaged
	// envelope, or an envelope where plaintext was expected).
	ProblemDecode ProblemKind = "decode"
	// ProblemSyntax: the record is not valid JSON, as a torn write leaves it.
	ProblemSyntax ProblemKind = "syntax"
	// ProblemTooLong: the line exceeds the line length limit.
	ProblemTooLong ProblemKind = "too-long"
	// ProblemFrame: valid JSON that is not the record expected at this
	// position: wrong seq, sessionId or parentSeq, bad ts, or an event
	// without a string type.
	ProblemFrame ProblemKind = "frame"
	// ProblemEvent: the event's members do not have the types its type
	// defines.
	ProblemEvent ProblemKind = "event"
)

// A Problem is one bad record found by [FileCheckpointer.Verify].
type Problem struct {
	// Record is the record's 1-based position among the non-blank lines,
	// which is also the seq it should have.
	Record int64
	// Offset is the byte offset of the record's line in the file.
	Offset int64
	// Kind classifies the problem.
	Kind ProblemKind
	// Tail reports that the record is the last non-blank line.
	Tail bool
	// Repairable reports that [FileOptions.RepairTail] would drop this
	// record: it is a torn last line of a plaintext log with no other
	// problem.
	Repairable bool
	// Err is a *storage.Error naming the file and record; it never holds
	// payload bytes.
	Err error
}
