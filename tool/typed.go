package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// A SchemaRefiner is an input type of [New] that adds to the schema inferred
// for it what struct tags cannot say, such as bounds, patterns and
// enumerations:
//
//	func (readFileInput) RefineSchema(s *jsonschema.Schema) {
//		s.Properties["limit"].Minimum = jsonschema.Ptr(1.0)
//	}
//
// New calls RefineSchema once, on a zero value, before it resolves the
// schema, and panics if the refined schema is no longer an object schema or
// does not resolve. The schema is New's own copy.
type SchemaRefiner interface {
	RefineSchema(s *jsonschema.Schema)
}

// typed is a tool built by New.
type typed[In any] struct {
	spec
	handler func(context.Context, *Call, In) (Result, error)
}

var _ Tool = (*typed[struct{}])(nil)

// New returns a Tool named name whose input is a value of type In, decoded
// from the model's JSON and passed to handler with the [Call] it belongs to
// (a zero Call when the caller passed nil).
//
// The input schema is inferred from In once, as the package doc describes,
// refined if In is a [SchemaRefiner], and resolved. New panics, naming the
// tool and, where one is to blame, the field, if name does not satisfy
// [ValidateName], handler is nil, In is not a struct or a map with string
// keys, or a type inside In has no JSON Schema.
//
// Call never runs handler on input that is not valid JSON, does not satisfy
// the schema or does not decode into In; the model gets
// "Error: invalid input for <name>: <details>" instead. An error from handler
// becomes the Result "Error: <error text>", and a panic in handler becomes
// "Error: tool <name> panicked: <value>". Call returns a non-nil error only
// when ctx is done: before handler runs, or when handler fails after ctx is
// done; the error is ctx.Err(). A Result that handler returns without error
// is returned even if ctx is done by then, since the work it reports was
// done.
//
// The Tool is safe for concurrent use if handler is.
func New[In any](name, description string, handler func(ctx context.Context, c *Call, in In) (Result, error)) Tool {
	if err := ValidateName(name); err != nil {
		panic("tool.New: " + err.Error())
	}
	if handler == nil {
		panic(fmt.Sprintf("tool.New(%q): nil handler", name))
	}
	s, err := inferSchema[In]()
	if err != nil {
		panic(fmt.Sprintf("tool.New(%q): %v", name, err))
	}
	sp, err := newSpec(name, description, s)
	if err != nil {
		panic(fmt.Sprintf("tool.New(%q): input type %s: %v", name, reflect.TypeFor[In](), err))
	}
	return &typed[In]{spec: sp, handler: handler}
}

// Call implements [Tool].
func (t *typed[In]) Call(ctx context.Context, c *Call, input json.RawMessage) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	input, bad := t.check(input)
	if bad != nil {
		return *bad, nil
	}
	var in In
	if err := json.Unmarshal(input, &in); err != nil {
		// The schema cannot say everything Go's types do, such as the range
		// of an int8 or the layout of a time.Time.
		return *t.invalid(decodeDetail(err)), nil
	}
	return run(ctx, t.name, t.handler, c, in)
}

// inferSchema infers the object schema of In and applies its refinement.
func inferSchema[In any]() (*jsonschema.Schema, error) {
	typ := reflect.TypeFor[In]()
	if typ.Kind() == reflect.Pointer && typ.Elem().Kind() == reflect.Struct {
		return nil, fmt.Errorf("input type %s is a pointer; use %s", typ, typ.Elem())
	}
	if k := typ.Kind(); k != reflect.Struct && (k != reflect.Map || typ.Key().Kind() != reflect.String) {
		return nil, fmt.Errorf("input type %s is not a struct or a map with string keys", typ)
	}
	s, err := jsonschema.ForType(typ, &jsonschema.ForOptions{
		// A raw message holds any JSON value, not an array of bytes.
		TypeSchemas: map[reflect.Type]*jsonschema.Schema{reflect.TypeFor[json.RawMessage](): {}},
	})
	if err != nil {
		if field, why, ok := unsupportedField(typ, "", map[reflect.Type]bool{}); ok {
			return nil, fmt.Errorf("input type %s: field %s %s", typ, field, why)
		}
		return nil, fmt.Errorf("input type %s: %w", typ, err)
	}
	if r, ok := any(new(In)).(SchemaRefiner); ok {
		r.RefineSchema(s)
	}
	return s, nil
}

// newSpec checks that s is an object schema, resolves it and records its JSON.
func newSpec(name, description string, s *jsonschema.Schema) (spec, error) {
	if s.Type != "object" {
		return spec{}, fmt.Errorf("schema type is %s, want object", schemaType(s))
	}
	b, err := json.Marshal(s)
	if err != nil {
		return spec{}, fmt.Errorf("encode schema: %w", err)
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		return spec{}, fmt.Errorf("resolve schema: %w", err)
	}
	return spec{name: name, description: description, schema: b, resolved: resolved}, nil
}

// schemaType describes the type keyword of s for an error message.
func schemaType(s *jsonschema.Schema) string {
	switch {
	case s.Type != "":
		return fmt.Sprintf("%q", s.Type)
	case len(s.Types) > 0:
		return fmt.Sprintf("%q", s.Types)
	default:
		return "unset"
	}
}

// unsupportedField finds the first field under t, in the order encoding/json
// sees them, whose type has no JSON Schema, and returns its path from t
// (such as "Hooks[].Run") and why it has none. It only explains an inference
// failure, so it follows jsonschema-go's rules loosely. inProgress holds the
// struct types being walked, to find recursion.
func unsupportedField(t reflect.Type, path string, inProgress map[reflect.Type]bool) (string, string, bool) {
	switch t.Kind() {
	case reflect.Chan, reflect.Func, reflect.Complex64, reflect.Complex128, reflect.UnsafePointer:
		return path, fmt.Sprintf("has type %s, which has no JSON Schema", t), true
	case reflect.Pointer:
		return unsupportedField(t.Elem(), path, inProgress)
	case reflect.Slice, reflect.Array:
		return unsupportedField(t.Elem(), path+"[]", inProgress)
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return path, fmt.Sprintf("has type %s, and only maps with string keys have a JSON Schema", t), true
		}
		return unsupportedField(t.Elem(), path+"[]", inProgress)
	case reflect.Struct:
		if inProgress[t] {
			return path, fmt.Sprintf("refers back to type %s, and a recursive type has no inferred JSON Schema", t), true
		}
		inProgress[t] = true
		defer delete(inProgress, t)
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" || !f.IsExported() && !f.Anonymous {
				continue
			}
			name := f.Name
			if f.Anonymous && strings.Split(tag, ",")[0] == "" {
				name = "" // promoted fields keep the outer path
			}
			if p, why, ok := unsupportedField(f.Type, joinPath(path, name), inProgress); ok {
				return p, why, true
			}
		}
	}
	return "", "", false
}

// joinPath appends a field name to a path of field names.
func joinPath(path, name string) string {
	switch {
	case name == "":
		return path
	case path == "":
		return name
	default:
		return path + "." + name
	}
}

// SchemaFor returns the JSON Schema [New] infers for an input of type In,
// refined if In is a [SchemaRefiner], for schemas the host hands over as
// JSON, such as an agent's output schema. It returns an error where New
// would panic.
func SchemaFor[In any]() (json.RawMessage, error) {
	s, err := inferSchema[In]()
	if err != nil {
		return nil, err
	}
	if _, err := newSpec("schema", "", s); err != nil {
		return nil, err
	}
	return json.Marshal(s)
}
