package subagent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/lite-agent/lite-agent-go/task"
	"github.com/lite-agent/lite-agent-go/tool"
)

const (
	// ToolName is the name of the tool that dispatches subagents. A
	// subagent is never given a tool of this name.
	ToolName = "Agent"

	// MaxTasks is the most tasks one Agent call may dispatch.
	MaxTasks = 50

	// maxResumeBytes bounds a resume id, which becomes a file name.
	maxResumeBytes = 160

	// recordTimeout bounds recording a child's outcome on its task, which
	// happens even when the group was cancelled.
	recordTimeout = 30 * time.Second
)

// The stop reasons a [ChildResult] reports.
const (
	StopReasonStop     = "stop"      // the child gave its final answer
	StopReasonAborted  = "aborted"   // the child's context was cancelled
	StopReasonMaxTurns = "max_turns" // the child ran out of turns
)

// Status is the outcome of one subagent or of a whole group.
type Status string

// The outcomes. A child is completed, failed or cancelled; a group is
// completed, failed or cancelled when all its children are, and partial
// otherwise.
const (
	StatusCompleted Status = "completed"
	StatusFailed    Status = "failed"
	StatusCancelled Status = "cancelled"
	StatusPartial   Status = "partial"
)

// ToolOptions configures the Agent tool returned by [Tool]. Definitions,
// Pool, Run and Deliver are required.
type ToolOptions struct {
	// Definitions are the subagent types the model may dispatch, such as
	// [Load] returns. With two of the same name, the later one is used.
	// Empty means every dispatch fails as an unknown subagent_type.
	Definitions []Definition

	// Pool runs the children and owns the groups' goroutines. One pool is
	// shared by the root agent and all its sessions.
	Pool *Pool

	// Run runs one child agent to completion and returns its final text
	// and stop reason; see [ChildRequest] for what the host must build. It
	// is called on a goroutine of the pool, holding a slot; its ctx is
	// cancelled when the group is cancelled or the pool closes, and the
	// child must then stop and report StopReasonAborted (or return
	// ctx.Err()). An error fails the child with the error's text (or
	// cancels it, when ctx is done); a panic fails it too.
	Run func(ctx context.Context, req ChildRequest) (ChildResult, error)

	// Deliver hands a finished group to the parent session, which appends
	// [GroupCompletion.Message] as a user message and runs an autonomous
	// turn. It is called once per group, on the group's goroutine, after
	// every child has finished, unless the pool has begun closing; the
	// group counts as running (see [Pool.Wait]) until Deliver returns. Its
	// ctx carries the values of the Agent call's context, not its
	// cancellation.
	Deliver func(ctx context.Context, sessionID string, c GroupCompletion)

	// Tasks returns the task list of session sessionID, the parent session
	// of an Agent call (its [tool.Call.SessionID]). nil, or a nil Store,
	// means no task tracking: task_id is refused and children get no
	// task. An error fails the call.
	Tasks func(ctx context.Context, sessionID string) (task.Store, error)

	// Emit receives the group's announcements: tool_use and tool_result
	// for each child and task_update for its task. nil drops them. It is
	// called from the group's goroutines, concurrently, and must not
	// block for long. c is the Agent call that started the group, through
	// which a host reports to that call's turn (which may have ended).
	Emit func(ctx context.Context, c *tool.Call, ev Event)

	// DisableBackground makes every call fail with "Agent requires
	// background tasks; enable background to dispatch subagents.", for a
	// host whose background work is switched off. Groups always run
	// detached, so the zero value dispatches.
	DisableBackground bool

	// Workdir is the working directory named in the child's system prompt.
	Workdir string

	// AllowedTools is the parent's tool allow-list; nil means the parent
	// may use all its tools. A child's list is the definition's tools
	// intersected with it when both are set, else whichever is set,
	// always without ToolName.
	AllowedTools []string

	// Models are the tier names of the host's model catalog. When set, a
	// task's model must be one of them; nil accepts any model string.
	Models []string
}

