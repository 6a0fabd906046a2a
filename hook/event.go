package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
)

// An Event names a point in an agent's life at which hooks run.
type Event string

// The events hooks can subscribe to.
const (
	EventRunStart     Event = "run:start"     // when a run has secured its session, before its first model call; payload RunStart
	EventRunEnd       Event = "run:end"       // exactly once after a run that fired run:start, however it ended; payload RunEnd
	EventToolStart    Event = "tool:start"    // before a tool call, before the permission gate; payload ToolStart
	EventToolEnd      Event = "tool:end"      // after a tool call; payload ToolEnd
	EventCompactStart Event = "compact:start" // before a compaction; payload CompactStart
	EventCompactEnd   Event = "compact:end"   // after a compaction; payload CompactEnd
)

// Events returns the events in their documented order.
func Events() []Event {
	return []Event{EventRunStart, EventRunEnd, EventToolStart, EventToolEnd, EventCompactStart, EventCompactEnd}
}

// Valid reports whether e is one of the events of [Events].
func (e Event) Valid() bool {
	switch e {
	case EventRunStart, EventRunEnd, EventToolStart, EventToolEnd, EventCompactStart, EventCompactEnd:
		return true
	}
	return false
}

// isTool reports whether e is a tool event, the only kind a hook's Match
// applies to.
func (e Event) isTool() bool { return e == EventToolStart || e == EventToolEnd }

// isEnd reports whether e ends something. Hooks of end events are not
// cancelled by the caller's context, only by their own timeout, so they
// still run after a failure or a cancellation.
func (e Event) isEnd() bool {
	return e == EventRunEnd || e == EventToolEnd || e == EventCompactEnd
}

// A Source says what started the run an event belongs to.
type Source string

// The sources of a run.
const (
	SourceUser       Source = "user"       // a prompt sent by the host
	SourceBackground Source = "background" // an autonomous turn after background work completed
	SourceManual     Source = "manual"     // a maintenance operation the host asked for, such as a compaction
)

// A Status is how a run, a tool call or a compaction ended.
type Status string

// The statuses of an end event. StatusMaxTurns applies to runs only.
const (
	StatusCompleted Status = "completed"
	StatusFailed    Status = "failed"
	StatusCancelled Status = "cancelled"
	StatusMaxTurns  Status = "max_turns"
)

// A CompactKind says what triggered a compaction.
type CompactKind string

// The kinds of compaction.
const (
	CompactMicro  CompactKind = "micro"
	CompactAuto   CompactKind = "auto"
	CompactManual CompactKind = "manual"
)

// Identity holds the fields every payload carries.
type Identity struct {
	// RunID identifies the run (a UUID per run; children and background
	// runs have their own).
	RunID string
	// SessionID is the session the run belongs to.
	SessionID string
	// AgentID identifies the subagent whose run it is; "" for the root
	// agent, and then the JSON has no agentId field.
	AgentID string
	// Source says what started the run.
	Source Source
}

// A Payload is what a hook receives: one of [RunStart], [RunEnd],
// [ToolStart], [ToolEnd], [CompactStart] and [CompactEnd]. The set is
// closed; the JSON of each, which command hooks read on standard input, is
// documented on its type.
type Payload interface {
	// Event returns the event the payload belongs to.
	Event() Event
	// clone returns a deep copy, so that one hook cannot change what the
	// next one sees.
	clone() Payload
	// toolName returns the name of the tool of a tool event, "" otherwise.
	toolName() string
}

// The payload types are the whole set.
var (
	_ Payload = RunStart{}
	_ Payload = RunEnd{}
	_ Payload = ToolStart{}
	_ Payload = ToolEnd{}
	_ Payload = CompactStart{}
	_ Payload = CompactEnd{}
)

// header is the start of every payload's JSON, in this order.
type header struct {
	Event     Event  `json:"event"`
	RunID     string `json:"runId"`
	SessionID string `json:"sessionId"`
	AgentID   string `json:"agentId,omitempty"`
	Source    Source `json:"source"`
}

func (id Identity) header(e Event) header {
	return header{Event: e, RunID: id.RunID, SessionID: id.SessionID, AgentID: id.AgentID, Source: id.Source}
}

// ToolCall is a tool call as hooks see it.
type ToolCall struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"` // the model's arguments, a JSON value; empty means null
}

func (c ToolCall) clone() ToolCall {
	c.Input = cloneRaw(c.Input)
	return c
}

// ToolResult is a tool call's result as hooks see it.
type ToolResult struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Content string `json:"content"`
	IsError bool   `json:"isError,omitempty"`
}

// ErrorInfo describes the error that ended a run, a tool call or a
// compaction.
type ErrorInfo struct {
	Name    string `json:"name"`    // a short class name, such as "ProviderError"
	Message string `json:"message"` // the error's message
}

func cloneErr(e *ErrorInfo) *ErrorInfo {
	if e == nil {
		return nil
	}
	c := *e
	return &c
}

// RunResult is the outcome of a completed run as hooks see it: never the
// transcript.
type RunResult struct {
	Text       string          `json:"text"`             // the last assistant text
	Usage      model.Usage     `json:"usage"`            // total token usage
	StopReason string          `json:"stopReason"`       // stop, aborted or max_turns
	Output     json.RawMessage `json:"output,omitempty"` // the final answer, when an output schema is set
}

// RunStart is the payload of [EventRunStart]. Its JSON is
//
//	{"event":"run:start","runId":…,"sessionId":…,"agentId"?:…,"source":…,"input":…}
//
// It is sent once the run holds its session and has written its prompt
// there: a run refused before that (its session taken by another writer,
// or deleted meanwhile) fires neither run:start nor run:end, so a hook
// never acts for a run that did not happen, nor on another owner's
// session.
type RunStart struct {
	Identity
	// Input is the run's input as JSON: a string or a list of messages.
	Input json.RawMessage
}

// Event returns [EventRunStart].
func (RunStart) Event() Event { return EventRunStart }

func (p RunStart) clone() Payload {
	p.Input = cloneRaw(p.Input)
	return p
}

func (RunStart) toolName() string { return "" }

// MarshalJSON encodes p as its type's doc shows.
func (p RunStart) MarshalJSON() ([]byte, error) {
	return encode(struct {
		header
		Input json.RawMessage `json:"input"`
	}{p.header(EventRunStart), nullIfEmpty(p.Input)})
}

// RunEnd is the payload of [EventRunEnd]. Its JSON is
//
//	{"event":"run:end", <identity>, "status":…, "result"?:{"text","usage","stopReason","output"?}, "error"?:{"name","message"}}
//
// It is sent exactly once for each run that sent [RunStart], and for no
// other.
type RunEnd struct {
	Identity
	// Status is completed, failed, cancelled or max_turns.
	Status Status
	// Result is the run's outcome; nil when it produced none.
	Result *RunResult
	// Err describes the failure; nil unless the run failed.
	Err *ErrorInfo
}

// Event returns [EventRunEnd].
func (RunEnd) Event() Event { return EventRunEnd }

func (p RunEnd) clone() Payload {
	if p.Result != nil {
		r := *p.Result
		r.Output = cloneRaw(r.Output)
		p.Result = &r
	}
	p.Err = cloneErr(p.Err)
	return p
}

func (RunEnd) toolName() string { return "" }

// MarshalJSON encodes p as its type's doc shows.
func (p RunEnd) MarshalJSON() ([]byte, error) {
	return encode(struct {
		header
		Status Status     `json:"status"`
		Result *RunResult `json:"result,omitempty"`
		Err    *ErrorInfo `json:"error,omitempty"`
	}{p.header(EventRunEnd), p.Status, p.Result, p.Err})
}

// ToolStart is the payload of [EventToolStart]. It fires before the
// permission gate, so also for calls the policy then denies. Its JSON is
//
//	{"event":"tool:start", <identity>, "call":{"id","name","input"}}
type ToolStart struct {
	Identity
	Call ToolCall
}

// Event returns [EventToolStart].
func (ToolStart) Event() Event { return EventToolStart }

func (p ToolStart) clone() Payload {
	p.Call = p.Call.clone()
	return p
}

func (p ToolStart) toolName() string { return p.Call.Name }

// MarshalJSON encodes p as its type's doc shows.
func (p ToolStart) MarshalJSON() ([]byte, error) {
	return encode(struct {
		header
		Call ToolCall `json:"call"`
	}{p.header(EventToolStart), callForJSON(p.Call)})
}

// ToolEnd is the payload of [EventToolEnd]. Its JSON is
//
//	{"event":"tool:end", <identity>, "call":{…}, "result"?:{"id","name","content","isError"?}, "status":…, "durationMs":…, "error"?:{…}}
type ToolEnd struct {
	Identity
	Call ToolCall
	// Result is the call's result; nil when there is none.
	Result *ToolResult
	// Status is cancelled when the call's context was cancelled, failed
	// when the tool failed or its result is an error, else completed.
	Status Status
	// Duration is how long the call took; the JSON holds whole
	// milliseconds.
	Duration time.Duration
	// Err describes a failure of the runtime; nil otherwise.
	Err *ErrorInfo
}

// Event returns [EventToolEnd].
func (ToolEnd) Event() Event { return EventToolEnd }

func (p ToolEnd) clone() Payload {
	p.Call = p.Call.clone()
	if p.Result != nil {
		r := *p.Result
		p.Result = &r
	}
	p.Err = cloneErr(p.Err)
	return p
}

