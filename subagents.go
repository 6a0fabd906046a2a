package liteagent

import (
	"context"
	"errors"
	"iter"
	"slices"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/subagent"
	"github.com/lite-agent/lite-agent-go/task"
	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/lite-agent/lite-agent-go/tool/builtin/bash"
)

// agentTool returns the Agent tool over the agent's pool. Children are run
// by runChild and their group results delivered by deliver.
func (a *Agent) agentTool(opts Options, defs []subagent.Definition) tool.Tool {
	return subagent.Tool(subagent.ToolOptions{
		Definitions:  defs,
		Pool:         a.pool,
		Run:          a.runChild,
		Deliver:      a.deliver,
		Workdir:      a.lay.workdir,
		AllowedTools: opts.AllowedTools,
		Tasks: func(ctx context.Context, sessionID string) (task.Store, error) {
			if opts.DisableTasks {
				return nil, nil
			}
			return a.taskWriter(ctx, sessionID)
		},
		Emit: func(ctx context.Context, c *tool.Call, ev subagent.Event) {
			// Announcements reach the parent's stream only while its turn
			// still runs tools; afterwards the group is detached.
			out := Event{AgentID: ev.CallID}
			switch ev.Type {
			case subagent.EventTaskUpdate:
				out.Type, out.Task = engine.EventTaskUpdate, &TaskEvent{ID: ev.TaskID, Status: ev.TaskStatus, Owner: ev.Owner}
			case subagent.EventDiagnostic:
				out.Type, out.Diagnostic, out.Text = engine.EventDiagnostic, &DiagnosticEvent{Code: ev.Code}, ev.Message
			default:
				return
			}
			c.Emit(out)
		},
	})
}

// runChild runs one subagent: a turn of its own session (agent-<type>-<8
// hex>, in the same sessions directory, same codec and project hash) on an
// engine built from the root's frozen configuration, with the root's
// provider, permission gate and hooks, the parent session's task list, and
// no Agent tool.
func (a *Agent) runChild(ctx context.Context, req subagent.ChildRequest) (subagent.ChildResult, error) {
	defer a.sched.addChild(req.SessionID, req.ParentSessionID, task.DefaultListID(req.ParentSessionID, a.lay.taskListID))()
	var tools []tool.Tool
	for _, t := range a.tools {
		if t.Name() == subagent.ToolName || t.Name() == FinalAnswerTool || t.Name() == AskUserTool {
			continue // children dispatch no groups; the output schema and the user are the parent's
		}
		if req.AllowedTools != nil && !slices.Contains(req.AllowedTools, t.Name()) {
			continue
		}
		tools = append(tools, t)
	}
	eopts := a.engineOpts
	eopts.Tools, eopts.System = tools, req.System
	eopts.IdentifiedOnly = false // the child's session is this run's: new, or resumed as stored
	if req.Model != "" {
		eopts.Model = req.Model
	}
	eng, err := engine.New(eopts)
	if err != nil {
		return subagent.ChildResult{}, err
	}
	// A child's run has its own runId and its agentId; its source is that
	// of the run that dispatched it.
	ident := hook.Identity{SessionID: req.SessionID, AgentID: req.AgentID, Source: a.runs.identity(req.ParentSessionID).Source}
	// Decisions around the child's own turn go through the child's engine;
	// nothing of the Agent call's turn is in ctx, so the child's run
	// cannot reach that turn.
	for ev, err := range a.tracedTurn(ctx, eng, ident, req.Type, eopts.Model, req.Prompt, func(ctx context.Context) iter.Seq2[Event, error] {
		return eng.Turn(ctx, req.SessionID, model.UserText(req.Prompt))
	}) {
		ev.AgentID = req.AgentID
		a.publishSubagent(Notice{SessionID: req.SessionID, Source: ident.Source, Event: ev})
		if err != nil {
			return subagent.ChildResult{}, err
		}
		if ev.Type == engine.EventDone {
			return subagent.ChildResult{Text: ev.Result.Text, StopReason: string(ev.Result.StopReason)}, nil
		}
	}
	return subagent.ChildResult{}, ctx.Err()
}

