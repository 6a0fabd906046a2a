package session

import "errors"

// ErrReplaced is matched (with [errors.Is]) by every *[ReplacedError].
var ErrReplaced = errors.New("session replaced")

// A ReplacedError reports an operation on a session that the caller knew
// (it resumed it, or ran turns on it) whose id now holds another session:
// the one it knew was deleted, by another process say, and the id started
// again by another writer, whose first record differs. Nothing was
// changed: the other writer's session is theirs. Resuming the id anew
// takes the session it holds now.
type ReplacedError struct {
	// SessionID is the id the session was known under.
	SessionID string
}

// Error says which session was replaced.
func (e *ReplacedError) Error() string {
	return "session " + e.SessionID + " was deleted and started again by another writer; nothing was written to the new one (resume it to continue it)"
}

// Is reports whether target is [ErrReplaced].
func (e *ReplacedError) Is(target error) bool { return target == ErrReplaced }