// A ChildRequest is everything the host needs to build and run one child
// agent. The host builds the child from the root's frozen layout (the same
// namespace, home, workdir, project hash, storage and codec), with:
//
//   - session id SessionID, in the same sessions directory as the parent,
//     so that a later resume continues it; the input is the single user
//     message Prompt;
//   - system prompt System;
//   - the allowed tools AllowedTools (nil: the parent's), never a tool
//     named ToolName and no Agent tool of its own, so that a child cannot
//     dispatch subagents;
//   - the model Model resolved against the parent's active model ("": the
//     parent's);
//   - the parent session's task list, a permission policy composed so it
//     cannot exceed the parent's, with the shared approval queue, the
//     shared hooks and MCP connections (not closed with the child);
//   - its events forwarded live, stamped with AgentID.
type ChildRequest struct {
	// ParentSessionID is the session of the Agent call.
	ParentSessionID string
	// GroupID is the group's background id.
	GroupID string
	// SessionID is the child's session id: the resume id, or
	// agent-<type>-<8 hex digits>.
	SessionID string
	// AgentID stamps the child's events; it equals SessionID.
	AgentID string
	// Resume reports that SessionID came from the task's resume.
	Resume bool
	// Type is the definition's name; Definition is the definition itself.
	Type       string
	Definition Definition
	// DisplayName is the task's display name with control and format
	// characters replaced by spaces, trimmed.
	DisplayName string
	// Prompt is the task's prompt, the child's only user message.
	Prompt string
	// Model is the task's model, else the definition's; "" inherits.
	Model string
	// System is the child's system prompt: [SystemPrompt] of the type,
	// the workdir and the definition's prompt.
	System string
	// AllowedTools is the child's tool allow-list; nil means the parent's
	// tools, minus ToolName. It never contains ToolName.
	AllowedTools []string
	// TaskID is the id of the child's task in the parent's task list; ""
	// without task tracking.
	TaskID string
}

// A ChildResult is how a child run ended.
type ChildResult struct {
	// Text is the child's final answer.
	Text string
	// StopReason is StopReasonStop, StopReasonAborted or
	// StopReasonMaxTurns.
	StopReason string
}

// A ChildOutcome is one child's part of a [GroupCompletion].
type ChildOutcome struct {
	// AgentID is the child's id, or "-" for an unknown subagent_type.
	AgentID string
	// DisplayName and Type are the task's, cleaned.
	DisplayName, Type string
	// TaskID is the child's task; "" without one.
	TaskID string
	// Status is completed, failed or cancelled.
	Status Status
	// Content is the final answer, or "Error: <reason>".
	Content string
}

// A GroupCompletion is a finished Agent group, in the form the parent
// session receives it.
type GroupCompletion struct {
	// ID is the group's background id, as the Agent call reported it.
	ID string
	// Label is "Subagent group: <display names, comma-separated>".
	Label string
	// Status is the group's status.
	Status Status
	// IsError reports a status other than completed.
	IsError bool
	// Content has one section per child, in the order of the call's
	// tasks: "## <display name> (agentId: <id>; status: <status>[;
	// task_id: <id>])\n<content>", separated by blank lines.
	Content string
	// Message is the user message to append to the parent session:
	//
	//	<background-task-completed id="<ID>" label="<Label, " as '>"[ status="partial|error|cancelled"]>
	//	<Content>
	//	</background-task-completed>
	Message string
	// Children are the outcomes behind Content, in the same order.
	Children []ChildOutcome
}

// EventType names an [Event].
type EventType string

// The events of a group.
const (
	EventToolUse    EventType = "tool_use"    // a child was announced
	EventToolResult EventType = "tool_result" // a child finished
	EventTaskUpdate EventType = "task_update" // a child's task changed
	EventDiagnostic EventType = "diagnostic"  // something went wrong beside the children
)

// An Event is an announcement of an Agent group, for the host to turn into
// its own events (tool_use, tool_result, task_update, diagnostic).
type Event struct {
	Type EventType
	// SessionID is the parent session; GroupID the group's background id.
	SessionID, GroupID string

	// CallID is the child's id (tool_use, tool_result) and Name its
	// display name.
	CallID, Name string
	// Input is the child's call input (tool_use):
	// {"display_name":…,"subagent_type":…,"prompt":…}.
	Input json.RawMessage
	// Content and IsError are the child's result (tool_result):
	// its final answer, or "Error: <reason>".
	Content string
	IsError bool

	// TaskID, TaskStatus and Owner describe a task update (task_update).
	TaskID     string
	TaskStatus task.Status
	Owner      string

	// Code and Message describe a diagnostic, such as
	// "task_record_failed".
	Code, Message string
}

// Input is the input of the Agent tool.
type Input struct {
	// Tasks are the subagents to dispatch as one group; at least one.
	Tasks []TaskInput `json:"tasks" jsonschema:"the subtasks to delegate, one subagent each; they run in parallel as one group"`
	// RunInBackground is accepted and ignored: groups always run detached.
	RunInBackground *bool `json:"run_in_background,omitempty" jsonschema:"ignored: groups always run in the background"`
}

