package engine

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/lite-agent/lite-agent-go/session"
)

// How long a turn keeps its session's lock; see turnLock.
const (
	// defaultLockIdle is how long the lock stays after the turn's last
	// operation on the log, so that the next one, moments later, finds it
	// held.
	defaultLockIdle = 100 * time.Millisecond
	// defaultLockMax bounds a stretch of holding: a turn that keeps
	// working on its log lets go this long after taking the lock, at its
	// next pause. The TypeScript SDK waits about 2.6 s for a lock.
	defaultLockMax = time.Second
)

// turnLock keeps the session's lock (a [session.Holder]'s Hold) across the
// operations of one turn on its log, so that the load, the appends of the
// prompt and the answer, the tool results and the records tools make in
// between take the lock once instead of once each; taking a file lock
// (creating and removing its directory) costs more than the rest of a
// small append.
//
// The lock is taken by the first operation and kept while the turn works on
// the log, but never while it waits on something slow for long: once no
// operation has run for idle (a model still thinking, a tool or hook still
// running, a consumer still busy with an event), or at the first pause
// after max of holding, it is released, and the next operation takes it
// again. Other processes, and other instances of the checkpointer, thus
// wait at most about that long for a turn, where they would wait for the
// whole model call if the turn held the lock throughout; anything the turn
// runs (a hook reading the session in a child process, say) gets the lock
// the same way. Operations of this process through the same checkpointer
// share the hold and never wait for it.
//
// The lock's rules are the store's: refreshed while held, taken over by
// others once stale (a killed process's lock), and every write checked
// against it first, so that an operation under a lock found compromised
// fails with the store's error. A nil *turnLock, for a Checkpointer that
// is no Holder, does nothing.
//
// While the lock was let go, another process may have deleted the session
// and started another under its id: the operation that takes it again
// first checks, with again, that the session is still the one the turn
// loaded (see identity.go), and fails with again's error otherwise.
type turnLock struct {
	h         session.Holder
	id        string
	idle, max time.Duration
	log       *slog.Logger
	again     func(context.Context) error // the check of a lock taken again

	mu      sync.Mutex
	release func() error // the hold; nil while not held
	since   time.Time    // when the hold was taken
	busy    int          // operations between enter and leave
	gen     uint64       // bumped by every enter, arm and end: a timer armed before does nothing
	timer   *time.Timer  // the pending idle release, if any
	ended   bool         // the turn is over: operations lock for themselves
	taken   bool         // the lock was held before in this turn
}

// newTurnLock returns the lock of run r, or nil when the checkpointer
// cannot hold sessions.
func (e *Engine) newTurnLock(r *run) *turnLock {
	h, ok := e.opts.Checkpointer.(session.Holder)
	if !ok {
		return nil
	}
	return &turnLock{h: h, id: r.id, idle: e.lockIdle, max: e.lockMax, log: e.log, again: r.stillSame}
}

// enter starts an operation on the log: it takes the lock unless the turn
// holds it. Its error is the store's for taking the lock (ctx done, the
// lock held too long by another process); the operation would have failed
// with it.
func (l *turnLock) enter(ctx context.Context) error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.gen++ // disarms the idle release
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
	if l.release == nil && !l.ended {
		// Other operations of the turn wait for this one here, as they
		// would wait for the lock in the store.
		rel, err := l.h.Hold(ctx, l.id)
		if err != nil {
			return err
		}
		if l.taken && l.again != nil {
			if err := l.again(ctx); err != nil {
				l.drop(rel)
				return err
			}
		}
		l.release, l.since, l.taken = rel, time.Now(), true
	}
	l.busy++
	return nil
}

// leave ends an operation that enter started: the last one in progress
// arms the idle release, or releases at once after max of holding.
func (l *turnLock) leave() {
	if l == nil {
		return
	}
	l.mu.Lock()
	l.busy--
	if l.busy > 0 || l.release == nil {
		l.mu.Unlock()
		return
	}
	if time.Since(l.since) >= l.max {
		rel := l.release
		l.release = nil
		l.mu.Unlock()
		l.drop(rel)
		return
	}
	l.gen++
	gen := l.gen
	l.timer = time.AfterFunc(l.idle, func() { l.expire(gen) })
	l.mu.Unlock()
}

// expire releases the lock if nothing happened since the timer of
// generation gen was armed.
func (l *turnLock) expire(gen uint64) {
	l.mu.Lock()
	if gen != l.gen || l.release == nil {
		l.mu.Unlock()
		return
	}
	rel := l.release
	l.release, l.timer = nil, nil
	l.mu.Unlock()
	l.drop(rel)
}

// end releases the lock at the end of the turn. Operations after it (a
// detached tool's record) take the lock themselves.
func (l *turnLock) end() {
	if l == nil {
		return
	}
	l.mu.Lock()
	l.ended = true
	l.gen++
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
	rel := l.release
	l.release = nil
	l.mu.Unlock()
	if rel != nil {
		l.drop(rel)
	}
}

// drop releases a hold. A lock found compromised at release is logged, not
// returned: every write was checked against the lock while it was ours, so
// nothing was written under a lock that was not.
func (l *turnLock) drop(release func() error) {
	if err := release(); err != nil {
		l.log.Warn("session lock lost while held", "session", l.id, "err", err)
	}
}

// loadHeld is load under the turn's lock.
func (r *run) loadHeld(ctx context.Context) error {
	if err := r.lock.enter(ctx); err != nil {
		return fmt.Errorf("read session %s: %w", r.id, err)
	}
	defer r.lock.leave()
	return r.load(ctx)
}
