package liteagent

import "github.com/lite-agent/lite-agent-go/engine"

// The names an embedding program needs to read a prompt's events, so that
// it imports this package alone. Each is the [engine] name of the same
// meaning.

// Event is one thing that happened during a prompt: an envelope whose Type
// says which of its kind-specific parts is set. See [engine.Event].
type Event = engine.Event

// ToolEvent is the tool call part of an [Event]; see [engine.ToolEvent].
type ToolEvent = engine.ToolEvent

// ModelCallEvent is the model call part of an [Event]; see
// [engine.ModelCallEvent].
type ModelCallEvent = engine.ModelCallEvent

// TaskEvent is the task update part of an [Event]; see [engine.TaskEvent].
type TaskEvent = engine.TaskEvent

// PermissionEvent is the permission part of an [Event]; see
// [engine.PermissionEvent].
type PermissionEvent = engine.PermissionEvent

// RetryEvent is the retry part of an [Event]; see [engine.RetryEvent].
type RetryEvent = engine.RetryEvent

// DiagnosticEvent is the diagnostic part of an [Event]; see
// [engine.DiagnosticEvent].
type DiagnosticEvent = engine.DiagnosticEvent

// RestoreEvent is the checkpoint restore part of an [Event]; see
// [engine.RestoreEvent].
type RestoreEvent = engine.RestoreEvent

// EventType names the kind of an [Event].
type EventType = engine.EventType

// The event types; see [engine.EventType] for the fields each sets.
const (
	EventTurnStart           = engine.EventTurnStart           // turn_start
	EventModelCallStart      = engine.EventModelCallStart      // model_call_start
	EventModelCallEnd        = engine.EventModelCallEnd        // model_call_end
	EventTextDelta           = engine.EventTextDelta           // text_delta
	EventMessage             = engine.EventMessage             // message
	EventToolUse             = engine.EventToolUse             // tool_use
	EventToolCallStart       = engine.EventToolCallStart       // tool_call_start
	EventToolCallEnd         = engine.EventToolCallEnd         // tool_call_end
	EventToolResult          = engine.EventToolResult          // tool_result
	EventSteer               = engine.EventSteer               // steer
	EventToolRecovered       = engine.EventToolRecovered       // tool_recovered
	EventInputRequest        = engine.EventInputRequest        // input_request
	EventInputResolved       = engine.EventInputResolved       // input_resolved
	EventTaskUpdate          = engine.EventTaskUpdate          // task_update
	EventTurnEnd             = engine.EventTurnEnd             // turn_end
	EventRetry               = engine.EventRetry               // retry
	EventContextStatus       = engine.EventContextStatus       // context_status
	EventDiagnostic          = engine.EventDiagnostic          // diagnostic
	EventBackgroundCompleted = engine.EventBackgroundCompleted // background_completed
	EventPermission          = engine.EventPermission          // permission_decision
	EventApprovalAsk         = engine.EventApprovalAsk         // approval_request
	EventApprovalAnswer      = engine.EventApprovalAnswer      // approval_resolved
	EventCheckpointRestore   = engine.EventCheckpointRestore   // checkpoint_restore
	EventError               = engine.EventError               // error
	EventDone                = engine.EventDone                // done
)

// Result is the outcome of one prompt, carried by the done event; see
// [engine.Result].
type Result = engine.Result

// StopReason says why a prompt's turn loop ended.
type StopReason = engine.StopReason

// The stop reasons of a prompt.
const (
	StopDone     = engine.StopDone
	StopAborted  = engine.StopAborted
	StopMaxTurns = engine.StopMaxTurns
)

// Decision is the outcome of a permission decision in an event.
type Decision = engine.Decision

// The permission decisions.
const (
	DecisionAllow = engine.DecisionAllow
	DecisionAsk   = engine.DecisionAsk
	DecisionDeny  = engine.DecisionDeny
)

// DecidedBy says who made a permission decision in an event.
type DecidedBy = engine.DecidedBy

// Who decides a permission decision.
const (
	ByPolicy = engine.ByPolicy
	ByUser   = engine.ByUser
	ByAuto   = engine.ByAuto
)

// ContextStatus is what the context engine did to a request, on a
// context_status event.
type ContextStatus = engine.ContextStatus

// BackgroundCompletion describes background work that ended, on a
// background_completed event.
type BackgroundCompletion = engine.BackgroundCompletion

// CompletionStatus says how background work ended.
type CompletionStatus = engine.CompletionStatus

// The statuses of background work.
const (
	CompletionCompleted = engine.CompletionCompleted
	CompletionPartial   = engine.CompletionPartial
	CompletionError     = engine.CompletionError
	CompletionCancelled = engine.CompletionCancelled
)
