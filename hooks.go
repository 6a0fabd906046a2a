package liteagent

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/hook"
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
	id := identity(ctx)
	if c.SessionID != "" {
		id.SessionID = c.SessionID
	}
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
func (a *Agent) compactHooks(ctx context.Context, before int) func(after int, err error) {
	if a.hooks == nil {
		return nil
	}
	id, cid := identity(ctx), newSessionID()
	a.fire(ctx, hook.CompactStart{Identity: id, CompactionID: cid, Kind: hook.CompactAuto, Before: int64(before)})
	return func(after int, err error) {
		end := hook.CompactEnd{Identity: id, CompactionID: cid, Kind: hook.CompactAuto, Before: int64(before), After: int64(after), Status: hook.StatusCompleted}
		switch {
		case err != nil && ctx.Err() != nil:
			end.Status = hook.StatusCancelled
		case err != nil:
			end.Status, end.Err = hook.StatusFailed, &hook.ErrorInfo{Name: "Error", Message: err.Error()}
		}
		a.fire(context.WithoutCancel(ctx), end)
	}
}

// fire runs the hooks of p and reports failures as diagnostic events of the
// current turn.
func (a *Agent) fire(ctx context.Context, p hook.Payload) {
	if a.hooks == nil {
		return
	}
	out := a.fireHooks(ctx, p)
	for _, d := range out.Diagnostics {
		a.log.Warn("hook failed", "event", d.Event, "hook", d.Label)
		a.eng.Notify(identity(ctx).SessionID, Event{Type: engine.EventDiagnostic, Code: d.Code, Text: d.Message})
	}
}

// aroundKey carries the events of a run's run:start or run:end hooks
// (permission decisions about hook commands), which no turn is there to
// stream; hookedTurn yields them.
type aroundKey struct{}

// around collects events emitted around a turn.
type around struct {
	mu  sync.Mutex
	evs []Event
}

// aroundOf returns the collector in ctx, or nil.
func aroundOf(ctx context.Context) *around {
	c, _ := ctx.Value(aroundKey{}).(*around)
	return c
}

// add keeps ev; a nil collector drops it.
func (c *around) add(ev Event) {
	if c == nil {
		return
	}
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

// identKey carries the hook identity of a run (see hookedTurn).
type identKey struct{}

// identity is the hook identity of the run ctx belongs to (its session,
// its own runId, agentId for a subagent, source).
func identity(ctx context.Context) hook.Identity {
	id, ok := ctx.Value(identKey{}).(hook.Identity)
	if !ok {
		id = hook.Identity{Source: hook.SourceUser}
	}
	return id
}

// inHookKey marks the context a hook of an agent is given.
type inHookKey struct{}

// hookMark is the mark: the agent whose hooks run, while they run.
type hookMark struct {
	a    *Agent
	done atomic.Bool
}

// fireHooks runs the hooks of p with a context marked as a hook's of a
// until they return.
func (a *Agent) fireHooks(ctx context.Context, p hook.Payload) hook.Outcome {
	m := &hookMark{a: a}
	out := a.hooks.Fire(context.WithValue(ctx, inHookKey{}, m), p)
	m.done.Store(true)
	return out
}

// inHook reports whether ctx is one a hook of a was given, while that hook
// runs: a call it schedules for later, with its context, is not refused.
func inHook(ctx context.Context, a *Agent) bool {
	m, _ := ctx.Value(inHookKey{}).(*hookMark)
	return m != nil && m.a == a && !m.done.Load()
}

// runSession returns the session of the run ctx belongs to, also around
// its turn (run:start and run:end hooks), where the engine's context has
// none; "" outside a run with hooks.
func runSession(ctx context.Context) string {
	id, _ := ctx.Value(identKey{}).(hook.Identity)
	return id.SessionID
}

// hookedTurn wraps a turn with run:start and run:end hooks. ident gives
// the run's session, agentId (a subagent's) and source; the run gets its own
// runId, which its tool hooks see too. Diagnostics of run:start are yielded
// before the turn's first event; run:end runs before the done event is
// yielded (or when the turn ends otherwise).
func (a *Agent) hookedTurn(ctx context.Context, ident hook.Identity, prompt string, start func(context.Context) iter.Seq2[Event, error]) iter.Seq2[Event, error] {
	if a.hooks == nil {
		return start(ctx)
	}
	return func(yield func(Event, error) bool) {
		id := ident.SessionID
		ident.RunID = newSessionID()
		ctx := context.WithValue(ctx, identKey{}, ident)
		turn := start(ctx)
		// Decisions about hook commands come before the turn's events and
		// before done.
		// The hooks' decisions go to this run's turn or its collector,
		// never to the turn of a tool that started the run: they are
		// routed by this run's session.
		evs := &around{}
		hookCtx := context.WithValue(ctx, aroundKey{}, evs)
		input, _ := json.Marshal(prompt)
		end := hook.RunEnd{Identity: ident, Status: hook.StatusCompleted}
		ended := false
		fireEnd := func() {
			if ended {
				return
			}
			ended = true
			for _, d := range a.fireHooks(context.WithoutCancel(hookCtx), end).Diagnostics {
				a.log.Warn("hook failed", "event", d.Event, "hook", d.Label)
			}
		}
		// run:end fires once whatever happens from here, a consumer that
		// stops at a run:start diagnostic included.
		defer fireEnd()
		out := a.fireHooks(hookCtx, hook.RunStart{Identity: ident, Input: input})
		for _, ev := range evs.take(id) {
			if !yield(ev, nil) {
				end.Status = hook.StatusCancelled
				return
			}
		}
		for _, d := range out.Diagnostics {
			if !yield(Event{Type: engine.EventDiagnostic, SessionID: id, Code: d.Code, Text: d.Message}, nil) {
				end.Status = hook.StatusCancelled
				return
			}
		}
		for ev, err := range turn {
			if err != nil {
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
			if ev.Type == engine.EventDone && ev.Done != nil {
				switch ev.Done.StopReason {
				case engine.StopAborted:
					end.Status = hook.StatusCancelled
				case engine.StopMaxTurns:
					end.Status = hook.StatusMaxTurns
				}
				end.Result = &hook.RunResult{Text: ev.Done.Text, Usage: ev.Done.Usage, StopReason: string(ev.Done.StopReason), Output: ev.Done.Output}
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
func (a *Agent) permitHook(ctx context.Context, req hook.PermitRequest) (bool, error) {
	if a.permit == nil {
		return false, nil
	}
	return a.permit(ctx, hook.ToolName, req.Input)
}
