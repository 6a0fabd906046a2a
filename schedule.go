package liteagent

import (
	"context"
	"errors"
	"sync"
)

// errSessionDeleted stops an autonomous turn on a session deleted since
// its work started.
var errSessionDeleted = errors.New("liteagent: the session was deleted")

// schedule is the scheduling state of an agent family: the turns running
// on each session and the prompts among them, the subagent sessions and
// who dispatched them, the sessions deleted while their work went on, and
// the background work DeleteSession cancelled, whose completions start no
// turn. Its methods are safe for concurrent use; none waits while it holds
// the lock.
type schedule struct {
	mu      sync.Mutex
	closed  bool                                     // no turn starts any more
	turnSeq uint64                                   // numbers the turns
	running map[string]map[uint64]context.CancelFunc // the turns of each session, by number
	// prompts counts the prompts (Run) in progress on each session, until
	// their done event was yielded; promptsOver[id] is closed when the
	// count drops to zero. Autonomous turns wait for it, so that a
	// session's prompts and the deliveries after them never overlap.
	prompts     map[string]int
	promptsOver map[string]chan struct{}
	deleted     map[string]bool   // sessions deleted since their last prompt: no autonomous turn revives them
	parentOf    map[string]string // the session that dispatched each child session
	listOf      map[string]string // task list of child sessions (their parent's)
	childRuns   map[string]int    // the runs in progress of each child session (runChild)
	// auditing counts, per session, the permission decisions whose record
	// between turns is still to be written (see Agent.audit): the
	// session's deleted mark must stay until they asked it.
	auditing map[string]int
	// autonomous holds the result of each session's latest autonomous
	// turn; only Query, which reads it, makes it (nil otherwise).
	autonomous map[string]*Result
	// dropCancelled counts, per session, the groups DeleteSession
	// cancelled whose (cancelled) results are still to come and to drop.
	dropCancelled map[string]int
	// dropBash holds the background commands DeleteSession killed, whose
	// completions start no turn.
	dropBash map[string]bool
	// calls holds the session of each running tool call, by the mark of
	// its context.
	calls map[*work]string
	// ops holds the sessions a session operation (a restore, a
	// compaction) is changing: no turn starts on them meanwhile (see
	// beginOp).
	ops map[string]*sessionOp
	// delivering counts, per session, the background completions whose
	// delivery began and is not over (see beginDelivery): the session has
	// work under way, though no command runs and no turn has started.
	delivering map[string]int
}

// newSchedule returns an empty, open schedule.
func newSchedule() *schedule {
	return &schedule{
		running:       map[string]map[uint64]context.CancelFunc{},
		prompts:       map[string]int{},
		promptsOver:   map[string]chan struct{}{},
		deleted:       map[string]bool{},
		parentOf:      map[string]string{},
		listOf:        map[string]string{},
		childRuns:     map[string]int{},
		auditing:      map[string]int{},
		dropCancelled: map[string]int{},
		dropBash:      map[string]bool{},
		calls:         map[*work]string{},
		delivering:    map[string]int{},
	}
}

// beginDelivery counts a delivery to session id under way until the
// function it returns is called.
func (s *schedule) beginDelivery(id string) (end func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.countLocked(s.delivering, id)
}

// close refuses every later turn and reports whether this call closed the
// schedule.
func (s *schedule) close() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.closed = true
	return true
}

// isClosed reports whether close was called.
func (s *schedule) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// startTurn registers a turn on session id and returns its context, which
// ends with ctx, when life ends, or when the session is deleted, and the
// function that ends the registration. A prompt (background false) makes
// a deleted session live again and counts until promptOver; an autonomous
// turn (background true) on a deleted session is refused.
func (s *schedule) startTurn(ctx, life context.Context, id string, background bool) (context.Context, func(), error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return nil, nil, ErrClosed
	case background && s.deleted[id]:
		return nil, nil, errSessionDeleted
	case s.ops[id] != nil:
		return nil, nil, s.ops[id].busy(id)
	}
	delete(s.deleted, id)
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(life, cancel)
	s.turnSeq++
	n := s.turnSeq
	if s.running[id] == nil {
		s.running[id] = map[uint64]context.CancelFunc{}
	}
	s.running[id][n] = cancel
	if !background {
		s.prompts[id]++
	}
	return ctx, func() {
		stop()
		cancel()
		s.mu.Lock()
		delete(s.running[id], n)
		if len(s.running[id]) == 0 {
			delete(s.running, id)
		}
		s.mu.Unlock()
	}, nil
}

// promptOver returns the function that ends the count of a prompt on
// session id that startTurn began; calls after the first do nothing.
func (s *schedule) promptOver(id string) func() {
	return sync.OnceFunc(func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.prompts[id]--; s.prompts[id] == 0 {
			delete(s.prompts, id)
			if ch := s.promptsOver[id]; ch != nil {
				close(ch)
				delete(s.promptsOver, id)
			}
		}
	})
}

