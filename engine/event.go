package engine

import (
	"encoding/json"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/task"
)

// EventType names the kind of an [Event].
type EventType string

// The event types of the event stream.
const (
	EventTurnStart           EventType = "turn_start"           // Turn
	EventModelCallStart      EventType = "model_call_start"     // Turn, ModelCall.Model
	EventModelCallEnd        EventType = "model_call_end"       // Turn, ModelCall (Model, Duration, Usage), Err
	EventTextDelta           EventType = "text_delta"           // Text
	EventMessage             EventType = "message"              // Message
	EventToolUse             EventType = "tool_use"             // Tool.Call: every call of a turn, up front, in input order
	EventToolCallStart       EventType = "tool_call_start"      // Tool.Call, Turn
	EventToolCallEnd         EventType = "tool_call_end"        // Tool (Call, Duration, IsError), Turn
	EventToolResult          EventType = "tool_result"          // Tool (Call, Result): in completion order
	EventSteer               EventType = "steer"                // Message: a message Engine.Steer added to the running turn
	EventToolRecovered       EventType = "tool_recovered"       // Tool.Call, Turn: a call a crash left unanswered got an "interrupted" result
	EventInputRequest        EventType = "input_request"        // Tool.Call, Text: the model asks the user (ask_user) Text
	EventInputResolved       EventType = "input_resolved"       // Tool.Call, Text: the answer, as the model receives it
	EventTaskUpdate          EventType = "task_update"          // Task
	EventTurnEnd             EventType = "turn_end"             // Turn, ModelCall.StopReason
	EventRetry               EventType = "retry"                // Turn, Retry, Err: a model call is retried (not fatal)
	EventContextStatus       EventType = "context_status"       // Context: the request was over 65% of the window; the levels that ran
	EventCompaction          EventType = "compaction"           // Compaction: a phase of Engine.Compact
	EventDiagnostic          EventType = "diagnostic"           // Diagnostic.Code, Text: something went wrong beside the turn (a hook failed)
	EventBackgroundCompleted EventType = "background_completed" // Completion, Text: background work ended; Text is the message its delivery turn receives
	EventPermission          EventType = "permission_decision"  // Tool.Call, Permission
	EventApprovalAsk         EventType = "approval_request"     // Tool.Call, Permission (Decision, Reason)
	EventApprovalAnswer      EventType = "approval_resolved"    // Tool.Call, Permission (Decision, By)
	EventCheckpointRestore   EventType = "checkpoint_restore"   // Restore (Phase, ToSeq, Completed, Total), Err on its error phase: not a turn's event
	EventError               EventType = "error"                // Err, Fatal
	EventDone                EventType = "done"                 // Result
)

// Event is one thing that happened during a turn: a small envelope whose
// Type says which of its kind-specific parts is set. SessionID, AgentID and
// Turn are common to every kind; Text, Message and Err are set by the kinds
// that carry a text, a message or an error; every other detail sits behind
// one pointer per kind (Tool, ModelCall, Task, Permission, Retry,
// Diagnostic, Context, Compaction, Completion, Result, Restore), nil when
// the kind has none.
type Event struct {
	Type EventType
	// SessionID is the session the event belongs to.
	SessionID string
	// AgentID names the subagent an event is about, or "" for the agent
	// itself.
	AgentID string
	// Turn is the 1-based model call number within the prompt.
	Turn int
	// Text is a text delta, the question or answer of an input request,
	// a diagnostic's message, or the message a background completion's
	// delivery turn receives.
	Text string
	// Message is a complete assistant message, or a steering message.
	Message *model.Message
	// Err is the error of an error, retry or failed model_call_end event.
	Err error
	// Fatal marks an error that ended the turn.
	Fatal bool

	// Tool is the tool call an event is about: set on the tool_* and
	// input_* events and on the permission events.
	Tool *ToolEvent
	// ModelCall describes a model call (model_call_start, model_call_end)
	// or, on turn_end, why the model stopped.
	ModelCall *ModelCallEvent
	// Task is a task update (task_update).
	Task *TaskEvent
	// Permission is a permission decision, an approval request or its
	// answer.
	Permission *PermissionEvent
	// Retry is a model call being retried (retry).
	Retry *RetryEvent
	// Diagnostic classifies something that went wrong beside the turn
	// (diagnostic); Text says what.
	Diagnostic *DiagnosticEvent
	// Context is what the context engine did to the next request.
	Context *ContextStatus
	// Compaction is a phase of a manual compaction (compaction).
	Compaction *CompactionEvent
	// Completion is background work that ended (background_completed).
	Completion *BackgroundCompletion
	// Result is the outcome of the whole prompt, on done.
	Result *Result
	// Restore is the progress of a checkpoint restore
	// (checkpoint_restore).
	Restore *RestoreEvent
}

// RestoreEvent is the checkpoint restore part of an [Event]: a restore
// reports Phase "start", then "progress" after each file, then "done", or
// "error" when it fails after it started, with Event.Err the error the
// restore returns (errors.As reaches a *rewind.FileError through it).
type RestoreEvent struct {
	// Phase is "start", "progress", "done" or "error".
	Phase string
	// ToSeq is the sequence number the session goes back to.
	ToSeq int64
	// Completed counts the steps done out of Total: one per file, plus
	// one for the conversation.
	Completed, Total int
	// Message names the file just restored (progress) or says what
	// failed (error).
	Message string
}

