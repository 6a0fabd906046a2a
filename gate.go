package liteagent

import (
	"context"
	"errors"
	"os"
	"slices"
	"time"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/tool"
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
		Policy:    policy,
		Approve:   opts.OnApproval,
		Queue:     permission.NewApprovalQueue(),
		DryRun:    opts.PermissionDryRun,
		SecretEnv: slices.Clone(opts.SecretEnv),
		Redact:    opts.Redact,
		Emit: func(ctx context.Context, c *tool.Call, ev permission.Event) {
			call := model.ToolCallBlock(ev.Call.ID, ev.Call.Name, ev.Call.Input)
			out := Event{Tool: &ToolEvent{Call: &call}, Permission: &PermissionEvent{
				Decision: engine.Decision(decisionString(ev.Decision)), By: engine.DecidedBy(ev.By),
				RuleID: ev.RuleID, Reason: ev.Reason, Simulated: ev.Simulated,
			}}
			switch ev.Type {
			case permission.EventPermissionDecision:
				out.Type = engine.EventPermission
			case permission.EventApprovalRequest:
				out.Type = engine.EventApprovalAsk
			default:
				out.Type = engine.EventApprovalAnswer
			}
			if c != nil {
				c.Emit(out) // a tool call's, into its turn
				return
			}
			if hc, ok := a.runs.call(ev.Call.ID); ok && hc.run != nil {
				hc.run.around.add(out) // a hook command's, around a turn
				return
			}
			a.notify(ev.Call.SessionID, out) // a hook command's or a connection's, within a turn
		},
	}
	if opts.PermissionAudit {
		g.Audit = func(ctx context.Context, c *tool.Call, ev permission.Event) error {
			return a.audit(ctx, c, auditRecord(ev))
		}
	}
	// The gate denies bash lines that write the protected paths, and asks
	// about those it cannot analyze, whatever the policy says.
	g.Workdir, g.Protected = a.lay.workdir, a.lay.paths.ProtectedPaths()
	// The environment the bash tool gives its commands: Options.Bash.Env,
	// or the process's, read at each call as the tool reads it.
	bashEnv := slices.Clone(opts.Bash.Env)
	g.BashEnv = func() []string {
		if bashEnv != nil {
			return bashEnv
		}
		return os.Environ()
	}
	if fp, ok := opts.Permission.(*permission.FilePolicy); ok {
		for _, src := range fp.Sources() {
			g.Protected = append(g.Protected, src.Path)
		}
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
	a.permit = func(ctx context.Context, call permission.Call) (bool, error) {
		out, err := enforcing.Authorize(ctx, call)
		return out.Run, err
	}
	return gate, nil
}

// auditTimeout bounds how long a decision made around a turn waits to be
// appended to its session's log.
const auditTimeout = 5 * time.Minute

// audit appends a permission decision to the session log through the
// engine. Within a turn it is appended at once, so that it precedes the
// tool's result, and a failure stops the call. Around a turn (a run:start
// or run:end hook's) it is appended in the background, between the
// session's turns: waiting there for another turn to end would hold the
// hook past its timeout. Close waits for those appends; a failure is
// logged.
func (a *Agent) audit(ctx context.Context, tc *tool.Call, ev session.PermissionDecisionEvent) error {
	if tc != nil {
		return engine.Record(ctx, tc, ev)
	}
	c, ok := a.runs.call(ev.Call.ID)
	if !ok || c.session == "" {
		return errors.New("liteagent: a permission decision outside any run cannot be audited")
	}
	if c.run == nil { // a tool's or a compaction's hook, within the turn
		return a.engineOf(c.session).RecordInTurn(ctx, c.session, ev)
	}
	id, eng := c.session, c.run.eng
	// Counted as work of the session until written: a sweep keeps its
	// deleted mark, which keep asks, meanwhile.
	endAudit := a.sched.beginAudit(id)
	a.audits.Go(func() {
		defer endAudit()
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), auditTimeout)
		defer cancel()
		// Dropped if the session was deleted meanwhile: the decision
		// must not bring its log back.
		keep := func() bool { return !a.sched.isDeleted(id) }
		if err := a.recordBetweenTurns(ctx, eng, id, ev, keep); err != nil {
			a.log.Warn("permission audit failed", "session", id, "tool", ev.Call.Name, "err", err)
		}
	})
	return nil
}

// recordBetweenTurns appends ev to session id's log through eng between
// its turns (see [engine.Engine.RecordBetweenTurns]), under the session's
// lease where the checkpointer leases (shared with the agent's turns):
// the engine checks the session's first record when it loads the log,
// and no other process deletes the session and starts it again between
// that check and the append. Without the lease the two were two queries
// apart, and the record went into the other process's new session. A
// session another holder leases fails it with that holder's error, as
// the append would.
func (a *Agent) recordBetweenTurns(ctx context.Context, eng *engine.Engine, id string, ev session.Event, keep func() bool) error {
	release, err := a.leaseSession(ctx, id)
	if err != nil {
		return err
	}
	defer release()
	return eng.RecordBetweenTurns(ctx, id, ev, keep)
}

// auditRecord converts the gate's decision event into the session log's
// audit record (its Turn is set when it is appended).
func auditRecord(ev permission.Event) session.PermissionDecisionEvent {
	return session.PermissionDecisionEvent{
		Call:      session.PermissionCall{ID: ev.Call.ID, Name: ev.Call.Name, Input: ev.Call.Input},
		Decision:  decisionString(ev.Decision),
		RuleID:    ev.RuleID,
		Reason:    ev.Reason,
		Simulated: ev.Simulated,
		By:        ev.By,
	}
}

func decisionString(d permission.Decision) string {
	if !d.Valid() {
		return ""
	}
	return d.String()
}
