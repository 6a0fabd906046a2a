package task

import (
	"context"
	"errors"
	"fmt"
)

// Status is the state of a task in its list.
type Status string

// The statuses a task can have. New tasks are [Pending].
const (
	Pending    Status = "pending"
	InProgress Status = "in_progress"
	Review     Status = "review"
	Completed  Status = "completed"
	Failed     Status = "failed"
	Cancelled  Status = "cancelled"
)

// Valid reports whether s is one of the six known statuses.
func (s Status) Valid() bool {
	switch s {
	case Pending, InProgress, Review, Completed, Failed, Cancelled:
		return true
	}
	return false
}

// Marker returns the render marker of s: "[ ]", "[>]", "[?]", "[x]", "[!]"
// or "[-]", and "[ ]" for an unknown status.
func (s Status) Marker() string {
	switch s {
	case InProgress:
		return "[>]"
	case Review:
		return "[?]"
	case Completed:
		return "[x]"
	case Failed:
		return "[!]"
	case Cancelled:
		return "[-]"
	}
	return "[ ]"
}

// ExecutionStatus is the state of the agent run attached to a task.
type ExecutionStatus string

// The states of an agent run.
const (
	ExecRunning   ExecutionStatus = "running"
	ExecSucceeded ExecutionStatus = "succeeded"
	ExecFailed    ExecutionStatus = "failed"
	ExecCancelled ExecutionStatus = "cancelled"
)

// Valid reports whether s is one of the four known execution states.
func (s ExecutionStatus) Valid() bool {
	switch s {
	case ExecRunning, ExecSucceeded, ExecFailed, ExecCancelled:
		return true
	}
	return false
}

// Execution records the agent run that works on a task. It is owned by the
// runtime (the subagent dispatcher), not by the model.
type Execution struct {
	// AgentID identifies the agent doing the work.
	AgentID string `json:"agentId"`
	// Status is the state of the run.
	Status ExecutionStatus `json:"status"`
	// Result is the run's final report; "" means none and is not stored.
	Result string `json:"result,omitempty"`
}

// Task is one record of a task list. Its JSON form, field order included,
// is the on-disk record format (see the package documentation).
//
// Tasks returned by a [Store] are copies: BlockedBy and Blocks are never nil,
// and Metadata holds plain JSON values (float64 numbers, string, bool, nil,
// []any and map[string]any).
type Task struct {
	// ID is the task's id in its list: a decimal number assigned by Create.
	ID string `json:"id"`
	// Subject is the one-line title.
	Subject string `json:"subject"`
	// Description says what is to be done.
	Description string `json:"description"`
	// ActiveForm is the present-continuous form of the subject shown while
	// the task is in progress; "" means none and is not stored.
	ActiveForm string `json:"activeForm,omitempty"`
	// Status is the task's state.
	Status Status `json:"status"`
	// Owner names who works on the task; "" means nobody and is not stored.
	Owner string `json:"owner,omitempty"`
	// BlockedBy lists the ids of the tasks this task waits for.
	BlockedBy []string `json:"blockedBy"`
	// Blocks lists the ids of the tasks waiting for this task.
	Blocks []string `json:"blocks"`
	// Metadata holds free-form values; nil means none and is not stored,
	// while an empty non-nil map is stored as {}.
	Metadata map[string]any `json:"metadata,omitzero"`
	// Execution is the agent run attached to the task; nil means none.
	Execution *Execution `json:"execution,omitzero"`
	// CreatedAt is the creation time in milliseconds since the Unix epoch.
	CreatedAt int64 `json:"createdAt"`
	// UpdatedAt is the time of the last update in milliseconds since the
	// Unix epoch.
	UpdatedAt int64 `json:"updatedAt"`
}

// CreateInput is the input of [Store.Create].
type CreateInput struct {
	// Subject is the one-line title. The store accepts "", but the model
	// tools require a non-empty subject.
	Subject string
	// Description says what is to be done.
	Description string
	// ActiveForm is the present-continuous form of the subject; "" means
	// none.
	ActiveForm string
	// Metadata holds free-form JSON values; nil means none. It is copied.
	Metadata map[string]any
}

// UpdateInput is the input of [Store.Update]. A nil pointer or slice leaves
// the corresponding part of the task unchanged.
type UpdateInput struct {
	// Status sets the status.
	Status *Status
	// Subject sets the subject.
	Subject *string
	// Description sets the description.
	Description *string
	// ActiveForm sets the active form; "" removes it.
	ActiveForm *string
	// Owner sets the owner; "" removes it.
	Owner *string
	// AddBlockedBy adds the given tasks to BlockedBy, and this task to their
	// Blocks. Ids already present are skipped.
	AddBlockedBy []string
	// AddBlocks adds the given tasks to Blocks, and this task to their
	// BlockedBy. Ids already present are skipped.
	AddBlocks []string
	// Metadata is merged into the task's metadata key by key (a shallow
	// merge: a key's old value is replaced, not merged). nil leaves the
	// metadata unchanged; an empty map makes sure it exists.
	Metadata map[string]any
	// Execution replaces the task's execution record. It is for the
	// runtime, not the model.
	Execution *Execution
}

