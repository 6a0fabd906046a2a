package subagent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
)

// DefaultMaxParallel is how many subagents a [Pool] runs at once when
// NewPool is given zero.
const DefaultMaxParallel = 5

// ErrClosed reports work submitted to, or still queued in, a closed [Pool].
// Its text is "subagent pool closed".
var ErrClosed = errors.New("subagent pool closed")

// A Pool runs subagents for one root agent and all of its sessions: at
// most a fixed number at once, the rest waiting in one first-in first-out
// queue, so that several Agent groups share the limit. It also owns the
// goroutines of the detached groups the Agent tool starts ([Tool]):
// [Pool.Close] cancels them and waits for them.
//
// A Pool is safe for concurrent use. Make one with [NewPool]: the zero
// Pool is not usable (its Close alone does nothing).
type Pool struct {
	max    int
	ctx    context.Context // done once Close starts
	cancel context.CancelFunc
	wg     sync.WaitGroup // groups and Do calls holding a slot

	mu      sync.Mutex
	running int                        // guarded by mu: slots in use
	queue   []*waiter                  // guarded by mu: FIFO of Do calls waiting for a slot
	closed  bool                       // guarded by mu
	groups  map[string]map[*group]bool // guarded by mu: running groups by parent session
	changed chan struct{}              // guarded by mu: closed and replaced when a group ends
	active  map[string]bool            // guarded by mu: child session ids running
	counter uint64                     // guarded by mu: group ids handed out
}

// waiter is one Do call waiting for a slot. err is set, under the pool's
// mu, before ready is closed: nil means the slot is the waiter's.
type waiter struct {
	ready chan struct{}
	err   error
}

// group is one detached Agent group.
type group struct {
	cancel context.CancelFunc
}

// NewPool returns a pool that runs at most maxParallel subagents at once;
// zero means DefaultMaxParallel. A negative maxParallel is an error.
func NewPool(maxParallel int) (*Pool, error) {
	if maxParallel < 0 {
		return nil, fmt.Errorf("subagent: maxParallel must be a positive integer, got %d", maxParallel)
	}
	if maxParallel == 0 {
		maxParallel = DefaultMaxParallel
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Pool{
		max:     maxParallel,
		ctx:     ctx,
		cancel:  cancel,
		groups:  make(map[string]map[*group]bool),
		changed: make(chan struct{}),
		active:  make(map[string]bool),
	}, nil
}

// MaxParallel returns how many subagents the pool runs at once.
func (p *Pool) MaxParallel() int { return p.max }

// Do waits for a free slot, in first-in first-out order, then calls fn
// and frees the slot when fn returns, returning fn's error.
//
// If ctx is done while Do waits, the call leaves the queue and Do returns
// ctx.Err() without calling fn. The context fn receives is done when ctx
// is, and when the pool is closed. A closed pool returns ErrClosed, both to
// new calls and to calls still waiting when Close began.
func (p *Pool) Do(ctx context.Context, fn func(ctx context.Context) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	w, err := p.enqueue()
	if err != nil {
		return err
	}
	return p.run(ctx, w, fn)
}

// run waits for w's slot, then calls fn as Do describes.
func (p *Pool) run(ctx context.Context, w *waiter, fn func(ctx context.Context) error) error {
	if err := p.await(ctx, w); err != nil {
		return err
	}
	defer p.release()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(p.ctx, cancel)
	defer stop()
	return fn(ctx)
}

// enqueue takes a free slot, or joins the queue when there is none or
// others are waiting. A slot taken is counted in wg until release. Taking
// the places of several calls in one order and waiting for them
// concurrently serves them in that order.
func (p *Pool) enqueue() (*waiter, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, ErrClosed
	}
	w := &waiter{ready: make(chan struct{})}
	if p.running < p.max && len(p.queue) == 0 {
		p.running++
		p.wg.Add(1)
		close(w.ready)
		return w, nil
	}
	p.queue = append(p.queue, w)
	return w, nil
}

