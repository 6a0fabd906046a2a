package session

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lite-agent/lite-agent-go/model"
)

// An Event is one entry of a session log. The concrete types are
// [UserEvent], [AssistantEvent], [ToolStartedEvent], [ToolResultEvent],
// [FileSnapshotEvent], [ArtifactVerifiedEvent], [PermissionDecisionEvent],
// [SummaryEvent] and [ContextViewEvent], plus [RawEvent] for an event of a
// type this package does not know; use a type switch to tell them apart.
//
// Each type's JSON form, written by its MarshalJSON method and stored in the
// log, is an object whose first member is "type" (see the type's doc). The
// set is closed, because the log format is shared with other
// implementations; to store something else, use a RawEvent with a type name
// of your own. The values are plain data and safe to share once built.
type Event interface {
	// EventType returns the value of the event's "type" member, such as
	// "user" or "tool_result".
	EventType() string

	appendJSON(b []byte) ([]byte, error)
}

// Origin says where a user message came from.
type Origin string

// The origins of user messages.
const (
	OriginUser       Origin = "user"       // typed by the user
	OriginBackground Origin = "background" // a background task's completion
	OriginInternal   Origin = "internal"   // written by the runtime, such as a repair prompt
)

// UserEvent records a user message:
//
//	{"type":"user","message":{…},"origin":"user","checkpoint":true}
//
// origin and checkpoint are written only when set; records written by older
// versions have neither.
type UserEvent struct {
	Message model.Message
	// Origin is where the message came from; "" omits it.
	Origin Origin
	// Checkpoint marks a real user prompt (true) or a background or
	// internal message (false); nil omits it, as in older logs.
	Checkpoint *bool
}

// AssistantEvent records a model reply:
//
//	{"type":"assistant","message":{…},"usage":{"inputTokens":2400,"outputTokens":80},"inputEstimate":1200,"model":"claude-sonnet-4-5"}
//
// usage, inputEstimate and model are written only when set; records written by
// older versions, and by the TypeScript reference, have neither (its
// reader reads only the message of an assistant record). A reader of
// this package skips a usage, inputEstimate or model of another shape, as it
// skips unknown members, and reads the record without it.
type AssistantEvent struct {
	Message model.Message
	// Usage is the provider's usage of the request the message answers,
	// as reported, in the shape of the reference's usage (cacheReadTokens
	// and cacheCreationTokens written when not 0); the zero Usage omits
	// it.
	Usage model.Usage
	// InputEstimate is the engine's plain estimate of that request's
	// input, in tokens (a quarter of its UTF-16 code units); 0 omits it.
	// With Usage it calibrates the session's estimates in a process that
	// resumes it (the engine's calibration).
	InputEstimate int
	// Model is the model id of the request the message answers; "" omits
	// it. A ratio of Usage over InputEstimate measures that model's
	// tokenizer: a process resuming the session with another model does
	// not take it.
	Model string
}

// maxInputEstimate bounds the AssistantEvent.InputEstimate read from a
// log; a record of a larger one keeps the value as stored.
const maxInputEstimate = 1 << 40

// ToolStartedEvent records that a tool call began (written only when
// crash recovery is enabled):
//
//	{"type":"tool_started","id":"call_1","name":"bash","turn":1}
type ToolStartedEvent struct {
	ID   string
	Name string
	Turn int
}

// ToolResultEvent records the result of one tool call; Result is normally a
// tool_result block:
//
//	{"type":"tool_result","result":{"type":"tool_result","id":"call_1","content":"ok"},"turn":1}
type ToolResultEvent struct {
	Result model.Block
	Turn   int
}

// FileSnapshotEvent records a file's contents before a tool changed it:
//
//	{"type":"file_snapshot","path":"a.txt","before":"old","encoding":"utf8","after":"<sha256 hex>","turn":1}
//
// truncated is written only when true, encoding only when set, and after
// as a string when After is set or as null when Deleted.
type FileSnapshotEvent struct {
	Path string
	// Before is the previous content (see Encoding), or nil when the file
	// did not exist or was too large to keep (then Truncated is set).
	Before *string
	// Truncated reports that Before was not kept because of its size.
	Truncated bool
	// Encoding is how Before is written: "utf8", "base64", or "" when
	// not recorded.
	Encoding string
	// After is the sha256 hex digest of the bytes the tool wrote, or ""
	// when the tool deleted the file (see Deleted) or older logs did not
	// record it.
	After string
	// Deleted reports that the tool deleted the file; "after" is then null.
	Deleted bool
	Turn    int
}