// awaitPrompts waits until no prompt is in progress on session id, or ctx
// is done.
func (s *schedule) awaitPrompts(ctx context.Context, id string) error {
	for {
		s.mu.Lock()
		if s.prompts[id] == 0 {
			s.mu.Unlock()
			return nil
		}
		ch := s.promptsOver[id]
		if ch == nil {
			ch = make(chan struct{})
			s.promptsOver[id] = ch
		}
		s.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// cancelSession marks session id deleted, so that no autonomous turn
// starts on it until its next prompt, forgets its autonomous result and
// cancels its running turns.
func (s *schedule) cancelSession(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deleted[id] = true
	delete(s.autonomous, id)
	for _, cancel := range s.running[id] {
		cancel()
	}
}

// isDeleted reports whether session id was deleted since its last prompt.
func (s *schedule) isDeleted(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.deleted[id]
}

// busy reports whether session id is a subagent's or has turns running:
// work that closing the agent waits for.
func (s *schedule) busy(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, child := s.parentOf[id]
	return child || len(s.running[id]) > 0
}

// addChild records child as a subagent session that parent dispatched and
// that uses the task list list, with a run of it in progress until the
// returned function is called. The entry stays after the run, until a
// sweep finds nothing of the child under way (see dropChild).
func (s *schedule) addChild(child, parent, list string) (end func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.listOf[child] = list
	s.parentOf[child] = parent
	return s.countLocked(s.childRuns, child)
}

// parent returns the session that dispatched session id, if it is a
// subagent's.
func (s *schedule) parent(id string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.parentOf[id]
	return p, ok
}

// taskList returns the task list of session id, if it is a subagent's.
func (s *schedule) taskList(id string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.listOf[id]
	return l, ok
}

// family returns session id and the child sessions it dispatched.
func (s *schedule) family(id string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []string{id}
	for child, parent := range s.parentOf {
		if parent == id {
			out = append(out, child)
		}
	}
	return out
}

// dropCommands marks the background commands ids, about to be killed, so
// that their completions start no turn.
func (s *schedule) dropCommands(ids []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		s.dropBash[id] = true
	}
}

// commandDropped reports whether the completion of background command id
// is to be dropped, and forgets the command.
func (s *schedule) commandDropped(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	dropped := s.dropBash[id]
	delete(s.dropBash, id)
	return dropped
}

// dropGroups counts n groups of session id, about to be cancelled, whose
// cancelled results are to be dropped.
func (s *schedule) dropGroups(id string, n int) {
	if n <= 0 {
		return // an entry of 0 would never go
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropCancelled[id] += n
}

// groupDropped reports whether a cancelled group's result for session id
// is one of those dropGroups counted, and uncounts it.
func (s *schedule) groupDropped(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dropCancelled[id] == 0 {
		return false
	}
	if s.dropCancelled[id]--; s.dropCancelled[id] == 0 {
		delete(s.dropCancelled, id)
	}
	return true
}

// keepAutonomous makes the schedule keep the result of each session's
// latest autonomous turn.
func (s *schedule) keepAutonomous() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.autonomous = map[string]*Result{}
}

// setAutonomous records res as the result of session id's latest
// autonomous turn, if keepAutonomous was called.
func (s *schedule) setAutonomous(id string, res *Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.autonomous != nil {
		s.autonomous[id] = res
	}
}

// autonomousResult returns the result setAutonomous recorded for session
// id, or nil.
func (s *schedule) autonomousResult(id string) *Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.autonomous[id]
}

// startCall records w as the mark of a running tool call of a turn on
// session, until the returned function is called.
func (s *schedule) startCall(w *work, session string) (end func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls[w] = session
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.calls, w)
	}
}

// callSession returns the session of the running tool call whose mark is
// w, if it runs.
func (s *schedule) callSession(w *work) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.calls[w]
	return id, ok
}

// beginAudit counts a permission decision of session id whose record is
// still to be written, until the returned function is called.
func (s *schedule) beginAudit(id string) (end func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.countLocked(s.auditing, id)
}

// countLocked counts one more of id in m until the returned function is
// called, which drops id's entry at zero. The caller holds s.mu.
func (s *schedule) countLocked(m map[string]int, id string) (end func()) {
	m[id]++
	return sync.OnceFunc(func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if m[id]--; m[id] == 0 {
			delete(m, id)
		}
	})
}

// leftEntries returns the sessions marked deleted and the child sessions
// the schedule keeps entries of, for a sweep (see Agent.sweepLeft).
func (s *schedule) leftEntries() (deleted, children []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id := range s.deleted {
		deleted = append(deleted, id)
	}
	for id := range s.parentOf {
		children = append(children, id)
	}
	return deleted, children
}

// dropDeleted forgets that session id was deleted, unless something that
// mark guards may still come: a turn, a prompt, a session operation, a
// delivery or an audit of the session under way, or a cancelled group's
// result still to drop. The caller has checked the work the schedule
// does not see (groups, background commands).
func (s *schedule) dropDeleted(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.idleLocked(id) && s.dropCancelled[id] == 0 {
		delete(s.deleted, id)
	}
}

// dropChild forgets child session id (its parent, its task list), unless
// a run of it is in progress or a tool call of it runs. The caller has
// checked that none of its background commands is still to report.
func (s *schedule) dropChild(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.childRuns[id] > 0 || len(s.running[id]) > 0 {
		return
	}
	for _, sess := range s.calls {
		if sess == id {
			return
		}
	}
	delete(s.parentOf, id)
	delete(s.listOf, id)
}
