package builtin

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/lite-agent/lite-agent-go/task"
	"github.com/lite-agent/lite-agent-go/tool"
)

// A TaskStoreFunc returns the task list of a tool call of session
// sessionID (its [tool.Call.SessionID]), usually that session's list. An
// error fails the call.
type TaskStoreFunc func(ctx context.Context, sessionID string) (task.Store, error)

// TaskOptions configures the task tools. The zero value reports changes to
// nobody.
type TaskOptions struct {
	// OnUpdate, when set, is called with the task as stored after every
	// successful TaskCreate and TaskUpdate, with the call that made the
	// change; a host reports it through c, as a task_update event.
	OnUpdate func(ctx context.Context, c *tool.Call, t task.Task)
}

// TaskTools returns TaskCreate, TaskUpdate, TaskGet and TaskList, in that
// order, over the list store returns for each call:
//
//   - TaskCreate {subject (not empty), description, activeForm?, metadata?}
//     returns "Created task #<id>: <subject>";
//   - TaskUpdate {taskId, status?, subject?, description?, activeForm?,
//     owner?, addBlockedBy?, addBlocks?, metadata?} returns
//     "Updated task #<id>: <subject> (<status>)";
//   - TaskGet {taskId} returns the task's record as indented JSON, or
//     "No task '<id>'";
//   - TaskList {} returns the rendered list, or "No tasks.".
//
// A store error, such as an unknown task, a dependency cycle or unfinished
// dependencies, is the error result "Error: <message>".
//
// It panics if store is nil. The tools are safe for concurrent use if
// store and OnUpdate are.
func TaskTools(store TaskStoreFunc, opts TaskOptions) []tool.Tool {
	if store == nil {
		panic("builtin.TaskTools: nil store")
	}
	tt := &taskTools{store: store, onUpdate: opts.OnUpdate}
	return []tool.Tool{
		tool.New("TaskCreate", taskCreateDescription, tt.create),
		tool.New("TaskUpdate", taskUpdateDescription, tt.update),
		tool.New("TaskGet", taskGetDescription, tt.get),
		tool.New("TaskList", taskListDescription, tt.list),
	}
}

// TaskReminder returns the reminder the engine adds to each model request,
// and never to the session log, while the list has active tasks:
//
//	<system-reminder>
//	Current tasks:
//	[>] #1 Write the parser (in_progress)
//	</system-reminder>
//
// It lists the tasks that are not completed or cancelled, and returns ""
// when there are none.
func TaskReminder(ctx context.Context, store task.Store) (string, error) {
	r, err := store.Render(ctx, task.RenderOptions{ActiveOnly: true})
	if err != nil || r == "" {
		return "", err
	}
	return "<system-reminder>\nCurrent tasks:\n" + r + "\n</system-reminder>", nil
}

// taskTools holds what the task tools share; it is fixed at construction.
type taskTools struct {
	store    TaskStoreFunc
	onUpdate func(context.Context, *tool.Call, task.Task)
}

const taskCreateDescription = `Add a task to the task list, to plan and track multi-step work. ` +
	`New tasks are pending; update their status with TaskUpdate as work progresses.`

const taskUpdateDescription = `Update a task: its status (pending, in_progress, review, completed, failed, cancelled), ` +
	`subject, description, activeForm, owner or metadata, or add dependencies with addBlockedBy and addBlocks. ` +
	`A task can only be in progress or completed once the tasks it is blocked by are completed.`

const taskGetDescription = `Get one task with all its fields.`

const taskListDescription = `List all tasks with their status, dependencies and owner.`

type taskCreateInput struct {
	Subject     string         `json:"subject" jsonschema:"a short imperative title, such as 'Add input validation'"`
	Description string         `json:"description" jsonschema:"what is to be done, in enough detail to do it"`
	ActiveForm  string         `json:"activeForm,omitempty" jsonschema:"the present-continuous form shown while the task is in progress, such as 'Adding input validation'"`
	Metadata    map[string]any `json:"metadata,omitempty" jsonschema:"free-form values to keep with the task"`
}

// RefineSchema implements [tool.SchemaRefiner].
func (taskCreateInput) RefineSchema(s *jsonschema.Schema) {
	s.Properties["subject"].MinLength = jsonschema.Ptr(1)
}

