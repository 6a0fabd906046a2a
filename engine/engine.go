package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"strings"
	"sync"
	"time"
	"weak"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/tool"
)

// Defaults of [Options].
const (
	DefaultMaxTurns         = 50
	DefaultMaxParallelTools = 10
)

// persistTimeout bounds the appends made after a turn was cancelled, which
// run without the cancelled context so that the log stays resumable.
const persistTimeout = 30 * time.Second

// Options configures an [Engine]. Provider and Checkpointer are required.
type Options struct {
	// Provider streams model responses.
	Provider model.Provider
	// Model is the model id sent with every request.
	Model string
	// System is the system prompt.
	System string
	// Tools are the tools the model may call. When two tools share a name,
	// both specs are sent and the later one runs.
	Tools []tool.Tool
	// ExtraTools, when set, is called at the start of every prompt, with
	// the prompt's session, for more
	// tools, such as those of MCP servers whose catalog may change; they
	// are offered after Tools. An error ends the prompt.
	ExtraTools func(ctx context.Context, sessionID string) ([]tool.Tool, error)
	// Checkpointer stores the session logs.
	Checkpointer session.Checkpointer
	// EmptiedKept reports whether session id, whose log has no records
	// though the engine loaded some before, is still stored: its log was
	// emptied (by a restore to before its first prompt, in another
	// process say), not deleted. Nil, or false, takes such a session for
	// deleted: its next turn fails with a *session.NotFoundError and
	// writes nothing, where it would otherwise start the deleted session
	// over under its id; so do the turns after it, as after
	// [Engine.ExpectStored], until a caller marks the session otherwise.
	EmptiedKept func(id string) bool
	// IdentifiedOnly makes the engine take a session with records only
	// when told which one it is (see identity.go): one it ran a turn on,
	// [Engine.Identify] or [Engine.Unidentify]. A turn, a record between
	// turns or a compaction that loads records under an id the engine
	// knows nothing of (never told, or dropped by [Engine.DropIdentities])
	// fails with a *UnidentifiedError and writes nothing. False takes
	// such a session as it is stored.
	IdentifiedOnly bool
	// MaxTurns bounds the model calls of one prompt; zero means 50.
	MaxTurns int
	// MaxParallelTools bounds the tool calls run at once; zero means 10,
	// one runs them in order.
	MaxParallelTools int
	// MaxTokens, Temperature and TopP are forwarded to every request; zero
	// and nil mean the provider's defaults. MaxTokens, or the provider's
	// default, is lowered to leave the request's input room in the
	// model's context window (see "The answer's room" in the package
	// documentation).
	MaxTokens   int
	Temperature *float64
	TopP        *float64
	// Reminder, when set, returns text appended to each request as a last
	// user message (such as the current task list). It is never persisted.
	// An empty string adds nothing. An error ends the run with that error
	// before the model is called: a task list that cannot be read (a wrong
	// codec, say) must not reach the model as an empty one.
	Reminder func(ctx context.Context, sessionID string) (string, error)
	// LogToolStarts appends a tool_started event before each tool call
	// runs (the TypeScript SDK's crashRecovery "safe"), so that after a crash
	// the log tells which calls may have had effects. It costs one append
	// a call; a call whose start cannot be appended does not run. Calls a
	// crash left unanswered get "interrupted" results either way.
	LogToolStarts bool
	// Context, when set, turns on the context engine, which keeps each
	// request within the model's context window and retries a request the
	// provider refuses as too long once, compacted. Nil sends the whole
	// folded log every time.
	Context *ContextOptions
	// Passes are compaction passes run on every request after the context
	// levels (or on the folded log, without the context engine), such as
	// the built-in passes of package compaction. With the context engine,
	// what they change is committed in a context view like the levels'
	// changes, so that the next request starts from it.
	Passes []compaction.Pass
	// OverflowPasses run once when the provider refuses a request as too
	// long before streaming anything, after the levels and Passes; the
	// request is then retried once. With the context engine, level 5
	// then applies only if the request is still over the window; without
	// OverflowPasses it always applies to the retry. Their changes are
	// never committed.
	OverflowPasses []compaction.Pass
	// Logger receives diagnostics (ids, sizes, durations; never payloads);
	// nil logs nothing.
	Logger *slog.Logger
}

// Engine runs turns. Create it with [New].
type Engine struct {
	opts  Options
	tools *tool.Set
	specs []model.ToolSpec
	log   *slog.Logger
	now   func() time.Time
	// lockIdle and lockMax time the session lock a turn keeps (turnLock).
	lockIdle, lockMax time.Duration

	mu       sync.Mutex               // guards sessions, marks, known and ratios
	sessions map[string]*sessionState // per-session turn lock and event cache
	marks    map[string]*sessionMark  // sessions checked new or stored (ExpectNew, ExpectStored)
	known    map[string]*knownCell    // the first record of the session known under each id (identity.go)
	// pinned holds, weakly, the cells of the pins taken of each id (Pin),
	// so that Deleting marks those of a session the engine forgot since;
	// a cell's entry, and the id with its last, goes once the cell is
	// collected (prunePins).
	pinned map[string][]weak.Pointer[knownCell]
	ratios map[string]float64 // the calibration ratios of sessions, beyond their cached state (calibrate.go)
}

