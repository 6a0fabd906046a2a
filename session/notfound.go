package session

import "errors"

// ErrNotFound is matched (with [errors.Is]) by every *[NotFoundError].
var ErrNotFound = errors.New("no such session")

// A NotFoundError reports an operation on a session that has nothing
// stored: no log, and none of the files that belong to a session. Nothing
// was changed. Checkpointer.Read and Head treat an unknown session as empty
// and Delete as done; operations that must not, such as deleting a
// session with everything that belongs to it, return this error.
type NotFoundError struct {
	// SessionID is the session that has nothing stored.
	SessionID string
}

// Error returns "no session <id>".
func (e *NotFoundError) Error() string { return "no session " + e.SessionID }

// Is reports whether target is [ErrNotFound].
func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }
