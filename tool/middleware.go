package tool

import (
	"context"
	"encoding/json"
)

// CallFunc is the shape of [Tool.Call]. A [Middleware] wraps one.
type CallFunc func(ctx context.Context, c *Call, input json.RawMessage) (Result, error)

// A Middleware wraps the calls of a tool: it returns the function that runs
// in place of next. It runs before and after each call, with the call's
// identity in c (ID, Name, SessionID, Turn; c is never nil), and may change
// the input, the result or the error, or answer without calling next. A
// Middleware must be safe for concurrent use: the engine runs calls
// concurrently.
type Middleware func(next CallFunc) CallFunc

// Use returns t with its calls sent through mws, the first outermost:
// mws[0] sees a call first and its result last. With no middleware it
// returns t. The returned tool has t's name, description and schema, and
// its Unwrap() Tool method returns t.
func Use(t Tool, mws ...Middleware) Tool {
	if len(mws) == 0 {
		return t
	}
	call := func(ctx context.Context, c *Call, input json.RawMessage) (Result, error) {
		return t.Call(ctx, c, input)
	}
	for i := len(mws) - 1; i >= 0; i-- {
		call = mws[i](call)
	}
	return &usedTool{Tool: t, call: call}
}

// usedTool is the Tool Use returns. Its fields are fixed at construction.
type usedTool struct {
	Tool
	call CallFunc
}

// Unwrap returns the wrapped tool.
func (u *usedTool) Unwrap() Tool { return u.Tool }

// Call runs the call through the middleware. A nil c becomes a zero Call
// named after the tool, so that middleware always sees the call's name.
func (u *usedTool) Call(ctx context.Context, c *Call, input json.RawMessage) (Result, error) {
	if c == nil {
		c = &Call{Name: u.Name()}
	}
	return u.call(ctx, c, input)
}
