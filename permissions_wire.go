package liteagent

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/session"
)

// newGate builds the permission gate of an agent family: the policy (the
// default one when none is given) behind the workspace wrapper that
// canonicalises file paths, one serial approval queue, events into the
// turn's stream and, when enabled, audit records in the session log.
func (a *Agent) newGate(opts Options) (*permission.Gate, error) {
	policy := opts.Permission
	if policy == nil {
		policy = permission.Default()
	}
	policy, err := permission.Workspace(policy, permission.WorkspaceOptions{Workdir: a.lay.workdir})
	if err != nil {
		return nil, err
	}
	g := permission.GateOptions{
		Policy:  policy,
		Approve: opts.OnApproval,
		Queue:   permission.NewApprovalQueue(),
		DryRun:  opts.PermissionDryRun,
		Redact:  opts.Redact,
		Emit: func(ctx context.Context, ev permission.Event) {
			call := model.ToolCallBlock(ev.Call.ID, ev.Call.Name, ev.Call.Input)
			out := Event{Call: &call, Decision: decisionString(ev.Decision), By: ev.By, RuleID: ev.RuleID, Reason: ev.Reason, Simulated: ev.Simulated}
			switch ev.Type {
			case permission.EventPermissionDecision:
				out.Type = engine.EventPermission
			case permission.EventApprovalRequest:
				out.Type = engine.EventApprovalAsk
			default:
				out.Type = engine.EventApprovalAnswer
			}
			engine.Emit(ctx, out)
		},
		CallInfo: func(ctx context.Context) (string, string) { return engine.CallID(ctx), engine.SessionID(ctx) },
	}
	if opts.PermissionAudit {
		g.Audit = a.audit
	}
	gate := permission.NewGate(g)
	// Hook commands and MCP connections are authorized for real even in a
	// dry run, an ask going to the approval handler: a dry run simulates
	// the decisions about the model's tool calls only.
	enforcing := gate
	if g.DryRun {
		g.DryRun = false
		enforcing = permission.NewGate(g)
	}
	a.permit = func(ctx context.Context, name string, input json.RawMessage) (bool, error) {
		out, err := enforcing.Authorize(ctx, permission.Call{Name: name, Input: input, SessionID: cmp.Or(engine.SessionID(ctx), runSession(ctx))})
		return out.Run, err
	}
	return gate, nil
}

// audit appends a permission decision to the session log through the
// engine: within a turn, so that it precedes the tool's result; around a
// turn (a run:start or run:end hook's), to the run's session between its
// turns.
func (a *Agent) audit(ctx context.Context, ev session.PermissionDecisionEvent) error {
	if engine.SessionID(ctx) != "" {
		return a.eng.Record(ctx, ev)
	}
	id := runSession(ctx)
	if id == "" {
		return errors.New("liteagent: a permission decision outside any run cannot be audited")
	}
	return a.eng.RecordBetweenTurns(ctx, id, ev)
}

func decisionString(d permission.Decision) string {
	if !d.Valid() {
		return ""
	}
	return d.String()
}