func (p ToolEnd) toolName() string { return p.Call.Name }

// MarshalJSON encodes p as its type's doc shows.
func (p ToolEnd) MarshalJSON() ([]byte, error) {
	return encode(struct {
		header
		Call       ToolCall    `json:"call"`
		Result     *ToolResult `json:"result,omitempty"`
		Status     Status      `json:"status"`
		DurationMs int64       `json:"durationMs"`
		Err        *ErrorInfo  `json:"error,omitempty"`
	}{p.header(EventToolEnd), callForJSON(p.Call), p.Result, p.Status, p.Duration.Milliseconds(), p.Err})
}

// CompactStart is the payload of [EventCompactStart]. Its JSON is
//
//	{"event":"compact:start", <identity>, "compactionId":…, "kind":…, "before":…, "beforeCounted"?:true, "instructions"?:…}
type CompactStart struct {
	Identity
	CompactionID string
	Kind         CompactKind
	// Before is the context size before compacting, in tokens;
	// BeforeCounted reports that it is the provider's count (as
	// [CompactEnd]'s), false an estimate, left out of the JSON.
	Before        int64
	BeforeCounted bool
	// Instructions are the host's instructions of a manual compaction.
	Instructions string
}

// Event returns [EventCompactStart].
func (CompactStart) Event() Event { return EventCompactStart }

func (p CompactStart) clone() Payload { return p }

func (CompactStart) toolName() string { return "" }

// MarshalJSON encodes p as its type's doc shows.
func (p CompactStart) MarshalJSON() ([]byte, error) {
	return encode(struct {
		header
		CompactionID string      `json:"compactionId"`
		Kind         CompactKind `json:"kind"`
		Before       int64       `json:"before"`
		Counted      bool        `json:"beforeCounted,omitempty"`
		Instructions string      `json:"instructions,omitempty"`
	}{p.header(EventCompactStart), p.CompactionID, p.Kind, p.Before, p.BeforeCounted, p.Instructions})
}

// CompactEnd is the payload of [EventCompactEnd]. Its JSON is
//
//	{"event":"compact:end", <identity>, "compactionId":…, "kind":…, "before":…, "beforeCounted"?:true, "after":…, "afterCounted"?:true, "status":…, "error"?:{…}}
type CompactEnd struct {
	Identity
	CompactionID string
	Kind         CompactKind
	// Before and After are the context sizes around the compaction, in
	// tokens.
	Before, After int64
	// BeforeCounted and AfterCounted report that Before and After are the
	// provider's counts of the request, as the compaction's events say
	// (engine.CompactionEvent, engine.ContextStatus); false, estimates.
	// An automatic compaction's After is never counted (an estimate,
	// scaled to Before's count when BeforeCounted). Left out of the JSON
	// when false.
	BeforeCounted, AfterCounted bool
	// Status is completed, failed or cancelled.
	Status Status
	Err    *ErrorInfo
}

// Event returns [EventCompactEnd].
func (CompactEnd) Event() Event { return EventCompactEnd }

func (p CompactEnd) clone() Payload {
	p.Err = cloneErr(p.Err)
	return p
}

func (CompactEnd) toolName() string { return "" }

// MarshalJSON encodes p as its type's doc shows.
func (p CompactEnd) MarshalJSON() ([]byte, error) {
	return encode(struct {
		header
		CompactionID  string      `json:"compactionId"`
		Kind          CompactKind `json:"kind"`
		Before        int64       `json:"before"`
		BeforeCounted bool        `json:"beforeCounted,omitempty"`
		After         int64       `json:"after"`
		AfterCounted  bool        `json:"afterCounted,omitempty"`
		Status        Status      `json:"status"`
		Err           *ErrorInfo  `json:"error,omitempty"`
	}{p.header(EventCompactEnd), p.CompactionID, p.Kind, p.Before, p.BeforeCounted, p.After, p.AfterCounted, p.Status, p.Err})
}

// Marshal returns the JSON a command hook reads for p, without the
// trailing newline. It fails if a raw JSON field of p is not valid JSON.
func Marshal(p Payload) ([]byte, error) {
	if p == nil {
		return nil, fmt.Errorf("hook: nil payload")
	}
	return encode(p)
}

// encode is json.Marshal without HTML escaping, so that "<", ">" and "&"
// reach hooks as they are.
func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func cloneRaw(m json.RawMessage) json.RawMessage {
	if m == nil {
		return nil
	}
	return append(json.RawMessage(nil), m...)
}

func nullIfEmpty(m json.RawMessage) json.RawMessage {
	if len(m) == 0 {
		return json.RawMessage("null")
	}
	return m
}

func callForJSON(c ToolCall) ToolCall {
	c.Input = nullIfEmpty(c.Input)
	return c
}