type taskUpdateInput struct {
	TaskID       string         `json:"taskId" jsonschema:"the id of the task to update"`
	Status       string         `json:"status,omitempty" jsonschema:"the new status"`
	Subject      *string        `json:"subject,omitempty" jsonschema:"the new subject"`
	Description  *string        `json:"description,omitempty" jsonschema:"the new description"`
	ActiveForm   *string        `json:"activeForm,omitempty" jsonschema:"the new present-continuous form; empty removes it"`
	Owner        *string        `json:"owner,omitempty" jsonschema:"who works on the task; empty removes the owner"`
	AddBlockedBy []string       `json:"addBlockedBy,omitempty" jsonschema:"ids of tasks that must be completed before this one"`
	AddBlocks    []string       `json:"addBlocks,omitempty" jsonschema:"ids of tasks that cannot proceed before this one is completed"`
	Metadata     map[string]any `json:"metadata,omitempty" jsonschema:"values merged into the task's metadata, key by key"`
}

// RefineSchema implements [tool.SchemaRefiner].
func (taskUpdateInput) RefineSchema(s *jsonschema.Schema) {
	s.Properties["taskId"].MinLength = jsonschema.Ptr(1)
	s.Properties["status"].Enum = []any{
		string(task.Pending), string(task.InProgress), string(task.Review),
		string(task.Completed), string(task.Failed), string(task.Cancelled),
	}
	s.Properties["subject"].MinLength = jsonschema.Ptr(1)
}

type taskIDInput struct {
	TaskID string `json:"taskId" jsonschema:"the id of the task"`
}

type taskListInput struct{}

func (tt *taskTools) create(ctx context.Context, c *tool.Call, in taskCreateInput) (tool.Result, error) {
	s, err := tt.store(ctx, c.SessionID)
	if err != nil {
		return tool.Result{}, err
	}
	t, err := s.Create(ctx, task.CreateInput{
		Subject:     in.Subject,
		Description: in.Description,
		ActiveForm:  in.ActiveForm,
		Metadata:    in.Metadata,
	})
	if err != nil {
		return tool.Result{}, err
	}
	tt.updated(ctx, c, t)
	return tool.Text(fmt.Sprintf("Created task #%s: %s", t.ID, t.Subject)), nil
}

func (tt *taskTools) update(ctx context.Context, c *tool.Call, in taskUpdateInput) (tool.Result, error) {
	s, err := tt.store(ctx, c.SessionID)
	if err != nil {
		return tool.Result{}, err
	}
	up := task.UpdateInput{
		Subject:      in.Subject,
		Description:  in.Description,
		ActiveForm:   in.ActiveForm,
		Owner:        in.Owner,
		AddBlockedBy: in.AddBlockedBy,
		AddBlocks:    in.AddBlocks,
		Metadata:     in.Metadata,
	}
	if in.Status != "" {
		st := task.Status(in.Status)
		up.Status = &st
	}
	t, err := s.Update(ctx, in.TaskID, up)
	if err != nil {
		return tool.Result{}, err
	}
	tt.updated(ctx, c, t)
	return tool.Text(fmt.Sprintf("Updated task #%s: %s (%s)", t.ID, t.Subject, t.Status)), nil
}

func (tt *taskTools) updated(ctx context.Context, c *tool.Call, t task.Task) {
	if tt.onUpdate != nil {
		tt.onUpdate(ctx, c, t)
	}
}

func (tt *taskTools) get(ctx context.Context, c *tool.Call, in taskIDInput) (tool.Result, error) {
	s, err := tt.store(ctx, c.SessionID)
	if err != nil {
		return tool.Result{}, err
	}
	t, ok, err := s.Get(ctx, in.TaskID)
	if err != nil {
		return tool.Result{}, err
	}
	if !ok {
		return tool.Text(fmt.Sprintf("No task '%s'", in.TaskID)), nil
	}
	b, err := task.Marshal(t)
	if err != nil {
		return tool.Result{}, err
	}
	return tool.Text(string(b)), nil
}

func (tt *taskTools) list(ctx context.Context, c *tool.Call, _ taskListInput) (tool.Result, error) {
	s, err := tt.store(ctx, c.SessionID)
	if err != nil {
		return tool.Result{}, err
	}
	r, err := s.Render(ctx, task.RenderOptions{})
	if err != nil {
		return tool.Result{}, err
	}
	if r == "" {
		return tool.Text("No tasks."), nil
	}
	return tool.Text(r), nil
}