// sessionState caches one session's log between turns and serializes turns
// on it.
type sessionState struct {
	turn   chan struct{} // holds a token while a Turn (or a record between turns) runs
	refs   int           // holders and waiters of turn, under Engine.mu: never evicted while > 0
	head   int64         // head of events, guarded by turn
	events []session.StoredEvent
	loaded bool
	// archived maps the SHA-256 of tool results the context engine put in
	// the session's archive to their entries, guarded by turn.
	archived map[[sha256.Size]byte]archive.Entry
	// facts are the context engine's pinned facts of the view and
	// events[:facts.scanned], guarded by turn.
	facts factSet
	// view is the latest committed context view, which events follow,
	// when the context engine loaded the log from it; proj folds the two.
	// Both guarded by turn.
	view *viewBase
	proj projection
	// calib corrects the estimates of the session's requests by the input
	// the provider reported for the last one answered, guarded by turn.
	calib calibration
	// active is the turn running on the session, under Engine.mu; nil
	// between turns.
	active *run
}

// lock takes the session's turn, or fails when ctx is done first.
func (st *sessionState) lock(ctx context.Context) error {
	select {
	case st.turn <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (st *sessionState) unlock() { <-st.turn }

// maxCachedSessions bounds the sessions whose folded logs stay in memory.
const maxCachedSessions = 8

// New returns an Engine. It validates the options.
func New(opts Options) (*Engine, error) {
	if opts.Provider == nil {
		return nil, errors.New("engine: Provider is required")
	}
	if opts.Checkpointer == nil {
		return nil, errors.New("engine: Checkpointer is required")
	}
	if opts.MaxTurns < 0 || opts.MaxParallelTools < 0 || opts.MaxTokens < 0 {
		return nil, errors.New("engine: MaxTurns, MaxParallelTools and MaxTokens must not be negative")
	}
	if opts.Context != nil {
		if opts.Context.Window < 0 {
			return nil, errors.New("engine: Context.Window must not be negative")
		}
		c := *opts.Context // later changes to the caller's value change nothing
		opts.Context = &c
	}
	if opts.MaxTurns == 0 {
		opts.MaxTurns = DefaultMaxTurns
	}
	if opts.MaxParallelTools == 0 {
		opts.MaxParallelTools = DefaultMaxParallelTools
	}
	e := &Engine{
		opts:     opts,
		tools:    tool.NewSet(opts.Tools...),
		log:      opts.Logger,
		now:      time.Now,
		sessions: make(map[string]*sessionState),
		lockIdle: defaultLockIdle,
		lockMax:  defaultLockMax,
	}
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	for _, t := range opts.Tools {
		e.specs = append(e.specs, model.ToolSpec{Name: t.Name(), Description: t.Description(), InputSchema: t.Schema()})
	}
	return e, nil
}

// Forget drops what the engine caches about session id, for example after
// the session was deleted or changed by another writer.
func (e *Engine) Forget(id string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	// A state in use stays, so that its users keep sharing one lock; its
	// next turn reloads the log if the head moved.
	if st, ok := e.sessions[id]; ok && st.refs == 0 {
		delete(e.sessions, id)
	}
	delete(e.ratios, id)
}

// acquire returns the state of session id, counted as in use until
// release: a state in use is never dropped from the cache, so that two
// callers for one session always share one turn lock.
func (e *Engine) acquire(id string) *sessionState {
	e.mu.Lock()
	defer e.mu.Unlock()
	st, ok := e.sessions[id]
	if !ok {
		if len(e.sessions) >= maxCachedSessions {
			for k, v := range e.sessions {
				if v.refs == 0 { // not in use: safe to drop
					delete(e.sessions, k)
					break
				}
			}
		}
		st = &sessionState{turn: make(chan struct{}, 1), calib: e.ratioLocked(id)}
		e.sessions[id] = st
	}
	st.refs++
	return st
}

// release ends a use of st that acquire counted.
func (e *Engine) release(st *sessionState) {
	e.mu.Lock()
	st.refs--
	e.mu.Unlock()
}

// run is the state of one Turn call.
type run struct {
	e      *Engine
	id     string
	st     *sessionState
	turn   int        // written by the loop under phaseMu (setTurn); others read it under phaseMu
	events chan Event // events emitted by tools, drained by the loop

	appendMu sync.Mutex // serializes appends of snapshots and batches
	lock     *turnLock  // the session's lock, kept across the turn's operations on the log
	checked  bool       // the load has just checked the session's first record (see recheck)
	pin      *knownCell // the session as the caller knew it when it asked for the turn (TurnPinned); nil: not pinned

	tools *tool.Set        // the tools of this prompt
	specs []model.ToolSpec // their specs

	phaseMu sync.Mutex
	phase   chan struct{} // open while tools run and events are drained; nil otherwise
	holding bool          // the loop builds a request: emit keeps events in held
	held    []Event
	output  json.RawMessage // set by a call's SetOutput, under phaseMu

	// room is the answer's room of the last request built (bindAnswer),
	// owned by the loop.
	room answerRoom
	// estimate is the plain estimate of the input of the last request
	// built (0: not measured), which its usage calibrates, owned by the
	// loop.
	estimate int

	steerMu sync.Mutex
	steered []model.Message // messages Steer queued for the next model call
	steerOK bool            // Steer may still queue
}

// hold makes emit keep events until unhold while the loop itself runs
// callbacks (the context engine's, the reminder), which may emit, such
// as a compact hook's diagnostic.
func (r *run) hold() {
	r.phaseMu.Lock()
	r.holding = true
	r.phaseMu.Unlock()
}

// unhold ends hold and returns the events kept.
func (r *run) unhold() []Event {
	r.phaseMu.Lock()
	defer r.phaseMu.Unlock()
	evs := r.held
	r.holding, r.held = false, nil
	return evs
}

// draining returns the channel that is closed when the loop stops draining
// tool events, or nil when it is not draining them, and the turn.
func (r *run) draining() (chan struct{}, int) {
	r.phaseMu.Lock()
	defer r.phaseMu.Unlock()
	return r.phase, r.turn
}

// setTurn starts turn n. Tools, and the subagents they start, read the turn
// from other goroutines, possibly after their own turn ended (see emit and
// Record).
func (r *run) setTurn(n int) {
	r.phaseMu.Lock()
	r.turn = n
	r.phaseMu.Unlock()
}

// emit sends ev to the event stream of r: kept while the loop builds a
// request (see hold), passed to the loop while tools run, dropped
// otherwise. It reports whether the turn took ev. SessionID and Turn are
// filled in.
func (r *run) emit(ev Event) bool {
	r.phaseMu.Lock()
	if r.holding {
		ev.SessionID, ev.Turn = r.id, r.turn
		r.held = append(r.held, ev)
		r.phaseMu.Unlock()
		return true
	}
	phase, turn := r.phase, r.turn
	r.phaseMu.Unlock()
	if phase == nil {
		return false // not within the tool phase: nobody is listening
	}
	ev.SessionID, ev.Turn = r.id, turn
	select {
	case r.events <- ev:
		return true
	case <-phase:
		return false
	}
}

// setOutput makes v the structured answer of r's prompt.
func (r *run) setOutput(v json.RawMessage) {
	r.phaseMu.Lock()
	r.output = bytes.Clone(v)
	r.phaseMu.Unlock()
}

// reporter is the [tool.Reporter] of the calls of one turn.
type reporter struct{ r *run }

// Emit implements [tool.Reporter]: it takes an [Event] (or *Event) and
// refuses other values.
func (rp reporter) Emit(v any) bool {
	switch ev := v.(type) {
	case Event:
		return rp.r.emit(ev)
	case *Event:
		return ev != nil && rp.r.emit(*ev)
	}
	return false
}

// SetOutput implements [tool.Reporter]: v becomes the Output of the
// prompt's [Result], unless a later call replaces it.
func (rp reporter) SetOutput(v json.RawMessage) bool {
	rp.r.setOutput(v)
	return true
}

// active returns the turn running on session id, or nil.
func (e *Engine) active(id string) *run {
	e.mu.Lock()
	defer e.mu.Unlock()
	if st := e.sessions[id]; st != nil {
		return st.active
	}
	return nil
}

// Notify sends ev to the event stream of the turn running on session id,
// for code beside its tool calls that has no [tool.Call] to report through,
// such as a hook that fails while a tool runs, or a callback of the context
// engine. Events sent while the turn builds a request come out before that
// request's; while tools run, among their events; at any other time, and
// when no turn runs on id, ev is dropped. It reports whether the turn took
// ev. SessionID and Turn are filled in.
func (e *Engine) Notify(id string, ev Event) bool {
	r := e.active(id)
	if r == nil {
		return false
	}
	return r.emit(ev)
}

// RecordInTurn appends a sidecar event, as [Record] does, to the log of
// session id while a turn runs on it, for an event about something other
// than a tool call of the turn, such as the permission decision about a
// hook command that a tool's hooks run. It fails when no turn runs on id;
// around a turn, use [Engine.RecordBetweenTurns].
func (e *Engine) RecordInTurn(ctx context.Context, id string, ev session.Event) error {
	r := e.active(id)
	if r == nil {
		return fmt.Errorf("engine: event recorded outside a turn of session %s", id)
	}
	return r.record(ctx, ev)
}

// Record appends a sidecar event — a file snapshot, a permission decision,
// a verified artifact — to the log of the session whose turn makes call c,
// right away and so before c's result. The Turn of those event types is
// set. It fails for a call that no turn of an engine made (a nil call or a
// detached one); around a turn, use [Engine.RecordBetweenTurns]. File tools
// call it before every change.
func Record(ctx context.Context, c *tool.Call, ev session.Event) error {
	var r *run
	if c != nil {
		if rp, ok := c.Reporter.(reporter); ok {
			r = rp.r
		}
	}
	if r == nil {
		return errors.New("engine: event recorded outside a turn")
	}
	return r.record(ctx, ev)
}

// record appends ev to r's log at once, with the Turn of the event types
// that have one set.
func (r *run) record(ctx context.Context, ev session.Event) error {
	_, turn := r.draining()
	switch v := ev.(type) {
	case session.FileSnapshotEvent:
		v.Turn = turn
		ev = v
	case session.PermissionDecisionEvent:
		v.Turn = turn
		ev = v
	case session.ArtifactVerifiedEvent:
		v.Turn = turn
		ev = v
	}
	return r.append(ctx, ev)
}

// RecordBetweenTurns appends ev to the log of session id from outside a
// turn, for an event made around the session's turns, such as the
// permission decision about a run:start or run:end hook. It waits for a
// turn running on id to end (or for ctx to be done) and appends at the head
// it tracks, so that the two never conflict; the next turn sees the event.
// keep, when not nil, is asked under the session's lock whether the event
// is still wanted (the session may have been deleted meanwhile); false
// drops it. keep is asked again when the log is found missing, so that a
// deletion between the first question and the load does not bring the log
// back (a missing log is otherwise created: a session emptied by a
// restore, say, still takes the decision).
func (e *Engine) RecordBetweenTurns(ctx context.Context, id string, ev session.Event, keep func() bool) error {
	st := e.acquire(id)
	defer e.release(st)
	if err := st.lock(ctx); err != nil {
		return err
	}
	defer st.unlock()
	if keep != nil && !keep() {
		return nil
	}
	r := &run{e: e, id: id, st: st}
	r.lock = e.newTurnLock(r)
	defer r.lock.end()
	if err := r.loadHeld(ctx); err != nil {
		return err
	}
	if r.st.head == 0 && keep != nil && !keep() {
		// No log, and the session was deleted since keep was asked: the
		// load found it gone. Appending would bring the log back.
		return nil
	}
	return r.append(ctx, ev)
}

// append adds events to the log as one batch at the tracked head, and to
// the cache.
func (r *run) append(ctx context.Context, evs ...session.Event) error {
	r.appendMu.Lock()
	defer r.appendMu.Unlock()
	cp := r.e.opts.Checkpointer
	if err := r.lock.enter(ctx); err != nil {
		r.st.loaded = false
		return fmt.Errorf("append to session %s: %w", r.id, err)
	}
	if err := r.recheck(ctx); err != nil {
		r.lock.leave()
		r.st.loaded = false
		return err
	}
	mark := r.e.markOf(r.id)
	if err := storedGone(mark, r.st.head); err != nil {
		// An emptied log, deleted since it was loaded: appending at
		// head 0 would start the deleted session over.
		r.lock.leave()
		r.st.loaded = false
		return err
	}
	head, err := cp.Append(ctx, r.id, evs, r.st.head)
	if err == nil && r.st.head == 0 {
		// The session's first record, written now: the one a turn
		// that finds another under the id refuses (identity.go).
		r.learnFirst(ctx)
	}
	r.lock.leave()
	if err != nil {
		r.st.loaded = false // reload on the next turn
		if terr := newTaken(mark, r.st.head, err); terr != nil {
			// Another writer made the session since it was loaded
			// empty: it is theirs, and nothing was written.
			return terr
		}
		return fmt.Errorf("append to session %s: %w", r.id, err)
	}
	if mark != nil {
		r.e.unmark(r.id, mark)
	}
	ts := r.e.now().UTC().Truncate(time.Millisecond)
	for i, ev := range evs {
		seq := r.st.head + int64(i) + 1
		r.st.events = append(r.st.events, session.StoredEvent{Seq: seq, SessionID: r.id, ParentSeq: seq - 1, Time: ts, Event: ev})
	}
	r.st.head = head
	return nil
}

// load brings the cached log of the session up to date with the store.
func (r *run) load(ctx context.Context) error {
	// Only a loaded cache needs the head check: a first read is from the
	// view (the checkpointer's own head check would read the whole log).
	if r.st.loaded {
		head, err := r.e.opts.Checkpointer.Head(ctx, r.id)
		if err != nil {
			return fmt.Errorf("read session %s: %w", r.id, err)
		}
		if head == r.st.head {
			if err := r.checkFirst(ctx, nil); err != nil {
				r.st.loaded = false
				return err
			}
			return r.checkMark()
		}
		if head == 0 && r.st.head > 0 && r.e.markOf(r.id) == nil {
			// Every record went since the last turn: a delete in
			// another process, or a restore to the start. Checked as a
			// session a caller resumed (ExpectStored), so that a deleted
			// one is not started over by this turn or the next.
			r.e.ExpectStored(r.id, r.e.emptiedGone(r.id))
		}
	}
	if err := r.readLog(ctx); err != nil {
		return fmt.Errorf("read session %s: %w", r.id, err)
	}
	var first *session.StoredEvent
	if len(r.st.events) > 0 && r.st.events[0].Seq == 1 {
		first = &r.st.events[0] // read from the start: no read more
	}
	if err := r.checkFirst(ctx, first); err != nil {
		r.st.loaded = false // the cache holds another session
		return err
	}
	if r.st.calib.ratio == 0 {
		// A session this engine has not calibrated (a new process's):
		// calibrated as its log's last answered request was.
		r.st.calib = loggedCalibration(r.e.opts.Provider, r.e.opts.Model, r.st.view, r.st.events)
	}
	r.st.loaded = true
	return r.checkMark()
}

// emptiedGone returns the check of session id, found with no records
// after the engine had loaded some: nil when EmptiedKept says its log was
// only emptied, else a *session.NotFoundError.
func (e *Engine) emptiedGone(id string) func(int64, error) error {
	return func(int64, error) error {
		if e.opts.EmptiedKept != nil && e.opts.EmptiedKept(id) {
			return nil
		}
		return &session.NotFoundError{SessionID: id}
	}
}

// Turn runs one prompt in session id and yields its events. The last event
// is a done event carrying the [Result]; a failure that ends the turn is
// yielded once, as an error event together with the error, and ends the
// sequence. Cancelling ctx, or breaking out of the loop, stops the turn at
// the next boundary with stop reason aborted; the log stays valid. The text
// a cancelled model call had streamed is stored as an assistant message
// ending in [AbortedMark].
//
// Turns on one session run one at a time; the sequence may be ranged over
// once.
func (e *Engine) Turn(ctx context.Context, id string, prompt model.Message) iter.Seq2[Event, error] {
	return e.TurnFrom(ctx, id, prompt, session.OriginUser)
}

// TurnFrom runs a turn like Turn whose prompt came from origin: a user
// prompt (a checkpoint that time travel can return to), a background
// completion or an internal message (neither is a checkpoint).
func (e *Engine) TurnFrom(ctx context.Context, id string, prompt model.Message, origin session.Origin) iter.Seq2[Event, error] {
	return e.turnFrom(ctx, id, prompt, origin, nil)
}

// turnFrom is TurnFrom for a turn pinned to the session as pin holds it
// (nil: not pinned; see TurnPinned).
func (e *Engine) turnFrom(ctx context.Context, id string, prompt model.Message, origin session.Origin, pin *knownCell) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		st := e.acquire(id)
		defer e.release(st)
		// A turn waits for the one before; cancelling ctx ends the wait,
		// and the turn, which has written nothing, stops as aborted.
		if err := st.lock(ctx); err != nil {
			yield(Event{Type: EventDone, SessionID: id, Result: &Result{SessionID: id, StopReason: StopAborted}}, nil)
			return
		}
		locked := true
		defer func() {
			if locked {
				st.unlock()
			}
		}()
		r := &run{e: e, id: id, st: st, events: make(chan Event), steerOK: origin == session.OriginUser, pin: pin}
		r.lock = e.newTurnLock(r)
		defer r.lock.end()
		e.mu.Lock()
		st.active = r
		e.mu.Unlock()
		inactive := func() {
			r.closeSteer()
			e.mu.Lock()
			if st.active == r {
				st.active = nil
			}
			e.mu.Unlock()
		}
		defer inactive()

		stopped := false
		emit := func(ev Event) {
			if stopped {
				return
			}
			ev.SessionID = id
			if !yield(ev, nil) {
				stopped = true
				cancel()
			}
		}
		res, err := r.loop(ctx, prompt, origin, emit)
		// The session's lock goes before anyone hears of the end.
		r.lock.end()
		inactive() // Steer refuses from here: nothing more is sent
		if res != nil {
			r.phaseMu.Lock()
			res.Output = r.output
			r.phaseMu.Unlock()
		}
		if err != nil {
			if !stopped {
				yield(Event{Type: EventError, SessionID: id, Err: err, Fatal: true}, err)
			}
			return
		}
		// The session is free before done is yielded: what the consumer
		// does on done (a next prompt, a run:end hook) may use it.
		st.unlock()
		locked = false
		emit(Event{Type: EventDone, Turn: r.turn, Result: res})
	}
}

