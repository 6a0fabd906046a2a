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
	// arguments; input may be empty. The outcome of the tool's work, failure
	// included, is the Result. A non-nil error reports a failure of the
	// runtime, such as ctx being done, and ends the turn; Call returns it
	// only when no Result for the model makes sense.
	Call(ctx context.Context, input json.RawMessage) (Result, error)
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
