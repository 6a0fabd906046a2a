package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// spec is what every tool of this package holds: its identity and its
// resolved input schema. It is fixed at construction.
type spec struct {
	name        string
	description string
	schema      []byte // compact JSON of the input schema
	resolved    *jsonschema.Resolved
}

// Name implements [Tool].
func (s *spec) Name() string { return s.name }

// Description implements [Tool].
func (s *spec) Description() string { return s.description }

// Schema implements [Tool]; it returns a copy of the schema.
func (s *spec) Schema() json.RawMessage { return bytes.Clone(s.schema) }

// maxDetailLen caps the details of an invalid-input Result in bytes, because
// a validator may quote the offending value, which can be long.
const maxDetailLen = 1024

// check parses input and validates it against the schema. Empty input and
// null count as an empty object. It returns the input to decode, or an error
// Result for the model.
func (s *spec) check(input json.RawMessage) (json.RawMessage, *Result) {
	input = bytes.TrimSpace(input)
	if len(input) == 0 || string(input) == "null" {
		input = json.RawMessage("{}")
	}
	var v any
	if err := json.Unmarshal(input, &v); err != nil {
		return nil, s.invalid(decodeDetail(err))
	}
	if err := s.resolved.Validate(v); err != nil {
		// The validator's messages all start by naming the root of the
		// instance, which tells the model nothing.
		return nil, s.invalid(strings.TrimPrefix(err.Error(), "validating root: "))
	}
	return input, nil
}

// invalid returns the Result for input that failed a check, with detail
// capped at maxDetailLen bytes.
func (s *spec) invalid(detail string) *Result {
	if len(detail) > maxDetailLen {
		cut := maxDetailLen
		for cut > 0 && !utf8.RuneStart(detail[cut]) {
			cut--
		}
		detail = detail[:cut] + "…"
	}
	return &Result{Content: errorPrefix + "invalid input for " + s.name + ": " + detail, IsError: true}
}

// decodeDetail describes an encoding/json error in the terms of the model's
// input rather than of Go.
func decodeDetail(err error) string {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return "not valid JSON: " + strings.TrimPrefix(err.Error(), "json: ")
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		field := typ.Field
		if field == "" {
			field = "input"
		}
		return fmt.Sprintf("%s: cannot use %s as %s", field, typ.Value, typ.Type)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// run calls handler with in, the one place where a tool's panic is
// recovered. A handler error becomes an error Result unless ctx is done, in
// which case the cancellation is what Call reports. A panic becomes an error
// Result naming the tool and the panic value, without the stack.
func run[In any](ctx context.Context, name string, handler func(context.Context, *Call, In) (Result, error), c *Call, in In) (res Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			res, err = Result{Content: fmt.Sprintf("%stool %s panicked: %v", errorPrefix, name, v), IsError: true}, nil
		}
	}()
	res, err = handler(ctx, c.orZero(), in)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return Result{}, cerr
		}
		return Result{Content: errorPrefix + err.Error(), IsError: true}, nil
	}
	return res, nil
}
