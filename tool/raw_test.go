package tool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/tool"
)

const querySchema = `{
  "type": "object",
  "properties": {
    "q": {"type": "string", "minLength": 1, "description": "what to look for"},
    "max": {"type": "integer", "minimum": 1}
  },
  "required": ["q"]
}`

// recording returns a raw tool over schema whose handler records the inputs
// it receives.
func recording(t *testing.T, schema string) (tool.Tool, *[]string) {
	t.Helper()
	var got []string
	tl, err := tool.NewRaw("mcp__docs__search", "Search the docs.", json.RawMessage(schema),
		func(ctx context.Context, _ *tool.Call, input json.RawMessage) (tool.Result, error) {
			got = append(got, string(input))
			return tool.Text("found"), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return tl, &got
}

func TestNewRawPassesValidInputAsSent(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"ObjectIsPassedUnchanged", `{"q":"x", "max": 3}`, `{"q":"x", "max": 3}`},
		{"SurroundingSpaceIsRemoved", " \n{\"q\":\"x\"}\t", `{"q":"x"}`},
		{"ExtraPropertiesPassWhenTheSchemaAllowsThem", `{"q":"x","lang":"go"}`, `{"q":"x","lang":"go"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl, got := recording(t, querySchema)
			res, err := tl.Call(t.Context(), nil, json.RawMessage(tt.input))
			if err != nil || res != tool.Text("found") {
				t.Fatalf("Call = %+v, %v", res, err)
			}
			if len(*got) != 1 || (*got)[0] != tt.want {
				t.Errorf("handler got %q, want [%q]", *got, tt.want)
			}
		})
	}
}

func TestNewRawReplacesNullAndEmptyInputWithAnEmptyObject(t *testing.T) {
	tl, got := recording(t, `{"type":"object","properties":{"q":{"type":"string"}}}`)
	for _, input := range []string{"", "null", " null "} {
		if res, err := tl.Call(t.Context(), nil, json.RawMessage(input)); err != nil || res.IsError {
			t.Fatalf("Call(%q) = %+v, %v", input, res, err)
		}
	}
	if strings.Join(*got, " ") != "{} {} {}" {
		t.Errorf("handler got %q, want {} each time", *got)
	}
}

func TestNewRawInvalidInputNeverReachesTheHandler(t *testing.T) {
	tests := []struct {
		name, input, detail string
	}{
		{"MissingRequired", `{"max": 2}`, `missing properties: ["q"]`},
		{"Null", `null`, `missing properties: ["q"]`},
		{"BelowMinLength", `{"q": ""}`, `/properties/q: minLength`},
		{"BelowMinimum", `{"q": "x", "max": 0}`, `/properties/max: minimum`},
		{"NotAnObject", `[]`, `want "object"`},
		{"NotJSON", `{q: 1}`, `not valid JSON`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl, got := recording(t, querySchema)
			res, err := tl.Call(t.Context(), nil, json.RawMessage(tt.input))
			if err != nil {
				t.Fatalf("Call returned a Go error: %v", err)
			}
			if len(*got) != 0 {
				t.Errorf("handler ran on invalid input")
			}
			if !res.IsError || !strings.HasPrefix(res.Content, "Error: invalid input for mcp__docs__search: ") || !strings.Contains(res.Content, tt.detail) {
				t.Errorf("got %+v, want an invalid-input error containing %q", res, tt.detail)
			}
		})
	}
}

func TestNewRawHandlesErrorsPanicsAndCancellationAsNewDoes(t *testing.T) {
	tl, err := tool.NewRaw("raw", "", json.RawMessage(`{"type":"object"}`),
		func(ctx context.Context, _ *tool.Call, input json.RawMessage) (tool.Result, error) {
			switch string(input) {
			case `{"fail":true}`:
				return tool.Result{}, context.DeadlineExceeded
			case `{"panic":true}`:
				panic("boom")
			}
			return tool.Text("ok"), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := tl.Call(t.Context(), nil, json.RawMessage(`{"fail":true}`)); err != nil || res != (tool.Result{Content: "Error: context deadline exceeded", IsError: true}) {
		t.Errorf("handler error: Call = %+v, %v", res, err)
	}
	if res, err := tl.Call(t.Context(), nil, json.RawMessage(`{"panic":true}`)); err != nil || res != (tool.Result{Content: "Error: tool raw panicked: boom", IsError: true}) {
		t.Errorf("handler panic: Call = %+v, %v", res, err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if res, err := tl.Call(ctx, nil, nil); err != context.Canceled || res != (tool.Result{}) {
		t.Errorf("cancelled: Call = %+v, %v", res, err)
	}
}

func TestNewRawKeepsTheSchemaAsGivenCompacted(t *testing.T) {
	given := `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "definitions": {"id": {"type": "string", "pattern": "^[a-z]+$"}},
  "properties": {"id": {"$ref": "#/definitions/id"}, "x-vendor": {}}
}`
	tl, err := tool.NewRaw("draft7", "", json.RawMessage(given), func(ctx context.Context, _ *tool.Call, input json.RawMessage) (tool.Result, error) {
		return tool.Text("ok"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	json.Compact(&want, []byte(given))
	if got := tl.Schema(); !bytes.Equal(got, want.Bytes()) {
		t.Errorf("schema\n got %s\nwant %s", got, want.Bytes())
	}
	// The local reference is resolved and enforced.
	res, err := tl.Call(t.Context(), nil, json.RawMessage(`{"id": "ABC"}`))
	if err != nil || !res.IsError || !strings.Contains(res.Content, "pattern") {
		t.Errorf("Call = %+v, %v; want a pattern failure", res, err)
	}
}

func TestNewRawRejectsUnusableSchemasAndNames(t *testing.T) {
	okSchema := `{"type":"object"}`
	tests := []struct {
		name, tool, schema, want string
	}{
		{"InvalidName", "bad name", okSchema, `invalid tool name "bad name"`},
		{"SchemaIsNotJSON", "t", `{"type":`, "tool t: invalid input schema"},
		{"SchemaIsEmpty", "t", ``, "tool t: invalid input schema"},
		{"StringSchema", "t", `{"type":"string"}`, `schema type is "string", want object`},
		{"SchemaWithoutAType", "t", `{"properties":{}}`, "schema type is unset, want object"},
		{"TrueSchema", "t", `true`, "schema type is unset, want object"},
		{"NullableObject", "t", `{"type":["object","null"]}`, `want object`},
		{"RemoteReference", "t", `{"type":"object","properties":{"a":{"$ref":"https://example.com/a.json"}}}`, "resolve schema"},
		{"DanglingLocalReference", "t", `{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`, "resolve schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl, err := tool.NewRaw(tt.tool, "", json.RawMessage(tt.schema), func(ctx context.Context, _ *tool.Call, input json.RawMessage) (tool.Result, error) {
				return tool.Text("ok"), nil
			})
			if err == nil || tl != nil {
				t.Fatalf("NewRaw = %v, nil; want an error", tl)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestNewRawPanicsOnANilHandler(t *testing.T) {
	msg := newPanic(t, func() { tool.NewRaw("raw_tool", "", json.RawMessage(`{"type":"object"}`), nil) })
	if !strings.Contains(msg, `"raw_tool"`) || !strings.Contains(msg, "nil handler") {
		t.Errorf("panic message %q", msg)
	}
}