// await waits until w holds a slot (nil), was rejected by Close
// (ErrClosed), or ctx is done while it waits (ctx.Err(), and w leaves the
// queue).
func (p *Pool) await(ctx context.Context, w *waiter) error {
	select {
	case <-w.ready:
		if w.err == nil && ctx.Err() != nil {
			// Served as ctx ended: a cancelled job never starts.
			p.release()
			return ctx.Err()
		}
		return w.err
	case <-ctx.Done():
	}
	p.mu.Lock()
	if i := slices.Index(p.queue, w); i >= 0 {
		p.queue = slices.Delete(p.queue, i, i+1)
		p.mu.Unlock()
		return ctx.Err()
	}
	p.mu.Unlock()
	// The waiter was served or rejected while ctx ended.
	<-w.ready
	if w.err != nil {
		return w.err
	}
	p.release()
	return ctx.Err()
}

// release frees a slot, handing it to the first waiter if there is one.
func (p *Pool) release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.queue) > 0 {
		w := p.queue[0]
		p.queue = slices.Delete(p.queue, 0, 1)
		p.wg.Add(1) // the slot's count passes to w before this one's ends
		close(w.ready)
	} else {
		p.running--
	}
	p.wg.Done()
}

// Cancel cancels every running group dispatched from the parent session
// sessionID: their queued subagents leave the queue and their running
// subagents are aborted. The groups still complete, as cancelled (or
// partial, for children that finished first), and are delivered.
func (p *Pool) Cancel(sessionID string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for g := range p.groups[sessionID] {
		g.cancel()
	}
}

// Groups returns how many groups dispatched from sessionID have not yet
// been delivered.
func (p *Pool) Groups(sessionID string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.groups[sessionID])
}

// Wait blocks until every group dispatched from sessionID has completed
// and its completion has been delivered (Deliver has returned), or ctx is
// done, in which case it returns ctx.Err(). A group dispatched while Wait
// waits, such as one started by the turn a delivery runs, is waited for
// too.
func (p *Pool) Wait(ctx context.Context, sessionID string) error {
	for {
		p.mu.Lock()
		n, changed := len(p.groups[sessionID]), p.changed
		p.mu.Unlock()
		if n == 0 {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Close stops the pool: subagents still queued are rejected with
// ErrClosed, running ones are aborted (their contexts are cancelled), and
// Close waits for every Do call and group goroutine to return. Groups that
// complete once Close has begun are not delivered. Later calls to Do and
// the Agent tool fail with ErrClosed. Close always returns nil; calling it
// again waits again. It must not be called from a Run, Deliver or Emit
// function of the pool's tools. On a nil or zero Pool (one not made by
// NewPool) it does nothing.
func (p *Pool) Close() error {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		for _, w := range p.queue {
			w.err = ErrClosed
			close(w.ready)
		}
		p.queue = nil
	}
	p.mu.Unlock()
	if p.cancel != nil {
		p.cancel()
	}
	p.wg.Wait()
	return nil
}

// isClosed reports whether Close has begun.
func (p *Pool) isClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

// startGroup starts run on a goroutine the pool owns, with a context that
// keeps callCtx's values but not its cancellation, and that is cancelled
// by Cancel(sessionID) and Close. run receives the group's id,
// bg_g<counter in base 36>_<6 hex digits>.
func (p *Pool) startGroup(callCtx context.Context, sessionID string, run func(ctx context.Context, id string)) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return "", ErrClosed
	}
	p.counter++
	id := "bg_g" + strconv.FormatUint(p.counter, 36) + "_" + randomHex(3)
	ctx, cancel := context.WithCancel(context.WithoutCancel(callCtx))
	stop := context.AfterFunc(p.ctx, cancel)
	g := &group{cancel: cancel}
	if p.groups[sessionID] == nil {
		p.groups[sessionID] = make(map[*group]bool)
	}
	p.groups[sessionID][g] = true
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		defer p.endGroup(sessionID, g)
		defer stop()
		defer cancel()
		run(ctx, id)
	}()
	return id, nil
}

// endGroup forgets g and wakes Wait.
func (p *Pool) endGroup(sessionID string, g *group) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.groups[sessionID], g)
	if len(p.groups[sessionID]) == 0 {
		delete(p.groups, sessionID)
	}
	close(p.changed)
	p.changed = make(chan struct{})
}

// claimID marks the child session id as running; false if it already is.
func (p *Pool) claimID(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.active[id] {
		return false
	}
	p.active[id] = true
	return true
}

// releaseID marks the child session id as no longer running.
func (p *Pool) releaseID(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.active, id)
}

// randomHex returns n random bytes in hex.
func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