// RenderOptions selects what [Store.Render] shows.
type RenderOptions struct {
	// ActiveOnly leaves out completed and cancelled tasks (failed ones stay).
	ActiveOnly bool
}

// Store is a task list: numbered tasks with statuses and symmetric
// dependency edges. Implementations are safe for concurrent use.
type Store interface {
	// Create adds a pending task with the next id (the largest numeric id
	// in the list plus one) and returns it.
	Create(ctx context.Context, in CreateInput) (Task, error)
	// Update changes the task id as described by in and returns the task
	// as stored. Either every touched task is written or none is: all
	// checks (existence, execution guards, cycles, readiness) run first.
	// The errors are *NotFoundError, *ExecutionError, ErrCycle,
	// *DependencyError, *InputError and *storage.Error.
	Update(ctx context.Context, id string, in UpdateInput) (Task, error)
	// Get returns the task id and true, or false if the list has no such
	// task; an unknown id is not an error.
	Get(ctx context.Context, id string) (Task, bool, error)
	// List returns every task, sorted by numeric id. A record that cannot be
	// read fails the whole call; nothing is skipped.
	List(ctx context.Context) ([]Task, error)
	// Render returns the list in the model-facing text form, one line per
	// task; an empty list renders as "".
	Render(ctx context.Context, opts RenderOptions) (string, error)
}

// DefaultListID returns the task-list id a session uses: explicit when it is
// set, which makes a list shared by every session that names it, otherwise
// sessionID, which makes the list private to the session.
func DefaultListID(sessionID, explicit string) string {
	if explicit != "" {
		return explicit
	}
	return sessionID
}

// ErrNotFound is matched (with [errors.Is]) by every *[NotFoundError].
var ErrNotFound = errors.New("task not found")

// A NotFoundError reports that an update named a task the list does not
// have, either as its target or as the other end of a new edge.
type NotFoundError struct {
	ID string
}

// Error returns "no task '<id>'".
func (e *NotFoundError) Error() string { return fmt.Sprintf("no task '%s'", e.ID) }

// Is reports whether target is [ErrNotFound].
func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }

// ErrCycle reports that an update would make a task wait for itself,
// directly or through other tasks. Nothing was written.
var ErrCycle = errors.New("update would create a dependency cycle")

// ErrUnfinished is matched (with [errors.Is]) by every *[DependencyError].
var ErrUnfinished = errors.New("task has unfinished dependencies")

// A DependencyError reports that a task would be in progress, in review or
// completed while one of the tasks it is blocked by is missing or not
// completed. Nothing was written.
type DependencyError struct {
	ID string
}

// Error returns "task '<id>' has unfinished dependencies".
func (e *DependencyError) Error() string {
	return fmt.Sprintf("task '%s' has unfinished dependencies", e.ID)
}

// Is reports whether target is [ErrUnfinished].
func (e *DependencyError) Is(target error) bool { return target == ErrUnfinished }

// The reasons of an [ExecutionError], matched with [errors.Is].
var (
	// ErrAgentRunning: the update dispatches an agent to a task that
	// already has a running one.
	ErrAgentRunning = errors.New("task already has a running agent")
	// ErrOtherAgent: the update reports on a running task's execution in
	// the name of another agent.
	ErrOtherAgent = errors.New("task belongs to another agent")
	// ErrManaged: the update changes the status or owner of a task whose
	// agent is running without going through its execution record.
	ErrManaged = errors.New("task is managed by a running agent")
	// ErrReopenFirst: the update dispatches an agent to a completed task.
	ErrReopenFirst = errors.New("reopen the completed task before dispatching it")
)

// An ExecutionError reports an update refused because of the task's agent
// run. Err is one of [ErrAgentRunning], [ErrOtherAgent], [ErrManaged] and
// [ErrReopenFirst]. Nothing was written.
type ExecutionError struct {
	ID  string
	Err error
}

// Error returns the reason in words, naming the task.
func (e *ExecutionError) Error() string {
	switch e.Err {
	case ErrAgentRunning:
		return fmt.Sprintf("task '%s' already has a running agent", e.ID)
	case ErrOtherAgent:
		return fmt.Sprintf("task '%s' belongs to another agent", e.ID)
	case ErrManaged:
		return fmt.Sprintf("task '%s' is managed by a running agent", e.ID)
	case ErrReopenFirst:
		return fmt.Sprintf("reopen completed task '%s' before dispatching it", e.ID)
	}
	return fmt.Sprintf("task '%s': %v", e.ID, e.Err)
}

// Unwrap returns Err.
func (e *ExecutionError) Unwrap() error { return e.Err }

// An InputError reports an invalid field of a [CreateInput] or
// [UpdateInput], such as an unknown status or metadata that is not JSON.
// Nothing was written.
type InputError struct {
	// ID is the task being updated, or "" for a create.
	ID string
	// Field is the input field at fault, such as "status".
	Field string
	// Err describes the problem.
	Err error
}

// Error names the task, the field and the problem.
func (e *InputError) Error() string {
	if e.ID == "" {
		return fmt.Sprintf("invalid task %s: %v", e.Field, e.Err)
	}
	return fmt.Sprintf("task '%s': invalid %s: %v", e.ID, e.Field, e.Err)
}

// Unwrap returns Err.
func (e *InputError) Unwrap() error { return e.Err }
