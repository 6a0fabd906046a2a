package liteagent

import (
	"context"
	"encoding/json"
	"sync/atomic"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/tool"
)

// workKey marks the contexts the agent hands to its own work: each call of
// a tool of its turns, and its hooks, while they run.
//
// This is the one context value of the root, engine, tool and tool/builtin
// packages, and it is not how work learns about itself: a tool receives a
// [tool.Call], a hook its payload. It exists because host code that the
// agent's work runs (an approval handler, a custom tool, a Go hook) may
// call the agent's Run, Send, AwaitIdle, DeleteSession or Shutdown with
// nothing but the ctx it was given, and those must tell the agent's own
// work, which they would otherwise wait for forever, from any other
// caller. Only those guards read it.
type workKey struct{}

// work is the mark: whose work it is, what work (a hook, or a tool call
// of a turn), and whether it still runs. It holds no ids: the agent's
// schedule knows the session of a tool call's mark (see callSession). A
// mark keeps the one it covers in ctx, so that work nested in work of
// another agent is recognised by both agents.
type work struct {
	a     *Agent
	hook  bool // a hook of a; else a tool call of a's turn
	done  atomic.Bool
	outer *work
}

// withWork returns ctx marked with w until w.done is set.
func withWork(ctx context.Context, w *work) context.Context {
	w.outer, _ = ctx.Value(workKey{}).(*work)
	return context.WithValue(ctx, workKey{}, w)
}

// workOf returns the innermost mark in ctx of work of a, of the kind hook
// says, that still runs; nil if there is none.
func workOf(ctx context.Context, a *Agent, hook bool) *work {
	w, _ := ctx.Value(workKey{}).(*work)
	for ; w != nil; w = w.outer {
		if w.a == a && w.hook == hook && !w.done.Load() {
			return w
		}
	}
	return nil
}

// callSession returns the session of the running tool call of a whose
// context ctx is, if it is one.
func (a *Agent) callSession(ctx context.Context) (string, bool) {
	w := workOf(ctx, a, false)
	if w == nil {
		return "", false
	}
	return a.sched.callSession(w)
}

// inHook reports whether ctx is one a hook of a was given, while that hook
// runs: a call it schedules for later, with its context, is not refused.
func inHook(ctx context.Context, a *Agent) bool { return workOf(ctx, a, true) != nil }

// markedTool marks the context of each call of a tool of a.
type markedTool struct {
	tool.Tool
	a *Agent
}

// Unwrap returns the marked tool.
func (t markedTool) Unwrap() tool.Tool { return t.Tool }

// Call calls the tool with ctx marked as the call's of t.a.
func (t markedTool) Call(ctx context.Context, c *tool.Call, input json.RawMessage) (tool.Result, error) {
	w := &work{a: t.a}
	var session string
	if c != nil {
		session = c.SessionID
	}
	end := t.a.sched.startCall(w, session)
	defer func() {
		w.done.Store(true)
		end()
	}()
	return t.Tool.Call(withWork(ctx, w), c, input)
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