func (r *run) loop(ctx context.Context, prompt model.Message, origin session.Origin, emit func(Event)) (*Result, error) {
	e := r.e
	if err := r.loadHeld(ctx); err != nil {
		return nil, err
	}
	if err := r.answerDangling(ctx, emit); err != nil {
		return nil, err
	}
	r.tools, r.specs = e.tools, e.specs
	if e.opts.ExtraTools != nil {
		extra, err := e.opts.ExtraTools(ctx, r.id)
		if err != nil {
			return nil, fmt.Errorf("tools: %w", err)
		}
		if len(extra) > 0 {
			all := append(append([]tool.Tool(nil), e.opts.Tools...), extra...)
			r.tools = tool.NewSet(all...)
			r.specs = append([]model.ToolSpec(nil), e.specs...)
			for _, t := range extra {
				r.specs = append(r.specs, model.ToolSpec{Name: t.Name(), Description: t.Description(), InputSchema: t.Schema()})
			}
		}
	}
	res := &Result{SessionID: r.id}
	checkpoint := origin == session.OriginUser
	if err := r.append(ctx, session.UserEvent{Message: prompt, Origin: origin, Checkpoint: &checkpoint}); err != nil {
		return nil, err
	}
	res.Messages = append(res.Messages, prompt)

	for turn := 1; ; turn++ {
		r.setTurn(turn)
		if turn >= e.opts.MaxTurns {
			// No call would be left to answer what comes from now on;
			// what came before goes into this last call.
			if late := r.takeSteerAndClose(); ctx.Err() == nil {
				if err := r.addSteered(ctx, late, res, emit); err != nil {
					return nil, err
				}
			}
		}
		if ctx.Err() != nil {
			res.StopReason = StopAborted
			return res, nil
		}
		res.Turns = r.turn
		emit(Event{Type: EventTurnStart, Turn: r.turn})
		var partial strings.Builder // the answer's text so far
		msg, usage, stop, err := r.callModel(ctx, func(ev Event) {
			if ev.Type == EventTextDelta {
				partial.WriteString(ev.Text)
			}
			emit(ev)
		})
		if err != nil {
			if ctx.Err() != nil {
				if err := r.keepAborted(ctx, partial.String(), res); err != nil {
					return nil, err
				}
				res.StopReason = StopAborted
				return res, nil
			}
			return nil, err
		}
		res.Usage = res.Usage.Add(usage)
		// The usage and the estimate of the request answered calibrate
		// the session in a process that resumes it (loggedCalibration).
		if err := r.append(ctx, session.AssistantEvent{Message: msg, Usage: usage, InputEstimate: r.estimate, Model: r.e.opts.Model}); err != nil {
			return nil, err
		}
		res.Messages = append(res.Messages, msg)
		if t := msg.PlainText(); t != "" {
			res.Text = t
		}
		emit(Event{Type: EventMessage, Turn: r.turn, Message: &msg})

		calls := toolCalls(msg)
		if len(calls) == 0 {
			emit(Event{Type: EventTurnEnd, Turn: r.turn, ModelCall: &ModelCallEvent{StopReason: stop}})
			// Messages steered in meanwhile get an answer: the loop goes on.
			steered := r.takeSteer(true)
			if len(steered) == 0 {
				res.StopReason = StopDone
				return res, nil
			}
			if ctx.Err() != nil {
				res.StopReason = StopAborted // the steered messages are dropped
				return res, nil
			}
			if err := r.addSteered(ctx, steered, res, emit); err != nil {
				return nil, err
			}
		} else {
			results, err := r.runTools(ctx, calls, emit)
			if err != nil {
				return nil, err
			}
			res.Messages = append(res.Messages, model.UserBlocks(results...))
			emit(Event{Type: EventTurnEnd, Turn: r.turn, ModelCall: &ModelCallEvent{StopReason: model.StopToolUse}})
			if ctx.Err() == nil {
				if err := r.addSteered(ctx, r.takeSteer(false), res, emit); err != nil {
					return nil, err
				}
			}
		}
		if ctx.Err() != nil {
			res.StopReason = StopAborted
			return res, nil
		}
		if r.turn >= e.opts.MaxTurns {
			res.StopReason = StopMaxTurns
			return res, nil
		}
	}
}

