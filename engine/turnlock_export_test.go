package engine

import "time"

// SetLockTiming sets how long e's turns keep a session's lock after their
// last operation on the log (idle) and at most at a stretch (max).
func SetLockTiming(e *Engine, idle, max time.Duration) { e.lockIdle, e.lockMax = idle, max }
