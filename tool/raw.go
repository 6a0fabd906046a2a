package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// raw is a tool built by NewRaw.
type raw struct {
	spec
	handler func(context.Context, *Call, json.RawMessage) (Result, error)
}

var _ Tool = (*raw)(nil)

// NewRaw returns a Tool named name whose input schema is given rather than
// inferred, for schemas known only at run time, such as a tool of an MCP
// server or a host's final-answer schema.
//
// The schema must be a JSON Schema (draft 2020-12 or draft-07) whose type is
// "object" and whose references all point inside it. [Tool.Schema] returns
// it as given, compacted. NewRaw returns an error if name does not satisfy
// [ValidateName] or the schema is unusable, and panics if handler is nil.
//
// Call validates input as the tools of [New] do and never runs handler on
// input that is not valid JSON or does not satisfy the schema. handler
// receives the input as the model sent it, with surrounding space removed
// and empty or null input replaced by {}. Errors, panics and cancellation are
// handled as for New.
//
// The Tool is safe for concurrent use if handler is.
func NewRaw(name, description string, schema json.RawMessage, handler func(ctx context.Context, c *Call, input json.RawMessage) (Result, error)) (Tool, error) {
	if handler == nil {
		panic(fmt.Sprintf("tool.NewRaw(%q): nil handler", name))
	}
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, fmt.Errorf("tool %s: invalid input schema: %w", name, err)
	}
	sp, err := newSpec(name, description, &s)
	if err != nil {
		return nil, fmt.Errorf("tool %s: invalid input schema: %w", name, err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, schema); err != nil {
		return nil, fmt.Errorf("tool %s: invalid input schema: %w", name, err)
	}
	sp.schema = compact.Bytes()
	return &raw{spec: sp, handler: handler}, nil
}

// Call implements [Tool].
func (t *raw) Call(ctx context.Context, c *Call, input json.RawMessage) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	input, bad := t.check(input)
	if bad != nil {
		return *bad, nil
	}
	return run(ctx, t.name, t.handler, c, input)
}