// A TaskInput is one subagent of an Agent call.
type TaskInput struct {
	DisplayName  string `json:"display_name" jsonschema:"a short distinct name shown to the user for this subtask"`
	SubagentType string `json:"subagent_type" jsonschema:"the kind of subagent, one of the available subagents"`
	Prompt       string `json:"prompt" jsonschema:"the complete, self-contained instructions for the subagent"`
	Model        string `json:"model,omitempty" jsonschema:"the model for the subagent; omit to inherit"`
	Resume       string `json:"resume,omitempty" jsonschema:"the agentId of an earlier subagent to continue its session"`
	TaskID       string `json:"task_id,omitempty" jsonschema:"the id of an existing task in your task list that this subagent works on"`
}

// RefineSchema requires an array of 1 to MaxTasks tasks, and a boolean
// (not null) run_in_background.
func (Input) RefineSchema(s *jsonschema.Schema) {
	tasks := s.Properties["tasks"]
	tasks.Type, tasks.Types = "array", nil
	tasks.MinItems = jsonschema.Ptr(1)
	tasks.MaxItems = jsonschema.Ptr(MaxTasks)
	bg := s.Properties["run_in_background"]
	bg.Type, bg.Types = "boolean", nil
}

// Tool returns the Agent tool. Each call validates its tasks, starts one
// detached group on the pool and returns at once
//
//	[background:<id>] accepted group with <N> subagent|subagents; results will arrive together.
//
// The group announces each child (tool_use), links it to its task or
// creates one, queues it on the pool, claims the task (in_progress, owner
// and a running execution), runs it through [ToolOptions.Run], normalizes
// the result, records it on the task (review on success, never completed;
// failed or cancelled otherwise) and reports it (tool_result). When every
// child has finished, the group's [GroupCompletion] is delivered to the
// parent session.
//
// Calls fail, with no child started, when background is disabled, a
// display_name has no visible characters once control and format
// characters are replaced by spaces, a task_id repeats within the call or
// is given without task tracking, a model is not a catalog tier, a resume
// is not the id of a subagent or repeats within the call, or the pool is
// closed. An unknown subagent_type fails only that child.
//
// Tool panics if Pool, Run or Deliver is nil. The tool is safe for
// concurrent use.
func Tool(opts ToolOptions) tool.Tool {
	if opts.Pool == nil || opts.Run == nil || opts.Deliver == nil {
		panic("subagent.Tool: Pool, Run and Deliver are required")
	}
	d := &dispatcher{opts: opts, defs: map[string]Definition{}}
	for _, def := range dedupe(opts.Definitions) {
		d.defs[def.Name] = def
		d.names = append(d.names, def.Name)
	}
	d.opts.AllowedTools = slices.Clone(opts.AllowedTools)
	d.opts.Models = slices.Clone(opts.Models)
	return tool.New(ToolName,
		"Delegate large, separable or context-heavy subtasks to subagents, keeping your own context small. "+
			"Each entry of tasks starts one subagent; all of them run in parallel as one group in the background, "+
			"and the results of the whole group arrive together later in this session. "+
			"Give every task a distinct display_name and a self-contained prompt. "+
			"To run subtasks in parallel, pass them as several entries of tasks in one call, not as separate calls. "+
			"To continue an earlier subagent, pass the agentId it reported as resume.",
		d.call)
}

// dispatcher is the state of one Agent tool; it is read-only after Tool.
type dispatcher struct {
	opts  ToolOptions
	defs  map[string]Definition
	names []string // in definition order
}

// child is one task of a group while it runs.
type child struct {
	in          TaskInput
	def         Definition
	known       bool
	displayName string
	eventID     string
	agentID     string
	resume      bool
	taskID      string
	claimed     bool
	out         ChildOutcome
	done        bool // out is final before the child was queued
}

