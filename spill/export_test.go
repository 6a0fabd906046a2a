package spill

// SetAfterTouch makes s call at in a Put that reuses a stored body, just
// after refreshing the body's modification time, so that a test can act as
// a sweep whose removal falls right after that refresh.
func SetAfterTouch(s *FileStore, at func()) { s.afterTouch = at }
