package sandbox

import "time"

// MemoSlack is memoSlack, for the tests of the remembered walk.
const MemoSlack = memoSlack

// WalkStats returns how many directories the last AfterRun of b read and
// how many it took from what the run before remembered.
func WalkStats(b *Bubblewrap) (read, remembered int) {
	b.check.mu.Lock()
	defer b.check.mu.Unlock()
	return b.check.lastRead, b.check.lastRemembered
}

// RememberedAt reports whether a directory stamped with ctime, read at
// start, would be remembered (memoOf).
func RememberedAt(ctime, start time.Time) bool {
	return memoOf(dirStamp{ctime: ctime.UnixNano()}, true, start) != nil
}

// ForgetWalk drops what b's check remembers of the workdir, as if no
// check had run yet.
func ForgetWalk(b *Bubblewrap) {
	b.check.mu.Lock()
	defer b.check.mu.Unlock()
	b.check.memo = nil
}
