package liteagent

import (
	"context"
	"encoding/json"

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
		g.Audit = func(ctx context.Context, ev session.PermissionDecisionEvent) error {
			return a.eng.Record(ctx, ev)
		}
	}
	gate := permission.NewGate(g)
	a.permit = func(ctx context.Context, name string, input json.RawMessage) (bool, error) {
		out, err := gate.Authorize(ctx, permission.Call{Name: name, Input: input, SessionID: engine.SessionID(ctx)})
		// Never run on a simulated decision: a dry run still enforces
		// the permission of hook commands.
		return out.Run && (!out.Simulated || out.Decision == permission.Allow), err
	}
	return gate, nil
}

func decisionString(d permission.Decision) string {
	if !d.Valid() {
		return ""
	}
	return d.String()
}
