package tool

import (
	"context"
	"encoding/json"
	"fmt"
)

// A Tool is something a model can call.
//
// Implementations must be safe for concurrent use: the engine runs the calls
// of one model response concurrently.
type Tool interface {
	// Name returns the name the model calls the tool by. It must satisfy
	// [ValidateName] and not change.
	Name() string

	// Description tells the model what the tool does and when to use it.
	Description() string

	// Schema returns the JSON Schema of the tool's input, which is an object
	// schema. The caller may keep and modify the returned bytes.
	Schema() json.RawMessage

	// Call runs the tool on input, the JSON the model sent as the call's
	// arguments; input may be empty. c says which call it is and carries
	// what the call may report back to the turn making it; nil means a
	// call made outside any turn, which is the same as a zero [Call]. The
	// outcome of the tool's work, failure included, is the Result. A
	// non-nil error reports a failure of the runtime, such as ctx being
	// done, and ends the turn; Call returns it only when no Result for the
	// model makes sense.
	Call(ctx context.Context, c *Call, input json.RawMessage) (Result, error)
}

// A Call is one call of a tool, as its handler receives it next to its
// input: which call it is, in which session and turn, and the [Reporter]
// through which it reports back to that turn. The engine makes one for each
// call of the model; nothing of it travels in the context.
//
// A handler may keep the Call past its return (work it started in the
// background); what it reports after its turn's tool phase ended is dropped.
// A zero Call is a call outside any turn: it reports nothing.
type Call struct {
	// ID is the id the model gave the call; "" outside a turn.
	ID string
	// Name is the name the model called the tool by.
	Name string
	// SessionID is the session whose turn makes the call; "" outside a
	// session.
	SessionID string
	// Turn is the 1-based number of the model call, within its prompt, that
	// asked for this call; 0 outside a turn.
	Turn int
	// Reporter receives the events and the output the call reports; nil
	// drops them.
	Reporter Reporter
}

// A Reporter is the side of a runtime that the calls it makes report back
// to. The engine implements it for the calls of its turns. Implementations
// must be safe for concurrent use.
type Reporter interface {
	// Emit sends ev, an event value of the runtime (an engine.Event for the
	// engine; other values are refused), to the event stream of the call's
	// turn, and reports whether the turn took it: false once the turn's
	// tool phase is over.
	Emit(ev any) bool
	// SetOutput makes v the structured answer of the call's prompt, unless
	// a later call replaces it, and reports whether the prompt took it.
	SetOutput(v json.RawMessage) bool
}

// Emit sends ev to the event stream of the turn making c through its
// Reporter, and reports whether the turn took it. It is false for a nil
// Call or one without a Reporter.
func (c *Call) Emit(ev any) bool {
	if c == nil || c.Reporter == nil {
		return false
	}
	return c.Reporter.Emit(ev)
}

// SetOutput makes v the structured answer of the prompt making c, such as
// a final-answer tool's input, and reports whether the prompt took it. It
// is false for a nil Call or one without a Reporter.
func (c *Call) SetOutput(v json.RawMessage) bool {
	if c == nil || c.Reporter == nil {
		return false
	}
	return c.Reporter.SetOutput(v)
}

// Detach returns a copy of c that reports nothing, for work that outlives
// the call and must not reach its turn, such as another agent's run
// started by the call. The ids stay. Detach of nil is a zero Call.
func (c *Call) Detach() *Call {
	if c == nil {
		return &Call{}
	}
	d := *c
	d.Reporter = nil
	return &d
}

// orZero returns c, or a zero Call when c is nil, so that handlers always
// receive a Call.
func (c *Call) orZero() *Call {
	if c == nil {
		return &Call{}
	}
	return c
}

// A Result is what one tool call returns to the model.
type Result struct {
	// Content is the text the model reads. For a failure it starts with
	// "Error: ".
	Content string

	// IsError reports that the call failed. Providers pass it on to the
	// model, and hooks and events record it.
	IsError bool
}

// errorPrefix begins the Content of every error Result this package makes.
const errorPrefix = "Error: "

// Text returns a successful Result whose content is s.
func Text(s string) Result {
	return Result{Content: s}
}

// Errorf returns an error Result whose content is "Error: " followed by the
// message formatted as [fmt.Errorf] would format it, so %w is accepted.
func Errorf(format string, args ...any) Result {
	return Result{Content: errorPrefix + fmt.Errorf(format, args...).Error(), IsError: true}
}

// Unknown returns the error Result for a call to a tool named name that the
// agent does not have: "Error: unknown tool '<name>'".
func Unknown(name string) Result {
	return Result{Content: errorPrefix + "unknown tool '" + name + "'", IsError: true}
}

// maxNameLen is the longest tool name model providers accept.
const maxNameLen = 64

// ValidateName returns an error unless name is 1 to 64 ASCII letters, digits,
// underscores or hyphens, the tool names model providers accept.
func ValidateName(name string) error {
	if name == "" || len(name) > maxNameLen {
		return fmt.Errorf("invalid tool name %q: want 1 to %d characters", name, maxNameLen)
	}
	for i := range len(name) {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return fmt.Errorf("invalid tool name %q: want only ASCII letters, digits, '_' and '-'", name)
		}
	}
	return nil
}