// ArtifactVerifiedEvent records that a command verified an artifact:
//
//	{"type":"artifact_verified","path":"out.bin","revision":"r1","command":"make test","result":{…},"turn":2}
//
// revision is written only when set, as a string; a revision stored as a
// JSON number (the log format leaves its type to the host) reads as the
// number's text.
type ArtifactVerifiedEvent struct {
	Path     string
	Revision string
	Command  string
	// Result is the verification's JSON result; nil is written as null.
	Result json.RawMessage
	Turn   int
}

// PermissionCall is the tool call a permission decision was about.
type PermissionCall struct {
	ID   string
	Name string
	// Input is the call's JSON input, already redacted; nil is written
	// as {}.
	Input json.RawMessage
}

// PermissionDecisionEvent is the audit record of a permission decision:
//
//	{"type":"permission_decision","call":{"id":…,"name":…,"input":{…}},"decision":"allow","ruleId":"r1","reason":"…","simulated":true,"by":"policy","turn":1}
//
// ruleId and reason are written only when set, simulated only when true.
type PermissionDecisionEvent struct {
	Call PermissionCall
	// Decision is "allow", "deny" or "ask".
	Decision  string
	RuleID    string
	Reason    string
	Simulated bool
	// By is "policy", "user" or "auto".
	By   string
	Turn int
}

// SummaryEvent replaces the transcript so far with Messages (written by
// manual compaction):
//
//	{"type":"summary","messages":[…],"throughSeq":12,"before":9000,"after":1200}
//
// Before and After are token counts.
type SummaryEvent struct {
	Messages   []model.Message
	ThroughSeq int64
	Before     int
	After      int
}

// ContextViewEvent records a committed context view covering the log
// through ThroughSeq:
//
//	{"type":"context_view","throughSeq":40,"view":{…}}
type ContextViewEvent struct {
	ThroughSeq int64
	// View is the view's JSON; nil is written as null.
	View json.RawMessage
}

// RawEvent is an event of a type this package does not know (or one a
// caller builds itself), kept verbatim so that logs written by newer
// versions still read and rewrite unchanged. [Fold] skips it.
type RawEvent struct {
	// Type is the value of the event's "type" member.
	Type string
	// JSON is the whole event object, "type" member included. It is
	// written compacted; its "type" member must equal Type.
	JSON json.RawMessage
}

// EventType returns "user".
func (UserEvent) EventType() string { return "user" }

// EventType returns "assistant".
func (AssistantEvent) EventType() string { return "assistant" }

// EventType returns "tool_started".
func (ToolStartedEvent) EventType() string { return "tool_started" }

// EventType returns "tool_result".
func (ToolResultEvent) EventType() string { return "tool_result" }

// EventType returns "file_snapshot".
func (FileSnapshotEvent) EventType() string { return "file_snapshot" }

// EventType returns "artifact_verified".
func (ArtifactVerifiedEvent) EventType() string { return "artifact_verified" }

// EventType returns "permission_decision".
func (PermissionDecisionEvent) EventType() string { return "permission_decision" }

// EventType returns "summary".
func (SummaryEvent) EventType() string { return "summary" }

// EventType returns "context_view".
func (ContextViewEvent) EventType() string { return "context_view" }

// EventType returns e.Type.
func (e RawEvent) EventType() string { return e.Type }

// MarshalEvent returns the JSON form of ev as stored in the log. It fails
// for a nil event, for invalid JSON in a raw field, and for a RawEvent
// whose JSON is not an object with a matching "type".
func MarshalEvent(ev Event) ([]byte, error) {
	if ev == nil {
		return nil, errors.New("session: nil event")
	}
	return ev.appendJSON(nil)
}

// DecodeEvent decodes one event from its JSON form: a known type into its
// concrete type, any other type into a [RawEvent]. It fails if data is not
// a JSON object with a string "type", or if a known type's members have the
// wrong JSON types (null counts as absent).
func DecodeEvent(data []byte) (Event, error) {
	r := newReader(data)
	ev := readEvent(r)
	if err := r.End(); err != nil {
		return nil, err
	}
	return ev, nil
}

// MarshalJSON implements [json.Marshaler]; see [UserEvent].
func (e UserEvent) MarshalJSON() ([]byte, error) { return e.appendJSON(nil) }

// MarshalJSON implements [json.Marshaler]; see [AssistantEvent].
func (e AssistantEvent) MarshalJSON() ([]byte, error) { return e.appendJSON(nil) }

