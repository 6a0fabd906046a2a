// Package tool holds the contract between an agent's turn loop and the tools
// a model can call, and builds typed tools whose input schema is inferred
// from a Go type.
//
// # The contract
//
// A [Tool] has a name, a description, the JSON Schema of its input (always an
// object schema) and a Call method that takes the model's input as raw JSON
// next to a [Call]: the call's id, its session and turn, and the [Reporter]
// through which it emits events or sets the prompt's output. As in the
// typed handlers of the MCP Go SDK, a handler receives all it knows about
// its call explicitly, never through context values.
// Call returns a [Result]: the text the model reads and whether the call
// failed. A tool's failure is data for the model, not an error of the
// program: bad input, a failing handler and a panicking handler all become a
// Result with IsError set whose Content starts with "Error: ", and the turn
// goes on. Call returns a non-nil Go error only for failures of the runtime,
// which end the turn; for tools built by this package that means the context
// being done.
//
// The engine that dispatches calls uses [Unknown] for a name no tool has, and
// a [Set] to look tools up by name.
//
// # Typed tools
//
// [New] builds a tool from a handler that takes a Go value:
//
//	type readFileInput struct {
//		Path  string `json:"path" jsonschema:"the file to read, relative to the workspace"`
//		Limit int    `json:"limit,omitempty" jsonschema:"the number of lines to return"`
//	}
//
//	readFile := tool.New("read_file", "Read a text file.",
//		func(ctx context.Context, c *tool.Call, in readFileInput) (tool.Result, error) { … })
//
// The schema is inferred once, by [github.com/google/jsonschema-go/jsonschema]:
//
//   - the input type must be a struct or a map with string keys, so that the
//     schema is an object schema, as model providers require;
//   - each exported struct field becomes a property named by its json tag;
//     fields tagged json:"-" are left out and embedded structs are flattened;
//   - a field is required unless its json tag says omitempty or omitzero;
//   - the jsonschema struct tag is the property's description;
//   - a struct allows no properties beyond its fields (additionalProperties
//     is false), so a misspelt or differently cased name is rejected rather
//     than silently ignored; a map allows any property its value type fits;
//   - sized integer types carry their bounds (an int8 is at least -128 and
//     at most 127); slices and pointers also accept null; a field of type any
//     or [encoding/json.RawMessage] accepts any JSON value.
//
// A type with no JSON Schema (a channel, a function, a complex number, a map
// whose keys are not strings, a recursive type) is a programmer error that
// shows on the first run, so New panics, naming the tool and the field.
//
// Every call is checked before the handler runs: the input is parsed, an
// empty or null input counts as {}, the value is validated against the
// resolved schema and then decoded into the input type. Input that fails any
// step never reaches the handler; the model gets
// "Error: invalid input for <name>: <details>".
//
// # Tools with a given schema
//
// [NewRaw] builds a tool whose schema is known only at run time, such as a
// tool of an MCP server or a host's final-answer schema. It validates input
// the same way and hands the handler the raw JSON. Because its schema comes
// from outside the program, it reports a bad schema as an error rather than
// panicking.
//
// # Middleware
//
// [Use] wraps a tool's calls in [Middleware], functions of the next
// [CallFunc] that run before and after each call with its identity (the
// [Call]), in order, the first outermost. The wrapped tool keeps the name,
// description and schema, and unwraps to the tool.
//
// # Optional interfaces
//
// An input type of [New] may implement [SchemaRefiner] to add what struct
// tags cannot say, such as bounds, patterns and enumerations. Without it the
// inferred schema is used as it is.
//
// # Concurrency
//
// Tools built by New and NewRaw hold no mutable state: Call is safe for
// concurrent use whenever the handler is. A [Set] is immutable and safe for
// concurrent use.
package tool