// AbortedMark ends the stored text of an answer whose model call was
// cancelled while it streamed.
const AbortedMark = "\n[aborted]"

// keepAborted stores the text an answer streamed before its model call was
// cancelled, as an assistant message ending in [AbortedMark], so that the
// session shows what was said and the model knows it was cut off. Nothing
// is stored when no text came.
func (r *run) keepAborted(ctx context.Context, text string, res *Result) error {
	if text == "" {
		return nil
	}
	msg := model.AssistantText(text + AbortedMark)
	if err := r.append(context.WithoutCancel(ctx), session.AssistantEvent{Message: msg}); err != nil {
		return err
	}
	res.Messages = append(res.Messages, msg)
	res.Text = msg.Text
	return nil
}

// Steer queues msgs for the prompt (a turn of origin user) running on
// session id: they are added to the conversation, as user messages, before
// its next model call, or after the model's last answer, which the model
// then answers too. It reports whether such a turn was running and took
// them; it refuses during the last call the turn limit allows, since no
// call would be left to answer them. Messages taken by a turn that is then
// cancelled or fails are dropped.
func (e *Engine) Steer(id string, msgs ...model.Message) bool {
	e.mu.Lock()
	var r *run
	if st := e.sessions[id]; st != nil {
		r = st.active
	}
	e.mu.Unlock()
	if r == nil || len(msgs) == 0 {
		return r != nil && len(msgs) == 0
	}
	r.steerMu.Lock()
	defer r.steerMu.Unlock()
	if !r.steerOK {
		return false
	}
	for _, m := range msgs {
		m.Role = model.RoleUser
		r.steered = append(r.steered, m)
	}
	return true
}

