package session

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/lite-agent/lite-agent-go/storage"
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
//
// A session is told from another started under its id after a delete by
// its first record (see [FirstReader]); the engine checks it whenever a
// turn takes the session's lock again after waiting on the model or a
// tool. A Checkpointer that is neither a [Holder] nor leased for the turn
// (store/postgres's LeaseSession, which an agent takes, and whose Leased
// tells the engine it is held; the engine on its own takes none) has no
// lock to take again: the engine then reads the first record again before each
// append of a turn but the first after its load, one [FirstReader].First
// per append (a whole Read without it), so that a session deleted and
// started again by another process during a model call does not take the
// turn's later records. A replacement between that read and the append
// is not seen: a store shared by processes should be a Holder, or lease,
// and a FirstReader.
type Checkpointer interface {
	// Append adds events to the log of session id as one batch, numbered
	// from the current head plus one, and returns the new head. With
	// expectedHead >= 0 it fails with a *ConflictError, appending nothing,
	// unless the head equals expectedHead; use AnyHead to append
	// unconditionally. An empty batch appends nothing and returns the head.
	// A batch is appended whole or not at all: an Append that returns an
	// error leaves the head as it was.
	Append(ctx context.Context, id string, events []Event, expectedHead int64) (int64, error)

	// Read returns the records of session id with Seq > sinceSeq, in
	// order. An unknown session reads as empty. What an interrupted Append
	// may have left behind (for a file log, a torn tail) is not a record
	// and not an error: Read returns every complete record.
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

// A Holder is a [Checkpointer] whose sessions can stay locked between
// operations, so that a burst of them (the appends and reads of one turn)
// takes the lock once instead of once per operation. Hold takes the lock of
// session id and keeps it until release is called; meanwhile the holder's
// own operations on the session, from any goroutine, use the held lock,
// while other processes wait as they wait for any operation. Holds nest:
// the lock goes with the last release. release is idempotent and reports a
// lock found compromised (taken over by someone else) while held.
//
// [FileCheckpointer] implements it. A store whose operations take no
// per-call lock has nothing to hold and need not implement it: callers use
// it only when the Checkpointer has it.
type Holder interface {
	// Hold takes the lock of session id until release is called.
	Hold(ctx context.Context, id string) (release func() error, err error)
}

// Info describes one stored session.
type Info struct {
	// ID is the session id.
	ID string
	// ModTime is when the session's log last changed.
	ModTime time.Time
}

// ErrLeased is matched by the error a store that leases sessions to one
// writer at a time returns when another holder leases the session asked
// for (store/postgres: every *postgres.BusyError), so that a caller can
// tell "another writer has it" from other failures to take a lease (a
// database that cannot be reached, a cancelled context). An agent's
// Send, Restore, CompactSession and DeleteSession return it for a session
// another agent or process leases; a session busy with the same agent's
// own work is liteagent.ErrSessionBusy instead, and no error matches both
// (a caller to whom both mean "try later" asks for either).
var ErrLeased = errors.New("session leased by another writer")

// ErrConflict is matched by every *[ConflictError], for callers that only
// need to know that a head check failed: errors.Is(err, ErrConflict).
var ErrConflict = errors.New("checkpoint conflict")

// A ConflictError reports that the head of a session's log was not the head
// the caller expected, so that nothing was changed. Reload and retry.
type ConflictError struct {
	// SessionID is the session whose head differed.
	SessionID string
	// Expected is the head the caller passed, Head the one found.
	Expected, Head int64
}

// Error names the session and both heads.
func (e *ConflictError) Error() string {
	return fmt.Sprintf("checkpoint conflict on '%s': expected head %d, found %d", e.SessionID, e.Expected, e.Head)
}

// Is reports whether target is [ErrConflict].
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// A RangeError reports a Truncate to a sequence number outside 0..head.
// Nothing was changed.
type RangeError struct {
	// SessionID is the session that was to be truncated.
	SessionID string
	// ToSeq is the requested sequence number, Head the log's head.
	ToSeq, Head int64
}

// Error names the session, the sequence number and the head.
func (e *RangeError) Error() string {
	return fmt.Sprintf("Invalid checkpoint sequence %d for '%s': head is %d", e.ToSeq, e.SessionID, e.Head)
}

// ErrTornTail is matched by every *[TornTailError]:
// errors.Is(err, ErrTornTail).
var ErrTornTail = errors.New("torn tail")

// A TornTailError reports that a session log ends with bytes after its last
// newline: the remains of an append that was interrupted (the process
// killed, the disk full) and therefore never acknowledged. It is not a
// failure of the log: readers return every complete record before it, and
// the next Append, under the session's lock, moves the bytes into
// <id>.jsonl.torn-<unix ms> beside the log before appending, so they are
// never lost silently. [FileCheckpointer.Scan] yields it after the last
// record, [FileCheckpointer.Verify] reports it as a [storage.ProblemTorn], and
// [Summary.Torn] flags it.
type TornTailError struct {
	// SessionID is the session whose log has the torn tail.
	SessionID string
	// File is the log's path.
	File string
	// Offset is where the torn bytes start, just after the last complete
	// record; Bytes is how many there are.
	Offset, Bytes int64
	// Head is the number of complete records before the torn tail.
	Head int64
}

// Error names the session, the torn bytes and the record before them.
func (e *TornTailError) Error() string {
	return fmt.Sprintf("session %s: torn tail of %d bytes after record %d (an interrupted append, never acknowledged; the next append sets it aside)",
		e.SessionID, e.Bytes, e.Head)
}

// Is reports whether target is [ErrTornTail].
func (e *TornTailError) Is(target error) bool { return target == ErrTornTail }

// A problem is one bad record found by a scan of a log, with its seq
// (Record) as a number; see storage.Problem for the fields.
type problem struct {
	Record, Offset   int64
	Kind             storage.ProblemKind
	Tail, Repairable bool
	Err              error
}

// public returns p as the storage.Problem of a record of file.
func (p problem) public(file string) storage.Problem {
	return storage.Problem{
		File: file, Record: strconv.FormatInt(p.Record, 10), Offset: p.Offset,
		Kind: p.Kind, Tail: p.Tail, Repairable: p.Repairable, Err: p.Err,
	}
}
