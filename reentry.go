package liteagent

import (
	"context"
	"encoding/json"
	"sync/atomic"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/tool"
)

// markKey marks the context that a hook of an agent, or a tool call of one
// of its turns, runs with.
//
// This is the one context value of the root, and it is not how tools or
// hooks learn about their call or run: tools receive a [tool.Call], hooks
// their payload. It exists because host code that a hook or a tool calls
// back (an approval handler, a custom tool, a hook's own Go code) may call
// [Agent.DeleteSession], [Agent.Shutdown] or a prompt with nothing but its
// ctx, and those must tell such a call, which would otherwise wait for
// itself, from any other caller.
type markKey struct{}

// mark is what markKey holds: the agent, whether a hook or a tool call
// runs, and for a tool call the session whose turn makes it. It counts
// only while the hook or call runs: work it leaves behind with its context
// is not it.
type mark struct {
	a       *Agent
	hook    bool
	session string // a tool call's session
	done    atomic.Bool
}

// withMark returns ctx marked with m, replacing any outer mark.
func withMark(ctx context.Context, m *mark) context.Context {
	return context.WithValue(ctx, markKey{}, m)
}

// markOf returns the live mark of a in ctx, or nil.
func markOf(ctx context.Context, a *Agent) *mark {
	m, _ := ctx.Value(markKey{}).(*mark)
	if m == nil || m.a != a || m.done.Load() {
		return nil
	}
	return m
}

// fireHooks runs the hooks of p with a context marked as a hook's of a
// until they return.
func (a *Agent) fireHooks(ctx context.Context, p hook.Payload) hook.Outcome {
	m := &mark{a: a, hook: true}
	defer m.done.Store(true)
	return a.hooks.Fire(withMark(ctx, m), p)
}

// inHook reports whether ctx is one a hook of a was given, while that hook
// runs: a call it schedules for later, with its context, is not refused.
func inHook(ctx context.Context, a *Agent) bool {
	m := markOf(ctx, a)
	return m != nil && m.hook
}

// callMarkOf returns the mark of a running tool call of a in ctx, or nil.
func callMarkOf(ctx context.Context, a *Agent) *mark {
	m := markOf(ctx, a)
	if m == nil || m.hook {
		return nil
	}
	return m
}

// markedTool marks the context of each call of a tool of a.
type markedTool struct {
	tool.Tool
	a *Agent
}

// Unwrap returns the marked tool.
func (t markedTool) Unwrap() tool.Tool { return t.Tool }

func (t markedTool) Call(ctx context.Context, c *tool.Call, input json.RawMessage) (tool.Result, error) {
	m := &mark{a: t.a}
	if c != nil {
		m.session = c.SessionID
	}
	defer m.done.Store(true)
	return t.Tool.Call(withMark(ctx, m), c, input)
}

// engineOf returns the engine that runs the turns of session id: that of
// the run holding it (a subagent's own), or the agent's.
func (a *Agent) engineOf(id string) *engine.Engine {
	return a.runs.engine(id, a.eng)
}

// notify sends ev to the turn running on session id, if one runs and
// listens (see [engine.Engine.Notify]).
func (a *Agent) notify(id string, ev Event) {
	if id != "" {
		a.engineOf(id).Notify(id, ev)
	}
}
