package liteagent

import (
	"context"
	"encoding/json"
	"sync/atomic"

	"github.com/lite-agent/lite-agent-go/tool"
)

// callMarkKey marks the context a tool call of an agent's turn runs with.
//
// This is the one context value the root adds for tool calls, and it is
// not how tools learn about their call: they receive a [tool.Call]. It
// exists because host code a tool calls back (an approval handler, a
// custom tool) may call [Agent.DeleteSession] or [Agent.Shutdown] with
// nothing but its ctx, and those must tell a call of the agent's own
// turns, which they would otherwise wait for forever, from any other
// caller.
type callMarkKey struct{}

// callMark is the mark: the agent and the session whose turn makes the
// call, while the call runs.
type callMark struct {
	a       *Agent
	session string
	done    atomic.Bool // the call returned: work it left behind is not the call
}

// markedTool marks the context of each call of a tool of a.
type markedTool struct {
	tool.Tool
	a *Agent
}

// Unwrap returns the marked tool.
func (m markedTool) Unwrap() tool.Tool { return m.Tool }

func (m markedTool) Call(ctx context.Context, c *tool.Call, input json.RawMessage) (tool.Result, error) {
	mark := &callMark{a: m.a}
	if c != nil {
		mark.session = c.SessionID
	}
	defer mark.done.Store(true)
	return m.Tool.Call(context.WithValue(ctx, callMarkKey{}, mark), c, input)
}

// callMarkOf returns the mark of a running tool call of a in ctx, or nil.
func callMarkOf(ctx context.Context, a *Agent) *callMark {
	m, _ := ctx.Value(callMarkKey{}).(*callMark)
	if m == nil || m.a != a || m.done.Load() {
		return nil
	}
	return m
}