// deliver appends a finished group's completion to the parent session as a
// background message and runs one autonomous turn on it. The turn waits for
// any prompt running on that session. Its failures are logged.
//
// The turn ends when the agent closes; none starts on a session deleted
// since the group was dispatched.
func (a *Agent) deliver(ctx context.Context, sessionID string, c subagent.GroupCompletion) {
	if c.Status == subagent.StatusCancelled && a.sched.groupDropped(sessionID) {
		return
	}
	status := engine.CompletionStatus(c.Status)
	if c.Status == subagent.StatusFailed {
		status = engine.CompletionError // as the message says it
	}
	a.deliverMessage(ctx, sessionID, c.Message, engine.BackgroundCompletion{ID: c.ID, Label: c.Label, Status: status, IsError: c.IsError, Content: c.Content})
}

// bashExited delivers the completion of a background bash command to the
// session that started it, as a group's is delivered; the agent's Close
// waits for the delivery.
//
// A subagent's command is delivered to the session that dispatched the
// subagent: the child's own session has no turns after its run. Commands
// that DeleteSession killed are not delivered.
func (a *Agent) bashExited(c bash.Completion) {
	dropped := a.sched.commandDropped(c.ID)
	target := c.SessionID
	if p, ok := a.sched.parent(target); ok {
		target = p
	}
	if target == "" || dropped {
		return
	}
	a.deliveries.Add(1)
	// The session has work under way until the delivery is over: a sweep
	// (forgetLeft) between the command's end and the delivery's turn
	// would otherwise forget it, and the turn fail.
	endDelivery := a.sched.beginDelivery(target)
	go func() {
		defer a.deliveries.Done()
		defer endDelivery()
		if a.deliveryStarting != nil {
			a.deliveryStarting(target)
		}
		st := engine.CompletionStatus(c.Status())
		a.deliverMessage(a.life, target, c.Message(), engine.BackgroundCompletion{ID: c.ID, Label: c.Label(), Status: st, IsError: st != engine.CompletionCompleted, Content: c.Content})
	}()
}

// deliverMessage runs one autonomous turn on session sessionID whose input
// is message, the notice of the background work c that ended.
func (a *Agent) deliverMessage(ctx context.Context, sessionID, message string, c engine.BackgroundCompletion) {
	base := context.WithoutCancel(ctx)
	ctx, done, err := a.startTurn(base, sessionID, true)
	for errors.Is(err, ErrSessionBusy) && a.sched.awaitOp(a.life, sessionID) {
		ctx, done, err = a.startTurn(base, sessionID, true) // after the restore
	}
	if err != nil {
		return
	}
	defer done()
	// The delivery comes after the prompts in progress on the session, as
	// subscribers see it too: their done events come first.
	if err := a.sched.awaitPrompts(ctx, sessionID); err != nil {
		return
	}
	release, err := a.leaseSession(ctx, sessionID)
	if err != nil {
		a.log.Warn("background turn not run", "session", sessionID, "task", c.ID, "err", err)
		return
	}
	defer release()
	a.publish(Notice{SessionID: sessionID, Source: hook.SourceBackground, Event: Event{Type: engine.EventBackgroundCompleted, SessionID: sessionID, Text: message, Completion: &c}})
	ident := hook.Identity{SessionID: sessionID, Source: hook.SourceBackground}
	for ev, err := range a.tracedTurn(ctx, a.eng, ident, "", "", message, func(ctx context.Context) iter.Seq2[Event, error] {
		return a.eng.TurnFrom(ctx, sessionID, model.UserText(message), session.OriginBackground)
	}) {
		a.publish(Notice{SessionID: sessionID, Source: hook.SourceBackground, Event: ev})
		if err != nil {
			a.log.Warn("background turn failed", "session", sessionID, "task", c.ID, "err", err)
			return
		}
		if ev.Type == engine.EventDone && ev.Result != nil {
			a.sched.setAutonomous(sessionID, ev.Result)
		}
	}
}

// AwaitIdle waits until the current session has no subagent group queued or
// running and their results have been delivered (the autonomous turn that
// follows a delivery included), or until ctx is done.
func (a *Agent) AwaitIdle(ctx context.Context) error {
	if !a.made() {
		return ErrClosed
	}
	if inHook(ctx, a) {
		return ErrReentrant
	}
	if a.pool == nil {
		return nil
	}
	return a.pool.Wait(ctx, a.SessionID())
}
