package liteagent

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"sync"
	"time"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/tool"
)

// hookedTool fires tool:start and tool:end hooks around a tool's calls.
// tool:start fires before the permission gate (which wraps the inner tool),
// as hooks observe every call the model makes.
type hookedTool struct {
	tool.Tool
	a *Agent
}

func (h hookedTool) Call(ctx context.Context, c *tool.Call, input json.RawMessage) (tool.Result, error) {
	if c == nil {
		c = &tool.Call{}
	}
	id := h.a.runs.identity(c.SessionID)
	call := hook.ToolCall{ID: c.ID, Name: h.Name(), Input: input}
	h.a.fire(ctx, hook.ToolStart{Identity: id, Call: call})
	start := time.Now()
	res, err := h.Tool.Call(ctx, c, input)
	end := hook.ToolEnd{Identity: id, Call: call, Duration: time.Since(start), Status: hook.StatusCompleted}
	switch {
	case err != nil && ctx.Err() != nil:
		end.Status = hook.StatusCancelled
	case err != nil:
		end.Status, end.Err = hook.StatusFailed, &hook.ErrorInfo{Name: "Error", Message: err.Error()}
	default:
		end.Result = &hook.ToolResult{ID: call.ID, Name: call.Name, Content: res.Content, IsError: res.IsError}
		if res.IsError {
			end.Status = hook.StatusFailed
		}
	}
	h.a.fire(ctx, end)
	return res, err
}

// compactHooks fires compact:start before the context engine compacts a
// request and returns what fires compact:end after it, both with kind auto
// and the identity of the run.
func (a *Agent) compactHooks(ctx context.Context, sessionID string, before int) func(after int, err error) {
	if a.hooks == nil {
		return nil
	}
	id, cid := a.runs.identity(sessionID), newSessionID()
	counted := engine.CompactingCounted(ctx) // after is an estimate, scaled to the count
	a.fire(ctx, hook.CompactStart{Identity: id, CompactionID: cid, Kind: hook.CompactAuto, Before: int64(before), BeforeCounted: counted})
	return func(after int, err error) {
		end := hook.CompactEnd{Identity: id, CompactionID: cid, Kind: hook.CompactAuto, Before: int64(before), BeforeCounted: counted, After: int64(after), Status: hook.StatusCompleted}
		switch {
		case err != nil && ctx.Err() != nil:
			end.Status = hook.StatusCancelled
		case err != nil:
			end.Status, end.Err = hook.StatusFailed, &hook.ErrorInfo{Name: "Error", Message: err.Error()}
		}
		a.fire(context.WithoutCancel(ctx), end)
	}
}

// fire runs the hooks of p, fired within a turn, and reports failures as
// diagnostic events of that turn.
func (a *Agent) fire(ctx context.Context, p hook.Payload) {
	if a.hooks == nil {
		return
	}
	out := a.fireHooks(ctx, p)
	if len(out.Diagnostics) == 0 {
		return
	}
	id, _ := payloadIdentity(p)
	for _, d := range out.Diagnostics {
		a.log.Warn("hook failed", "event", d.Event, "hook", d.Label)
		a.notify(id.SessionID, Event{Type: engine.EventDiagnostic, Diagnostic: &DiagnosticEvent{Code: d.Code}, Text: d.Message})
	}
}

// fireLogged runs the hooks of p, fired outside a turn's events (a run's
// end, a manual compaction), and logs failures.
func (a *Agent) fireLogged(ctx context.Context, p hook.Payload) {
	for _, d := range a.fireHooks(ctx, p).Diagnostics {
		a.log.Warn("hook failed", "event", d.Event, "hook", d.Label)
	}
}

// hookRun is a run whose hooks fire: its identity (its own runId,
// agentId for a subagent, source), the engine running its turn, and the
// events of the permission decisions made around that turn (about run:start
// and run:end hook commands), which no turn is there to stream.
type hookRun struct {
	ident  hook.Identity
	eng    *engine.Engine
	around around
}

// around collects the events emitted around a turn.
type around struct {
	mu  sync.Mutex
	evs []Event
}

// add keeps ev.
func (c *around) add(ev Event) {
	c.mu.Lock()
	c.evs = append(c.evs, ev)
	c.mu.Unlock()
}

// take returns and forgets the events kept, with their session set.
func (c *around) take(session string) []Event {
	c.mu.Lock()
	defer c.mu.Unlock()
	evs := c.evs
	c.evs = nil
	for i := range evs {
		evs[i].SessionID = session
	}
	return evs
}

