//go:build linux && !migrate_portable

package migrate

import (
	"golang.org/x/sys/unix"

	"github.com/lite-agent/lite-agent-go/session"
)

// prefetchBytes is how much of the start of a session log prefetch asks
// the kernel to read; the copy's own sequential reads make the kernel read
// the rest of a longer log ahead of them.
const prefetchBytes = 1 << 20

// prefetch asks the kernel to start reading the source log of u, a unit
// about to be handed to a worker, into the page cache (posix_fadvise
// WILLNEED), so that the worker's reads find it there instead of waiting
// for the disk: a log not read for a while may have left the page cache,
// and while a worker waits for its disk, with every other worker waiting
// too, a processor has nothing to do. It reads nothing itself and takes no
// lock, as nothing it does is used: the worker opens, locks and reads the
// log as before. It opens the log by its name in the source directory's
// handle only if a stat of that name (not following a symlink) finds a
// regular file, so that it does not open a FIFO or device put there since
// the plan (opening a FIFO would let a waiting writer through, and closing
// it break the writer's pipe), and then never following a symlink, without
// blocking and without taking a terminal. Failures are ignored: the worker
// meets them when it opens the log (and refuses what is not a regular
// file).
func (m *migration) prefetch(u *unit) {
	if u.kind != unitSession {
		return
	}
	src, _, err := u.files.handles(m)
	if err != nil {
		return
	}
	name := u.id + session.LogSuffix
	if !src.isRegular(name) {
		return
	}
	f, err := openat(src, name, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY, 0)
	if err != nil {
		return
	}
	_ = unix.Fadvise(f.fd, 0, prefetchBytes, unix.FADV_WILLNEED)
	_ = f.Close()
}