// ToolEvent is the tool part of an [Event].
type ToolEvent struct {
	// Call is the tool call (a tool_call block).
	Call *model.Block
	// Result is the call's result (a tool_result block), on tool_result.
	Result *model.Block
	// IsError marks a failed call on tool_call_end.
	IsError bool
	// Duration is how long the call took, on tool_call_end.
	Duration time.Duration
}

// ModelCallEvent is the model call part of an [Event].
type ModelCallEvent struct {
	// Model is the model id of the call.
	Model string
	// Usage is the call's token usage, on a successful model_call_end.
	Usage *model.Usage
	// StopReason is why the model stopped, on turn_end.
	StopReason model.StopReason
	// Duration is how long the call took, on model_call_end.
	Duration time.Duration
	// MaxTokens is the max_tokens of the request, on model_call_start:
	// [Options.MaxTokens], or lower (see MaxTokensFrom); 0 when the
	// request leaves it to the provider's default.
	MaxTokens int
	// MaxTokensFrom, on model_call_start, is the max_tokens the request
	// would have had ([Options.MaxTokens], else the provider's default,
	// [model.MaxTokensReporter]) when the engine lowered it to MaxTokens
	// so that the request's input and its answer fit the context window
	// together, as an API that counts max_tokens against the window
	// requires; 0 when it was not lowered.
	MaxTokensFrom int
	// InputTokens, on a model_call_start whose MaxTokensFrom is set, is
	// the request's input tokens that bounded its max_tokens: the
	// provider's count when InputCounted, else an estimate (a quarter of
	// the characters, scaled to a count of the request when the context
	// engine had one, else corrected by the input the provider reported
	// for the session's last request).
	InputTokens  int
	InputCounted bool
}

// TaskEvent is the task part of an [Event]: the task's state after an
// update.
type TaskEvent struct {
	ID     string
	Status task.Status
	Owner  string
}

// PermissionEvent is the permission part of an [Event].
type PermissionEvent struct {
	// Decision is the outcome; [DecisionAsk] on approval_request.
	Decision Decision
	// By says who decided; "" on approval_request.
	By DecidedBy
	// RuleID is the policy rule that matched, if any.
	RuleID string
	// Reason explains the decision or the request.
	Reason string
	// Simulated marks a decision of a dry run, which did not take effect.
	Simulated bool
}

// RetryEvent is the retry part of an [Event]; Event.Err is the error that
// caused it.
type RetryEvent struct {
	// Attempt is the retry's number, 1 for the first retry of a model call.
	Attempt int
	// Wait is how long the engine waits before sending it, which honours
	// the provider's Retry-After.
	Wait time.Duration
	// Reason says why the call is retried, such as "rate limited (429)"
	// (see [model.Retry.Reason]).
	Reason string
}

// DiagnosticEvent is the diagnostic part of an [Event].
type DiagnosticEvent struct {
	// Code classifies the diagnostic, such as "hook_failed".
	Code string
}

// A Decision is the outcome of a permission decision as events carry it.
type Decision string

// The permission decisions.
const (
	DecisionAllow Decision = "allow"
	DecisionAsk   Decision = "ask" // on approval_request: the policy asks
	DecisionDeny  Decision = "deny"
)

// DecidedBy says who made a permission decision.
type DecidedBy string

// Who decides.
const (
	ByPolicy DecidedBy = "policy" // the policy allowed or denied
	ByUser   DecidedBy = "user"   // the approval handler answered
	ByAuto   DecidedBy = "auto"   // no handler, a cancelled wait or a failed handler: deny
)

// StopReason says why a prompt's turn loop ended.
type StopReason string

// The stop reasons of a prompt.
const (
	StopDone     StopReason = "stop"      // the model ended its turn
	StopAborted  StopReason = "aborted"   // the context was cancelled
	StopMaxTurns StopReason = "max_turns" // the turn limit was reached
)

// Result is the outcome of one prompt.
type Result struct {
	// SessionID is the session the prompt ran in.
	SessionID string
	// Messages are the messages this prompt added: the user message, the
	// assistant messages and the tool result messages.
	Messages []model.Message
	// Text is the text of the last assistant message.
	Text string
	// Usage is the total token usage of the prompt's model calls.
	Usage model.Usage
	// StopReason says why the loop ended.
	StopReason StopReason
	// Turns is the number of model calls made.
	Turns int
	// Output is the value a tool of the prompt last gave [tool.Call.SetOutput]
	// (such as a final-answer tool's input); nil when none did.
	Output json.RawMessage
}

// A BackgroundCompletion describes background work that ended, a subagent
// group or a background command, as the session it belongs to is told
// about it.
type BackgroundCompletion struct {
	// ID is the work's background id.
	ID string
	// Label names the work: "Subagent group: <names>" or "bash: <command>".
	Label string
	// Status says how it ended.
	Status CompletionStatus
	// IsError reports a Status other than CompletionCompleted.
	IsError bool
	// Content is what the work produced, as the session receives it.
	Content string
}

// CompletionStatus says how background work ended, in the words of the
// status attribute of its <background-task-completed> message.
type CompletionStatus string

// The statuses of background work.
const (
	CompletionCompleted CompletionStatus = "completed"
	CompletionPartial   CompletionStatus = "partial" // some of a group's subagents did not complete
	CompletionError     CompletionStatus = "error"   // failed: a non-zero exit, a crash, a timeout, failed subagents
	CompletionCancelled CompletionStatus = "cancelled"
)
