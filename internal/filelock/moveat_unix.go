//go:build unix

package filelock

// MoveAt is Move for a holder that keeps the directory of the lock (and of
// target, which must be the same) open as dirfd: the lock directory is
// looked at, renamed and looked at again by its name relative to dirfd,
// with no path resolved component by component, and the directory being
// moved away or replaced (by a symlink, say) meanwhile does not change
// where the lock goes. dirfd must stay open for the call.
//
// The lock then lies where dirfd is, which the holder reads target from;
// refreshing, Check and Release go on as after Move: by path for a lock
// taken with Acquire (should the directory no longer be at its path, they
// find the lock gone: it is compromised, as if taken over, and the
// directory left where dirfd is keeps it until it is stale), and through
// the lock's own descriptor of its directory for one taken with AcquireAt. Where no-replace renames are not available,
// MoveAt returns an error matching errors.ErrUnsupported, as Move does.
func (l *Lock) MoveAt(dirfd int, target string) error {
	return l.move(target, &dirEntries{fd: dirfd})
}