// takeSteer returns the messages queued by Steer; with last, an empty
// queue also closes it, so that no message is queued into a turn that is
// about to end.
func (r *run) takeSteer(last bool) []model.Message {
	r.steerMu.Lock()
	defer r.steerMu.Unlock()
	msgs := r.steered
	r.steered = nil
	if last && len(msgs) == 0 {
		r.steerOK = false
	}
	return msgs
}

// takeSteerAndClose returns the messages queued by Steer and ends Steer
// for this turn, at once.
func (r *run) takeSteerAndClose() []model.Message {
	r.steerMu.Lock()
	defer r.steerMu.Unlock()
	msgs := r.steered
	r.steered, r.steerOK = nil, false
	return msgs
}

// closeSteer ends Steer for this turn.
func (r *run) closeSteer() {
	r.steerMu.Lock()
	r.steerOK, r.steered = false, nil
	r.steerMu.Unlock()
}

// addSteered appends steered messages to the log and the result and
// reports each with a steer event.
func (r *run) addSteered(ctx context.Context, msgs []model.Message, res *Result, emit func(Event)) error {
	if len(msgs) == 0 {
		return nil
	}
	evs := make([]session.Event, len(msgs))
	no := false
	for i, m := range msgs {
		evs[i] = session.UserEvent{Message: m, Origin: session.OriginUser, Checkpoint: &no}
	}
	if err := r.append(ctx, evs...); err != nil {
		return err
	}
	for i := range msgs {
		res.Messages = append(res.Messages, msgs[i])
		emit(Event{Type: EventSteer, Turn: r.turn, Message: &msgs[i]})
	}
	return nil
}