// hookCall is a hook command's synthetic call while the gate decides about
// it: the session it is attributed to and, for a decision made around a
// turn, the run whose hooks fire.
type hookCall struct {
	session string
	run     *hookRun // nil within a turn (a tool's or a compaction's hook)
}

// hookRuns tracks the runs of an agent family whose hooks may fire: by run
// id while the run lasts, and by session while its turn holds the session
// (turns on one session run one at a time), so that a tool's or a
// compaction's hook gets the identity of its run from the session alone.
// It also holds the hook commands being decided about, by call id, so that
// the gate's events and audit records about them reach their run.
type hookRuns struct {
	mu        sync.Mutex
	byID      map[string]*hookRun
	bySession map[string]*hookRun
	calls     map[string]hookCall
}

// add registers r until remove.
func (rs *hookRuns) add(r *hookRun) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.byID == nil {
		rs.byID = map[string]*hookRun{}
	}
	rs.byID[r.ident.RunID] = r
}

// remove forgets r, and ends its hold on its session.
func (rs *hookRuns) remove(r *hookRun) {
	rs.release(r)
	rs.mu.Lock()
	defer rs.mu.Unlock()
	delete(rs.byID, r.ident.RunID)
}

// hold records that r's turn holds its session: the engine yields a turn's
// events (other than the done of a turn that never started) only then.
func (rs *hookRuns) hold(r *hookRun) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.bySession == nil {
		rs.bySession = map[string]*hookRun{}
	}
	rs.bySession[r.ident.SessionID] = r
}

// release ends r's hold on its session, unless the next turn there took
// it already.
func (rs *hookRuns) release(r *hookRun) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.bySession[r.ident.SessionID] == r {
		delete(rs.bySession, r.ident.SessionID)
	}
}

// run returns the run with id runID, or nil.
func (rs *hookRuns) run(runID string) *hookRun {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.byID[runID]
}

// identity is the hook identity of the run whose turn holds session id,
// with that session; outside any such run, a user run's without a runId.
func (rs *hookRuns) identity(id string) hook.Identity {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if r := rs.bySession[id]; r != nil {
		return r.ident
	}
	return hook.Identity{SessionID: id, Source: hook.SourceUser}
}

// engine returns the engine of the run whose turn holds session id, or
// fallback.
func (rs *hookRuns) engine(id string, fallback *engine.Engine) *engine.Engine {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if r := rs.bySession[id]; r != nil {
		return r.eng
	}
	return fallback
}

// decide registers c as the hook command call id until the returned
// function is called.
func (rs *hookRuns) decide(id string, c hookCall) (done func()) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.calls == nil {
		rs.calls = map[string]hookCall{}
	}
	rs.calls[id] = c
	return func() {
		rs.mu.Lock()
		defer rs.mu.Unlock()
		delete(rs.calls, id)
	}
}

// call returns the hook command call id being decided about, if it is
// one.
func (rs *hookRuns) call(id string) (hookCall, bool) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	c, ok := rs.calls[id]
	return c, ok
}

// fireHooks runs the hooks of p with a context marked as a hook's of a
// until they return.
func (a *Agent) fireHooks(ctx context.Context, p hook.Payload) hook.Outcome {
	w := &work{a: a, hook: true}
	out := a.hooks.Fire(withWork(ctx, w), p)
	w.done.Store(true)
	return out
}

