package engine

import (
	"encoding/json"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
)

// EventType names the kind of an [Event].
type EventType string

// The event types of the event stream.
const (
	EventTurnStart           EventType = "turn_start"           // Turn
	EventModelCallStart      EventType = "model_call_start"     // Turn, Model
	EventModelCallEnd        EventType = "model_call_end"       // Turn, Model, Duration, Usage, Err
	EventTextDelta           EventType = "text_delta"           // Text
	EventMessage             EventType = "message"              // Message
	EventToolUse             EventType = "tool_use"             // Call: every call of a turn, up front, in input order
	EventToolCallStart       EventType = "tool_call_start"      // Call, Turn
	EventToolCallEnd         EventType = "tool_call_end"        // Call, Turn, Duration, IsError
	EventToolResult          EventType = "tool_result"          // Call, Result: in completion order
	EventSteer               EventType = "steer"                // Message: a message Engine.Steer added to the running turn
	EventToolRecovered       EventType = "tool_recovered"       // Call, Turn: a call a crash left unanswered got an "interrupted" result
	EventInputRequest        EventType = "input_request"        // Call, Text: the model asks the user (ask_user) Text
	EventInputResolved       EventType = "input_resolved"       // Call, Text: the answer, as the model receives it
	EventTaskUpdate          EventType = "task_update"          // TaskID, Status, Owner
	EventTurnEnd             EventType = "turn_end"             // Turn, StopReason
	EventRetry               EventType = "retry"                // Turn, Attempt, Reason, Wait, Err: a model call is retried (not fatal)
	EventContextStatus       EventType = "context_status"       // Context: the request was over 65% of the window; the levels that ran
	EventDiagnostic          EventType = "diagnostic"           // Code, Text: something went wrong beside the turn (a hook failed)
	EventBackgroundCompleted EventType = "background_completed" // Completion, Text: background work ended; Text is the message its delivery turn receives
	EventPermission          EventType = "permission_decision"  // Call, Decision, By, RuleID, Reason, Simulated
	EventApprovalAsk         EventType = "approval_request"     // Call, Reason
	EventApprovalAnswer      EventType = "approval_resolved"    // Call, Decision, By
	EventError               EventType = "error"                // Err, Fatal
	EventDone                EventType = "done"                 // Result
)

// Event is one thing that happened during a turn. Type says which fields are
// set.
type Event struct {
	Type EventType
	// SessionID is the session the event belongs to.
	SessionID string
	// AgentID names the subagent an event is about, or "" for the agent
	// itself.
	AgentID string
	// Turn is the 1-based model call number within the prompt.
	Turn int
	// Model is the model id of a model call.
	Model string
	// Text is a text delta.
	Text string
	// Message is a complete assistant message.
	Message *model.Message
	// Call is a tool call (a tool_call block).
	Call *model.Block
	// Result is a tool result (a tool_result block).
	Result *model.Block
	// IsError marks a failed tool call on tool_call_end.
	IsError bool
	// Duration is how long a model or tool call took.
	Duration time.Duration
	// Usage is the token usage of a model call.
	Usage *model.Usage
	// StopReason is why the model stopped, on turn_end.
	StopReason model.StopReason
	// TaskID, Status and Owner describe a task update.
	TaskID, Status, Owner string
	// Code classifies a diagnostic, such as "hook_failed".
	Code string
	// Decision (allow, ask or deny), By (policy, user or auto), RuleID,
	// Reason and Simulated describe a permission decision. On retry,
	// Reason says why the model call is retried, such as "rate limited
	// (429)" (see [model.Retry.Reason]).
	Decision, By, RuleID, Reason string
	Simulated                    bool
	// Attempt is a retry's number, 1 for the first retry of a model call;
	// Wait is how long the engine waits before sending it, which honours
	// the provider's Retry-After.
	Attempt int
	Wait    time.Duration
	// Context is what the context engine did to the next request.
	Context *ContextStatus
	// Completion is background work that ended (background_completed).
	Completion *BackgroundCompletion
	// Err is the error of an error, retry or failed model_call_end event.
	Err error
	// Fatal marks an error that ended the turn.
	Fatal bool
	// Result of the whole prompt, on done.
	Done *Result
}

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