// MarshalJSON implements [json.Marshaler]; see [ToolStartedEvent].
func (e ToolStartedEvent) MarshalJSON() ([]byte, error) { return e.appendJSON(nil) }

// MarshalJSON implements [json.Marshaler]; see [ToolResultEvent].
func (e ToolResultEvent) MarshalJSON() ([]byte, error) { return e.appendJSON(nil) }

// MarshalJSON implements [json.Marshaler]; see [FileSnapshotEvent].
func (e FileSnapshotEvent) MarshalJSON() ([]byte, error) { return e.appendJSON(nil) }

// MarshalJSON implements [json.Marshaler]; see [ArtifactVerifiedEvent].
func (e ArtifactVerifiedEvent) MarshalJSON() ([]byte, error) { return e.appendJSON(nil) }

// MarshalJSON implements [json.Marshaler]; see [PermissionDecisionEvent].
func (e PermissionDecisionEvent) MarshalJSON() ([]byte, error) { return e.appendJSON(nil) }

// MarshalJSON implements [json.Marshaler]; see [SummaryEvent].
func (e SummaryEvent) MarshalJSON() ([]byte, error) { return e.appendJSON(nil) }

// MarshalJSON implements [json.Marshaler]; see [ContextViewEvent].
func (e ContextViewEvent) MarshalJSON() ([]byte, error) { return e.appendJSON(nil) }

// MarshalJSON implements [json.Marshaler]; see [RawEvent].
func (e RawEvent) MarshalJSON() ([]byte, error) { return e.appendJSON(nil) }

// UnmarshalJSON implements [json.Unmarshaler] with the rules of [DecodeEvent].
func (e *UserEvent) UnmarshalJSON(data []byte) error { return unmarshalAs(data, e) }

// UnmarshalJSON implements [json.Unmarshaler] with the rules of [DecodeEvent].
func (e *AssistantEvent) UnmarshalJSON(data []byte) error { return unmarshalAs(data, e) }

// UnmarshalJSON implements [json.Unmarshaler] with the rules of [DecodeEvent].
func (e *ToolStartedEvent) UnmarshalJSON(data []byte) error { return unmarshalAs(data, e) }

// UnmarshalJSON implements [json.Unmarshaler] with the rules of [DecodeEvent].
func (e *ToolResultEvent) UnmarshalJSON(data []byte) error { return unmarshalAs(data, e) }

// UnmarshalJSON implements [json.Unmarshaler] with the rules of [DecodeEvent].
func (e *FileSnapshotEvent) UnmarshalJSON(data []byte) error { return unmarshalAs(data, e) }

// UnmarshalJSON implements [json.Unmarshaler] with the rules of [DecodeEvent].
func (e *ArtifactVerifiedEvent) UnmarshalJSON(data []byte) error { return unmarshalAs(data, e) }

// UnmarshalJSON implements [json.Unmarshaler] with the rules of [DecodeEvent].
func (e *PermissionDecisionEvent) UnmarshalJSON(data []byte) error { return unmarshalAs(data, e) }

// UnmarshalJSON implements [json.Unmarshaler] with the rules of [DecodeEvent].
func (e *SummaryEvent) UnmarshalJSON(data []byte) error { return unmarshalAs(data, e) }

// UnmarshalJSON implements [json.Unmarshaler] with the rules of [DecodeEvent].
func (e *ContextViewEvent) UnmarshalJSON(data []byte) error { return unmarshalAs(data, e) }

// UnmarshalJSON implements [json.Unmarshaler]: it keeps any event object
// with a string "type", known or not, verbatim.
func (e *RawEvent) UnmarshalJSON(data []byte) error {
	r := newReader(data)
	r.SkipSpace()
	start := r.Pos
	typ, ok := skimEvent(r)
	if err := r.End(); err != nil {
		return err
	}
	if !ok {
		return errNoType
	}
	*e = RawEvent{Type: typ, JSON: append(json.RawMessage(nil), data[start:r.Pos]...)}
	return nil
}

// unmarshalAs decodes data into dst, a pointer to a concrete event type,
// and fails if data holds another type.
func unmarshalAs[T Event](data []byte, dst *T) error {
	ev, err := DecodeEvent(data)
	if err != nil {
		return err
	}
	v, ok := ev.(T)
	if !ok {
		var zero T
		return fmt.Errorf("session: event type %q, want %q", ev.EventType(), zero.EventType())
	}
	*dst = v
	return nil
}