// hookedTurn wraps a turn, run by eng, with run:start and run:end hooks.
// ident gives the run's session, agentId (a subagent's) and source; the run
// gets its own runId, which its tool hooks see too.
//
// run:start fires once the turn has secured its session: at the turn's
// first event, which the engine yields only after the session's lock is
// held, its log loaded and checked, and the prompt written (so a session
// started with StartSession is the agent's, and one resumed with
// ResumeStored is still stored). Its diagnostics, and the decisions about
// its commands, are yielded before that event. A turn refused before then
// — the session taken by another writer (*SessionExistsError), deleted
// meanwhile (*session.NotFoundError), its log unreadable, or a wait for
// the session cancelled — was no run: neither run:start nor run:end fires,
// so no hook acts for it or on another owner's session. From run:start on,
// run:end fires exactly once, before the done event is yielded (or when
// the turn ends otherwise).
func (a *Agent) hookedTurn(ctx context.Context, eng *engine.Engine, ident hook.Identity, prompt string, start func(context.Context) iter.Seq2[Event, error]) iter.Seq2[Event, error] {
	if a.hooks == nil {
		return start(ctx)
	}
	return func(yield func(Event, error) bool) {
		id := ident.SessionID
		ident.RunID = newSessionID()
		run := &hookRun{ident: ident, eng: eng}
		a.runs.add(run)
		defer a.runs.remove(run)
		turn := start(ctx)
		// Decisions about hook commands come before the turn's events and
		// before done.
		// The hooks' decisions go to this run (see permitHook), never to
		// the turn of a tool that started it.
		evs := &run.around
		hookCtx := ctx
		input, _ := json.Marshal(prompt)
		end := hook.RunEnd{Identity: ident, Status: hook.StatusCompleted}
		started, ended := false, false
		fireEnd := func() {
			if !started || ended {
				return
			}
			ended = true
			a.fireLogged(context.WithoutCancel(hookCtx), end)
		}
		// run:end fires once whatever happens after run:start, a consumer
		// that stops at a run:start diagnostic included.
		defer fireEnd()
		// begin fires run:start and yields what it brought; false when
		// the consumer stopped.
		begin := func() bool {
			started = true
			out := a.fireHooks(hookCtx, hook.RunStart{Identity: ident, Input: input})
			for _, ev := range evs.take(id) {
				if !yield(ev, nil) {
					end.Status = hook.StatusCancelled
					return false
				}
			}
			for _, d := range out.Diagnostics {
				if !yield(Event{Type: engine.EventDiagnostic, SessionID: id, Diagnostic: &DiagnosticEvent{Code: d.Code}, Text: d.Message}, nil) {
					end.Status = hook.StatusCancelled
					return false
				}
			}
			return true
		}
		for ev, err := range turn {
			if !started && err == nil && ev.Type != engine.EventDone {
				a.runs.hold(run) // the turn started: its tools' hooks are this run's
				if !begin() {
					return
				}
			}
			if err != nil {
				a.runs.release(run)
				end.Status = hook.StatusFailed
				end.Err = &hook.ErrorInfo{Name: "Error", Message: err.Error()}
				if errors.Is(err, context.Canceled) {
					end.Status = hook.StatusCancelled
				}
				// A failed turn yields no done: run:end fires here, and
				// its decisions come before the error.
				fireEnd()
				for _, hev := range evs.take(id) {
					if !yield(hev, nil) {
						return
					}
				}
			}
			if ev.Type == engine.EventDone && ev.Result != nil {
				a.runs.release(run) // the engine let the session go before done
				switch ev.Result.StopReason {
				case engine.StopAborted:
					end.Status = hook.StatusCancelled
				case engine.StopMaxTurns:
					end.Status = hook.StatusMaxTurns
				}
				end.Result = &hook.RunResult{Text: ev.Result.Text, Usage: ev.Result.Usage, StopReason: string(ev.Result.StopReason), Output: ev.Result.Output}
				// The done event comes after the run:end hooks, so a
				// caller that stops at done sees their effects.
				fireEnd()
				for _, hev := range evs.take(id) {
					if !yield(hev, nil) {
						return
					}
				}
			}
			if !yield(ev, err) {
				end.Status = hook.StatusCancelled
				return
			}
		}
	}
}

// permitHook decides whether a command hook may run. Until a permission
// policy is configured, the default policy applies: hooks are asked about,
// and with no approval handler they are denied.
//
// The decision goes to the session of the run the hook observes, and its
// events and audit record to that run's turn, or, for a run:start or
// run:end hook, around it (see hookedTurn).
func (a *Agent) permitHook(ctx context.Context, req hook.PermitRequest) (bool, error) {
	if a.permit == nil {
		return false, nil
	}
	ident, aroundTurn := payloadIdentity(req.Payload)
	c := hookCall{session: ident.SessionID}
	if aroundTurn {
		c.run = a.runs.run(ident.RunID)
	}
	defer a.runs.decide(req.CallID, c)()
	return a.permit(ctx, permission.Call{ID: req.CallID, Name: hook.ToolName, Input: req.Input, SessionID: ident.SessionID})
}

// payloadIdentity returns the identity of p and whether p is fired around
// a turn (run:start, run:end) rather than within one.
func payloadIdentity(p hook.Payload) (hook.Identity, bool) {
	switch p := p.(type) {
	case hook.RunStart:
		return p.Identity, true
	case hook.RunEnd:
		return p.Identity, true
	case hook.ToolStart:
		return p.Identity, false
	case hook.ToolEnd:
		return p.Identity, false
	case hook.CompactStart:
		return p.Identity, false
	case hook.CompactEnd:
		return p.Identity, false
	}
	return hook.Identity{}, false
}