func (d *dispatcher) call(ctx context.Context, c *tool.Call, in Input) (tool.Result, error) {
	if len(in.Tasks) == 0 {
		return tool.Errorf("tasks must contain at least 1 task"), nil
	}
	if len(in.Tasks) > MaxTasks {
		return tool.Errorf("tasks may contain at most %d tasks", MaxTasks), nil
	}
	for _, t := range in.Tasks {
		if cleanName(t.DisplayName) == "" {
			return tool.Errorf("display_name must contain visible characters"), nil
		}
	}
	if d.opts.DisableBackground {
		return tool.Errorf("Agent requires background tasks; enable background to dispatch subagents."), nil
	}
	taskIDs, resumes := map[string]bool{}, map[string]bool{}
	for _, t := range in.Tasks {
		if t.TaskID != "" {
			if taskIDs[t.TaskID] {
				return tool.Errorf("a task may only be dispatched once per group"), nil
			}
			taskIDs[t.TaskID] = true
		}
		if t.Model != "" && d.opts.Models != nil && !slices.Contains(d.opts.Models, t.Model) {
			return tool.Errorf("model '%s' is not a configured model; choose one of: %s", t.Model, strings.Join(d.opts.Models, ", ")), nil
		}
		if t.Resume != "" {
			// The id names a session file: one with other characters is
			// refused, not rewritten into another agent's id.
			id := t.Resume
			if !strings.HasPrefix(id, "agent-") || len(id) > maxResumeBytes || sanitizeID(id) != id {
				return tool.Errorf("resume must be the agentId of an earlier subagent"), nil
			}
			if resumes[id] {
				return tool.Errorf("a subagent may only be resumed once per group"), nil
			}
			resumes[id] = true
		}
	}
	var store task.Store
	if d.opts.Tasks != nil {
		s, err := d.opts.Tasks(ctx, c.SessionID)
		if err != nil {
			return tool.Errorf("task tracking unavailable: %v", err), nil
		}
		store = s
	}
	if store == nil && len(taskIDs) > 0 {
		return tool.Errorf("task_id requires task tracking"), nil
	}
	sessionID := c.SessionID
	names := make([]string, len(in.Tasks))
	for i, t := range in.Tasks {
		names[i] = cleanName(t.DisplayName)
	}
	label := "Subagent group: " + strings.Join(names, ", ")
	tasks := slices.Clone(in.Tasks)
	base := context.WithoutCancel(ctx)
	id, err := d.opts.Pool.startGroup(ctx, sessionID, func(gctx context.Context, id string) {
		g := &groupRun{d: d, base: base, call: c, sessionID: sessionID, id: id, label: label, store: store}
		g.run(gctx, tasks)
	})
	if err != nil {
		return tool.Errorf("%v", err), nil
	}
	noun := "subagents"
	if len(tasks) == 1 {
		noun = "subagent"
	}
	return tool.Text(fmt.Sprintf("[background:%s] accepted group with %d %s; results will arrive together.", id, len(tasks), noun)), nil
}

// groupRun is one group on its goroutine.
type groupRun struct {
	d         *dispatcher
	base      context.Context // the call's values, never cancelled: for Emit, Deliver and task records
	call      *tool.Call      // the Agent call that started the group, for Emit
	sessionID string
	id        string
	label     string
	store     task.Store // nil without task tracking
}

func (g *groupRun) emit(ev Event) {
	if g.d.opts.Emit == nil {
		return
	}
	ev.SessionID, ev.GroupID = g.sessionID, g.id
	g.d.opts.Emit(g.base, g.call, ev)
}

func (g *groupRun) run(ctx context.Context, tasks []TaskInput) {
	children := make([]*child, len(tasks))
	for i, t := range tasks {
		c := g.prepare(ctx, t)
		children[i] = c
		input, _ := json.Marshal(struct {
			DisplayName  string `json:"display_name"`
			SubagentType string `json:"subagent_type"`
			Prompt       string `json:"prompt"`
		}{t.DisplayName, t.SubagentType, t.Prompt})
		g.emit(Event{Type: EventToolUse, CallID: c.eventID, Name: c.displayName, Input: input})
		if c.done {
			g.report(c)
		}
	}
	// Queue the children in input order, then wait for them concurrently.
	var wg sync.WaitGroup
	for _, c := range children {
		if c.done {
			continue
		}
		w, err := g.d.opts.Pool.enqueue()
		wg.Go(func() {
			if err == nil {
				err = g.d.opts.Pool.run(ctx, w, func(ctx context.Context) error {
					g.runChild(ctx, c)
					return nil
				})
			}
			switch {
			case errors.Is(err, ErrClosed):
				c.finish(StatusCancelled, ErrClosed.Error())
			case err != nil:
				c.finish(StatusCancelled, "Subagent cancelled")
			}
			if c.claimed {
				g.record(c)
			}
			g.report(c)
		})
	}
	wg.Wait()
	completion := g.complete(children)
	if g.d.opts.Pool.isClosed() {
		return
	}
	g.d.opts.Deliver(g.base, g.sessionID, completion)
}

