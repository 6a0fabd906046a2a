package liteagent

import (
	"context"
	"errors"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/mcphost"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/tool"
)

// newMCPHost builds the MCP host of the family from the validated config.
// It connects nothing: each server is started or contacted only when the
// first prompt needs the tools, and only after the mcp_connect permission.
func (a *Agent) newMCPHost(cfg mcphost.Config) (*mcphost.Host, error) {
	return mcphost.New(cfg, mcphost.Options{
		Dir: a.lay.workdir,
		Connect: func(ctx context.Context, req mcphost.ConnectRequest) error {
			// The decision is registered under an id of its own, as a hook
			// command's is, so that its events and audit record reach the
			// turn of the prompt that connects.
			id := newSessionID()
			defer a.runs.decide(id, hookCall{session: req.SessionID})()
			ok, err := a.permit(ctx, permission.Call{ID: id, Name: mcphost.PermissionName, Input: req.Input(), SessionID: req.SessionID})
			if err != nil {
				return err
			}
			if !ok {
				return errors.New("mcp_connect denied")
			}
			return nil
		},
		Archive: func(ctx context.Context, sessionID string) (archive.Archive, error) {
			return a.sessionArchive(ctx, sessionID)
		},
		Logger: a.log,
	})
}

// mcpTools returns the MCP tools for one prompt, behind the gate and the
// tool hooks. A server that cannot be reached (or is not permitted) leaves
// the prompt without MCP tools and a diagnostic in the log; it does not fail
// the prompt.
func (a *Agent) mcpTools(gate *permission.Gate, opts Options) func(ctx context.Context, sessionID string) ([]tool.Tool, error) {
	return func(ctx context.Context, sessionID string) ([]tool.Tool, error) {
		ts, err := a.mcp.ToolsFor(ctx, sessionID)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			a.log.Warn("MCP tools unavailable", "err", err)
			return nil, nil
		}
		return a.filterAndWrap(ts, gate, opts), nil
	}
}
