package liteagent

// SetForkPaused makes a's Fork call f with the new session's id between
// the copy of the session's data and the write of the new log.
func SetForkPaused(a *Agent, f func(newID string)) { a.forkPaused = f }