// request builds the model request from the cached log, through the
// context engine when it is on; force applies every context level (the
// retry after an overflow). The status is nil when no level applied. Its
// max_tokens leaves the input room in the window (bindAnswer): a request
// without room for the floor of an answer is built again compacted, when
// the engine can compact (the context engine, or overflow passes): with
// levels 1 to 4 forced, then every level; one still without room fails
// with an *OutputRoomError when the provider counted its input, and is
// sent with the floor as max_tokens when its input is an estimate.
//
// known, when set, is what the provider said of the input of the same
// request when it refused it (its count, the model's limit), which the
// first build's max_tokens is bound with.
func (r *run) request(ctx context.Context, force bool, known overflowCount) (model.Request, *ContextStatus, answerRoom, error) {
	e := r.e
	var reminder string
	if e.opts.Reminder != nil {
		text, err := e.opts.Reminder(ctx, r.id)
		if err != nil {
			return model.Request{}, nil, answerRoom{}, fmt.Errorf("reminder: %w", err)
		}
		reminder = text
	}
	mode := forceNone
	if force {
		mode = forceOverflow
	}
	scale := 0.0 // the provider's count of a refused request over its estimate
	for {
		msgs, status, size, err := r.sizedMessages(ctx, reminder, mode, scale)
		if err != nil {
			return model.Request{}, nil, answerRoom{}, err
		}
		req := r.newRequest(msgs)
		r.estimate = size.estimate
		room, err := r.bindAnswer(ctx, &req, size, known)
		if err != nil {
			return model.Request{}, nil, answerRoom{}, err
		}
		if known.input > 0 && !size.scaled && size.estimate > 0 {
			// The compacted requests are measured at the count's scale.
			scale = float64(known.input) / float64(size.estimate)
		}
		known.input = 0 // a compacted request is not the one counted
		if !room.short {
			return req, status, room, nil
		}
		switch {
		case mode == forceNone && e.opts.Context != nil:
			mode = forceRoom
			continue
		case mode != forceOverflow && (e.opts.Context != nil || len(e.opts.OverflowPasses) > 0):
			mode = forceOverflow
			continue
		case room.counted:
			return model.Request{}, nil, room, &OutputRoomError{Window: room.window, Input: room.input, Counted: true, MaxTokens: room.want}
		}
		// An estimate may be over the provider's count: the provider
		// judges.
		req.MaxTokens = room.floor()
		room.from = room.want
		return req, status, room, nil
	}
}

