//go:build linux && !migrate_portable

package migrate

import (
	"io"

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
	if m.opts.prefetched != nil {
		m.opts.prefetched(u.id)
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

// readLog returns the reader of the source log f for its copy. Until the
// migration has found a log out of the page cache (m.cold), the first read
// of each log takes only what the page cache holds (preadv2 with
// RWF_NOWAIT, which never waits for the disk): a log read whole from the
// cache needed no prefetch, and logs just written or read, as a home in use
// or a copy of one holds them, are all there, so that prefetching them
// (four system calls a log, on a worker's processor) is spared. A first
// read that finds nothing there (EAGAIN), or that cannot tell (a kernel
// or file system without RWF_NOWAIT for such reads), sets m.cold, and the
// log is read as usual; from then on every
// log is prefetched (see copyAll) and read as usual. A read that finds
// part of the log there returns that part, as a read may; one that returns
// nothing is read again as usual, which alone may tell the end of the log.
//
// The kernel also refuses such a read for a while when the log is cached
// whole: on a fresh ext4 holding a source just copied and synced, 2 of
// 1,000 logs were refused with every page in the cache (cachestat(2)),
// refused again at once, and read without waiting 5 ms later; such a run
// prefetches the rest of its logs for nothing. Neither a second try nor
// cachestat tells that apart from a log out of the cache, whose refused
// read has already started reading it in (its pages are then counted as
// cached too), so the first refusal still decides.
func (m *migration) readLog(f *fdFile) io.Reader {
	if m.cold.Load() {
		return f
	}
	return &cacheProbe{m: m, f: f}
}

// cacheProbe is a log reader whose first read looks at the page cache only
// (see readLog).
type cacheProbe struct {
	m      *migration
	f      *fdFile
	probed bool
}

func (r *cacheProbe) Read(p []byte) (int, error) {
	if r.probed || len(p) == 0 {
		return r.f.Read(p)
	}
	r.probed = true
	var n int
	var err error
	if r.m.opts.nowaitRead != nil {
		n, err = r.m.opts.nowaitRead(r.f.fd, p)
	} else {
		n, err = unix.Preadv2(r.f.fd, [][]byte{p}, -1, unix.RWF_NOWAIT) // -1: at the file's offset, advancing it
	}
	switch {
	case err == nil && n > 0:
		return n, nil
	case err == nil:
		// Nothing, without an error: the end of an empty log, or an
		// answer that does not say what the cache holds. Only a plain read
		// may tell the end of the log (one more system call for an empty
		// log), or a non-empty log would be copied as empty, and verified
		// against that empty read.
		return r.f.Read(p)
	}
	r.m.cold.Store()
	return r.f.Read(p)
}