// prepare gives a child its identity and its task. A child that cannot
// run is done on return.
func (g *groupRun) prepare(ctx context.Context, t TaskInput) *child {
	c := &child{in: t, displayName: cleanName(t.DisplayName)}
	c.def, c.known = g.d.defs[t.SubagentType]
	typ := sanitizeID(t.SubagentType)
	if len(typ) > MaxNameBytes {
		typ = typ[:MaxNameBytes]
	}
	if typ == "" {
		typ = "unknown"
	}
	c.eventID = "agent-" + typ + "-" + randomHex(4)
	if c.known && t.Resume != "" {
		c.eventID, c.resume = t.Resume, true // checked by the caller
	}
	c.agentID = c.eventID
	c.out = ChildOutcome{AgentID: c.agentID, DisplayName: c.displayName, Type: t.SubagentType}
	if !c.known {
		c.agentID, c.out.AgentID = "-", "-"
		available := strings.Join(g.d.names, ", ")
		if available == "" {
			available = "(none)"
		}
		c.finish(StatusFailed, fmt.Sprintf("unknown subagent_type '%s'. Available: %s", cleanName(t.SubagentType), available))
		c.done = true
		return c
	}
	if g.store == nil {
		return c
	}
	if t.TaskID != "" {
		_, found, err := g.store.Get(ctx, t.TaskID)
		if err == nil && !found {
			err = &task.NotFoundError{ID: t.TaskID}
		}
		if err != nil {
			c.finish(failedOrCancelled(ctx), err.Error())
			c.done = true
			return c
		}
		c.taskID = t.TaskID
	} else {
		created, err := g.store.Create(ctx, task.CreateInput{Subject: c.displayName, Description: t.Prompt})
		if err != nil {
			c.finish(failedOrCancelled(ctx), "create task: "+err.Error())
			c.done = true
			return c
		}
		c.taskID = created.ID
	}
	c.out.TaskID = c.taskID
	return c
}

// runChild claims the child's task and runs the child, holding a slot of
// the pool.
func (g *groupRun) runChild(ctx context.Context, c *child) {
	if !g.d.opts.Pool.claimID(c.eventID) {
		c.finish(StatusFailed, "subagent "+c.eventID+" is already running")
		return
	}
	defer g.d.opts.Pool.releaseID(c.eventID)
	if c.taskID != "" {
		st, owner := task.InProgress, c.agentID
		_, err := g.store.Update(ctx, c.taskID, task.UpdateInput{
			Status: &st, Owner: &owner,
			Execution: &task.Execution{AgentID: c.agentID, Status: task.ExecRunning},
		})
		if err != nil {
			c.finish(failedOrCancelled(ctx), err.Error())
			return
		}
		c.claimed = true
		g.emit(Event{Type: EventTaskUpdate, TaskID: c.taskID, TaskStatus: st, Owner: owner})
	}
	res, err := g.runSafely(ctx, c)
	c.normalize(ctx, res, err)
}

// runSafely calls Run, turning a panic into an error.
func (g *groupRun) runSafely(ctx context.Context, c *child) (res ChildResult, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("subagent panicked: %v", v)
		}
	}()
	def := c.def
	model := c.in.Model
	if model == "" {
		model = def.Model
	}
	return g.d.opts.Run(ctx, ChildRequest{
		ParentSessionID: g.sessionID,
		GroupID:         g.id,
		SessionID:       c.eventID,
		AgentID:         c.agentID,
		Resume:          c.resume,
		Type:            def.Name,
		Definition:      def,
		DisplayName:     c.displayName,
		Prompt:          c.in.Prompt,
		Model:           model,
		System:          SystemPrompt(def.Name, g.d.opts.Workdir, def.Prompt),
		AllowedTools:    childTools(def.Tools, g.d.opts.AllowedTools),
		TaskID:          c.taskID,
	})
}

// record writes the child's outcome on its task, even when the group was
// cancelled.
func (g *groupRun) record(c *child) {
	ctx, cancel := context.WithTimeout(g.base, recordTimeout)
	defer cancel()
	st, exec := task.Review, task.ExecSucceeded
	switch c.out.Status {
	case StatusFailed:
		st, exec = task.Failed, task.ExecFailed
	case StatusCancelled:
		st, exec = task.Cancelled, task.ExecCancelled
	}
	_, err := g.store.Update(ctx, c.taskID, task.UpdateInput{
		Status:    &st,
		Execution: &task.Execution{AgentID: c.agentID, Status: exec, Result: c.out.Content},
	})
	if err != nil {
		g.emit(Event{Type: EventDiagnostic, Code: "task_record_failed",
			Message: fmt.Sprintf("record the outcome of subagent %s on task %s: %v", c.agentID, c.taskID, err)})
		return
	}
	g.emit(Event{Type: EventTaskUpdate, TaskID: c.taskID, TaskStatus: st, Owner: c.agentID})
}