// newRequest returns the request of this prompt with msgs.
func (r *run) newRequest(msgs []model.Message) model.Request {
	e := r.e
	return model.Request{
		Model:       e.opts.Model,
		System:      e.opts.System,
		Messages:    msgs,
		Tools:       r.specs,
		MaxTokens:   e.opts.MaxTokens,
		Temperature: e.opts.Temperature,
		TopP:        e.opts.TopP,
	}
}

// callModel streams one model response. A request the provider refuses
// as too long before streaming anything is made once more: when the
// provider's message gives the input's count ([model.Error.OverflowTokens])
// and the request had a max_tokens, with max_tokens bound to the room
// that count leaves (compacted first when it leaves less than the floor,
// see request); else, with the context engine or overflow passes, with
// every context level applied.
func (r *run) callModel(ctx context.Context, emit func(Event)) (model.Message, model.Usage, model.StopReason, error) {
	msg, use, stop, streamed, err := r.stream(ctx, emit, false, overflowCount{})
	var room *OutputRoomError // refused before sending, compacted already
	if err == nil || streamed || ctx.Err() != nil || !model.IsClass(err, model.ClassContextOverflow) || errors.As(err, &room) {
		return msg, use, stop, err
	}
	var me *model.Error
	if errors.As(err, &me) && r.room.want > 0 {
		if in, limit := me.OverflowTokens(); in > 0 {
			emit(Event{Type: EventRetry, Turn: r.turn, Retry: &RetryEvent{Attempt: 1, Reason: "context overflow; max_tokens within the input's count"}, Err: err})
			msg, use, stop, _, err = r.stream(ctx, emit, false, overflowCount{input: in, limit: limit})
			return msg, use, stop, err
		}
	}
	if r.e.opts.Context != nil || len(r.e.opts.OverflowPasses) > 0 {
		emit(Event{Type: EventRetry, Turn: r.turn, Retry: &RetryEvent{Attempt: 1, Reason: "context overflow; compacting"}, Err: err})
		msg, use, stop, _, err = r.stream(ctx, emit, true, overflowCount{})
	}
	return msg, use, stop, err
}

// stream makes one model request and streams its response; streamed
// reports whether any chunk arrived. force and known are request's.
func (r *run) stream(ctx context.Context, emit func(Event), force bool, known overflowCount) (msg model.Message, use model.Usage, stop model.StopReason, streamed bool, err error) {
	e := r.e
	r.hold()
	req, status, room, err := r.request(ctx, force, known)
	r.room = room
	for _, ev := range r.unhold() {
		emit(ev)
	}
	if err != nil {
		return model.Message{}, model.Usage{}, "", false, err
	}
	if status != nil {
		emit(Event{Type: EventContextStatus, Turn: r.turn, Context: status})
	}
	call := &ModelCallEvent{Model: e.opts.Model, MaxTokens: req.MaxTokens}
	if room.from > 0 {
		call.MaxTokensFrom, call.InputTokens, call.InputCounted = room.from, room.input, room.counted
	}
	emit(Event{Type: EventModelCallStart, Turn: r.turn, ModelCall: call})
	start := e.now()
	done := false
	// A provider wrapped in model.WithRetry reports each retry of this call
	// before its wait, so that consumers see why nothing streams.
	ctx = model.WithRetryObserver(ctx, func(rt model.Retry) {
		emit(Event{Type: EventRetry, Turn: r.turn, Retry: &RetryEvent{Attempt: rt.Attempt, Reason: rt.Reason(), Wait: rt.Wait}, Err: rt.Err})
	})
	for ch, err := range e.opts.Provider.Stream(ctx, req) {
		if err != nil {
			emit(Event{Type: EventModelCallEnd, Turn: r.turn, ModelCall: &ModelCallEvent{Model: e.opts.Model, Duration: e.now().Sub(start)}, Err: err})
			return msg, use, stop, streamed, fmt.Errorf("model call %d: %w", r.turn, err)
		}
		streamed = true
		switch ch.Kind {
		case model.ChunkText:
			emit(Event{Type: EventTextDelta, Turn: r.turn, Text: ch.Text})
		case model.ChunkDone:
			msg, use, stop, done = ch.Message, ch.Usage, ch.StopReason, true
		}
	}
	if !done {
		err := ctx.Err()
		if err == nil {
			err = model.NewError(model.ClassStream, 0, "provider produced no message_done chunk", nil)
		}
		emit(Event{Type: EventModelCallEnd, Turn: r.turn, ModelCall: &ModelCallEvent{Model: e.opts.Model, Duration: e.now().Sub(start)}, Err: err})
		return msg, use, stop, streamed, fmt.Errorf("model call %d: %w", r.turn, err)
	}
	if msg.Role == "" {
		msg.Role = model.RoleAssistant
	}
	// The input the provider reported corrects the estimates of the
	// session's next requests; a usage without it keeps the last.
	if k := calibrated(e.opts.Provider, r.estimate, use); k.ratio > 0 {
		r.st.calib = k
		e.keepRatio(r.id, k.ratio)
	}
	emit(Event{Type: EventModelCallEnd, Turn: r.turn, ModelCall: &ModelCallEvent{Model: e.opts.Model, Duration: e.now().Sub(start), Usage: &use}})
	return msg, use, stop, streamed, nil
}

func toolCalls(m model.Message) []model.Block {
	var calls []model.Block
	for _, b := range m.Blocks {
		if b.Type == model.BlockToolCall {
			calls = append(calls, b)
		}
	}
	return calls
}