// report announces the child's outcome.
func (g *groupRun) report(c *child) {
	g.emit(Event{Type: EventToolResult, CallID: c.eventID, Name: c.displayName,
		Content: c.out.Content, IsError: c.out.Status != StatusCompleted})
}

// complete builds the group's completion.
func (g *groupRun) complete(children []*child) GroupCompletion {
	gc := GroupCompletion{ID: g.id, Label: g.label}
	counts := map[Status]int{}
	sections := make([]string, len(children))
	for i, c := range children {
		o := c.out
		gc.Children = append(gc.Children, o)
		counts[o.Status]++
		head := "## " + o.DisplayName + " (agentId: " + o.AgentID + "; status: " + string(o.Status)
		if o.TaskID != "" {
			head += "; task_id: " + o.TaskID
		}
		sections[i] = head + ")\n" + o.Content
	}
	gc.Content = strings.Join(sections, "\n\n")
	gc.Status = StatusPartial
	for _, s := range []Status{StatusCompleted, StatusFailed, StatusCancelled} {
		if counts[s] == len(children) {
			gc.Status = s
		}
	}
	gc.IsError = gc.Status != StatusCompleted
	attr := ""
	switch gc.Status {
	case StatusPartial:
		attr = ` status="partial"`
	case StatusFailed:
		attr = ` status="error"`
	case StatusCancelled:
		attr = ` status="cancelled"`
	}
	gc.Message = `<background-task-completed id="` + gc.ID + `" label="` + strings.ReplaceAll(gc.Label, `"`, "'") + `"` + attr + ">\n" +
		gc.Content + "\n</background-task-completed>"
	return gc
}

// finish sets the child's outcome; a failure's content is "Error: <msg>".
func (c *child) finish(s Status, msg string) {
	c.out.Status = s
	if s == StatusCompleted {
		c.out.Content = msg
		return
	}
	c.out.Content = "Error: " + msg
}

// normalize turns what Run returned into the child's outcome.
func (c *child) normalize(ctx context.Context, res ChildResult, err error) {
	switch {
	case err != nil:
		c.finish(failedOrCancelled(ctx, err), err.Error())
	case res.StopReason == StopReasonAborted:
		c.finish(StatusCancelled, "Subagent aborted")
	case res.StopReason == StopReasonMaxTurns:
		c.finish(StatusFailed, "Subagent reached max turns")
	case res.StopReason != StopReasonStop:
		c.finish(StatusFailed, "Subagent stopped without a terminal stop reason")
	case strings.TrimSpace(res.Text) == "":
		c.finish(StatusFailed, "Subagent stopped without a final answer")
	default:
		c.finish(StatusCompleted, res.Text)
	}
}

// failedOrCancelled is cancelled when ctx is done or err is a
// cancellation, and failed otherwise.
func failedOrCancelled(ctx context.Context, errs ...error) Status {
	if ctx.Err() != nil {
		return StatusCancelled
	}
	for _, err := range errs {
		if errors.Is(err, context.Canceled) {
			return StatusCancelled
		}
	}
	return StatusFailed
}

// childTools is the child's allow-list: the definition's tools intersected
// with the parent's when both are set, else whichever is set, without
// ToolName; nil when neither is set.
func childTools(def, parent []string) []string {
	var from []string
	switch {
	case def != nil && parent != nil:
		for _, t := range def {
			if slices.Contains(parent, t) {
				from = append(from, t)
			}
		}
	case def != nil:
		from = def
	case parent != nil:
		from = parent
	default:
		return nil
	}
	out := make([]string, 0, len(from))
	for _, t := range from {
		if t != ToolName && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// cleanName replaces control and format characters (Unicode Cc and Cf),
// and line and paragraph separators, with spaces and trims the result, so that a display name stays on one
// line and cannot start a Markdown heading of its own.
func cleanName(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) {
			return ' '
		}
		return r
	}, s))
}

// sanitizeID replaces every character outside [A-Za-z0-9_-] with "_".
func sanitizeID(s string) string {
	return strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, s)
}
