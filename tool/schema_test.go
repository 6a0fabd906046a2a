package tool_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/lite-agent/lite-agent-go/tool"
)

// noop is a handler for tests that only look at schemas and construction.
func noop[In any](context.Context, *tool.Call, In) (tool.Result, error) { return tool.Text("ok"), nil }

// schemaOf decodes a tool's schema into plain JSON values.
func schemaOf(t *testing.T, tl tool.Tool) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(tl.Schema(), &v); err != nil {
		t.Fatalf("schema of %s is not JSON: %v", tl.Name(), err)
	}
	return v
}

// mustJSON decodes a JSON literal written in a test.
func mustJSON(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return v
}

type Embedded struct {
	Promoted string `json:"promoted"`
}

type Nested struct {
	Name string `json:"name"`
}

func TestSchemaIsInferredFromTheInputType(t *testing.T) {
	tests := []struct {
		name string
		tool tool.Tool
		want string
	}{
		{
			name: "FieldsWithoutOmitemptyAreRequired",
			tool: tool.New("t", "", noop[struct {
				A string `json:"a"`
				B int    `json:"b,omitempty"`
				C bool   `json:"c,omitzero"`
				D string `json:"d"`
			}]),
			want: `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"},"c":{"type":"boolean"},"d":{"type":"string"}},"required":["a","d"],"additionalProperties":false}`,
		},
		{
			name: "JSONSchemaTagIsTheDescription",
			tool: tool.New("t", "", noop[struct {
				Path string `json:"path" jsonschema:"the file to read"`
			}]),
			want: `{"type":"object","properties":{"path":{"type":"string","description":"the file to read"}},"required":["path"],"additionalProperties":false}`,
		},
		{
			name: "IgnoredAndUnexportedFieldsAreLeftOut",
			tool: tool.New("t", "", noop[struct {
				Kept    string `json:"kept"`
				Ignored string `json:"-"`
				hidden  string
			}]),
			want: `{"type":"object","properties":{"kept":{"type":"string"}},"required":["kept"],"additionalProperties":false}`,
		},
		{
			name: "EmbeddedStructsAreFlattened",
			tool: tool.New("t", "", noop[struct {
				Embedded
				Own int `json:"own,omitempty"`
			}]),
			want: `{"type":"object","properties":{"promoted":{"type":"string"},"own":{"type":"integer"}},"required":["promoted"],"additionalProperties":false}`,
		},
		{
			name: "NestedStructsForbidExtraPropertiesToo",
			tool: tool.New("t", "", noop[struct {
				Item Nested `json:"item"`
			}]),
			want: `{"type":"object","properties":{"item":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}},"required":["item"],"additionalProperties":false}`,
		},
		{
			name: "SlicesAndPointersAcceptNull",
			tool: tool.New("t", "", noop[struct {
				Tags []string `json:"tags,omitempty"`
				N    *int     `json:"n,omitempty"`
			}]),
			want: `{"type":"object","properties":{"tags":{"type":["null","array"],"items":{"type":"string"}},"n":{"type":["null","integer"]}},"additionalProperties":false}`,
		},
		{
			name: "AnyAndRawMessageAcceptAnyValue",
			tool: tool.New("t", "", noop[struct {
				Any any             `json:"any,omitempty"`
				Raw json.RawMessage `json:"raw,omitempty"`
			}]),
			want: `{"type":"object","properties":{"any":true,"raw":true},"additionalProperties":false}`,
		},
		{
			name: "TimeIsAString",
			tool: tool.New("t", "", noop[struct {
				When time.Time `json:"when"`
			}]),
			want: `{"type":"object","properties":{"when":{"type":"string"}},"required":["when"],"additionalProperties":false}`,
		},
		{
			name: "MapsAllowAnyPropertyOfTheirValueType",
			tool: tool.New("t", "", noop[map[string]int]),
			want: `{"type":"object","additionalProperties":{"type":"integer"}}`,
		},
		{
			name: "SchemaRefinerAddsConstraints",
			tool: tool.New("t", "", noop[refined]),
			want: `{"type":"object","properties":{"limit":{"type":"integer","minimum":1}},"additionalProperties":false}`,
		},
		{
			name: "PointerReceiverSchemaRefinerIsFound",
			tool: tool.New("t", "", noop[pointerRefined]),
			want: `{"type":"object","properties":{"mode":{"type":"string","enum":["a","b"]}},"required":["mode"],"additionalProperties":false}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, want := schemaOf(t, tt.tool), mustJSON(t, tt.want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("schema:\n got %s\nwant %s", tt.tool.Schema(), tt.want)
			}
		})
	}
}

type refined struct {
	Limit int `json:"limit,omitempty"`
}

func (refined) RefineSchema(s *jsonschema.Schema) {
	s.Properties["limit"].Minimum = jsonschema.Ptr(1.0)
}

type pointerRefined struct {
	Mode string `json:"mode"`
}

func (*pointerRefined) RefineSchema(s *jsonschema.Schema) {
	s.Properties["mode"].Enum = []any{"a", "b"}
}

func TestToolKeepsItsNameAndDescription(t *testing.T) {
	tl := tool.New("read_file", "Read a text file.", noop[struct{}])
	if tl.Name() != "read_file" || tl.Description() != "Read a text file." {
		t.Errorf("got name %q, description %q", tl.Name(), tl.Description())
	}
}

func TestSchemaReturnsACopy(t *testing.T) {
	tl := tool.New("t", "", noop[struct {
		A string `json:"a"`
	}])
	first := tl.Schema()
	want := string(first)
	for i := range first {
		first[i] = 'x'
	}
	if got := string(tl.Schema()); got != want {
		t.Errorf("schema changed after the caller modified a returned copy: %s", got)
	}
}

func TestValidNamesAreAccepted(t *testing.T) {
	for _, name := range []string{"a", "read_file", "TaskCreate", "mcp__github__create-issue", "0", strings.Repeat("n", 64)} {
		if err := tool.ValidateName(name); err != nil {
			t.Errorf("ValidateName(%q) = %v", name, err)
		}
	}
}

func TestInvalidNamesAreRejected(t *testing.T) {
	for _, name := range []string{"", " ", "read file", "read.file", "read/file", "tööl", "a\n", strings.Repeat("n", 65)} {
		if err := tool.ValidateName(name); err == nil {
			t.Errorf("ValidateName(%q) = nil, want an error", name)
		}
	}
}

type WithFunc struct {
	Path     string `json:"path"`
	Callback func() `json:"callback"`
}

type Hook struct {
	Match string `json:"match"`
	Run   func() `json:"run"`
}

type EmbeddedBad struct {
	Events chan string `json:"events"`
}

type Recursive struct {
	Name     string      `json:"name"`
	Children []Recursive `json:"children,omitempty"`
}

type brokenRefiner struct {
	A string `json:"a"`
}

func (brokenRefiner) RefineSchema(s *jsonschema.Schema) { s.Type = "array" }

type unresolvableRefiner struct {
	A string `json:"a"`
}

func (unresolvableRefiner) RefineSchema(s *jsonschema.Schema) {
	s.Properties["a"] = &jsonschema.Schema{Ref: "https://example.com/remote.json"}
}

// newPanic runs f and returns the message it panicked with.
func newPanic(t *testing.T, f func()) (msg string) {
	t.Helper()
	defer func() {
		v := recover()
		if v == nil {
			t.Fatal("did not panic")
		}
		s, ok := v.(string)
		if !ok {
			t.Fatalf("panicked with %T %v, want a string", v, v)
		}
		msg = s
	}()
	f()
	return ""
}

func TestNewPanicsOnProgrammerErrors(t *testing.T) {
	tests := []struct {
		name string
		new  func()
		want []string // substrings of the panic message
	}{
		{"EmptyName", func() { tool.New("", "", noop[struct{}]) }, []string{"tool.New", `""`}},
		{"NameWithASpace", func() { tool.New("read file", "", noop[struct{}]) }, []string{`"read file"`}},
		{"NameOver64Characters", func() { tool.New(strings.Repeat("n", 65), "", noop[struct{}]) }, []string{strings.Repeat("n", 65)}},
		{"NilHandler", func() { tool.New[struct{}]("nil_handler", "", nil) }, []string{`"nil_handler"`, "nil handler"}},
		{"StringInput", func() { tool.New("str", "", noop[string]) }, []string{`"str"`, "string is not a struct or a map"}},
		{"PointerInput", func() { tool.New("ptr", "", noop[*struct{}]) }, []string{`"ptr"`, "is a pointer; use struct {}"}},
		{"MapWithIntKeys", func() { tool.New("intmap", "", noop[map[int]string]) }, []string{`"intmap"`, "map[int]string"}},
		{"FuncField", func() { tool.New("fn", "", noop[WithFunc]) }, []string{`"fn"`, "field Callback has type func()"}},
		{"FuncFieldInsideASlice", func() {
			tool.New("hooks", "", noop[struct {
				Hooks []Hook `json:"hooks"`
			}])
		}, []string{`"hooks"`, "field Hooks[].Run has type func()"}},
		{"ChanFieldOfAnEmbeddedStruct", func() {
			tool.New("embedded", "", noop[struct {
				EmbeddedBad
			}])
		}, []string{`"embedded"`, "field Events has type chan string"}},
		{"ComplexFieldBehindAPointer", func() {
			tool.New("complex", "", noop[struct {
				Z *complex128 `json:"z"`
			}])
		}, []string{`"complex"`, "field Z has type complex128"}},
		{"FuncMapValue", func() {
			tool.New("funcmap", "", noop[struct {
				Handlers map[string]func() `json:"handlers"`
			}])
		}, []string{`"funcmap"`, "field Handlers[] has type func()"}},
		{"IntKeyedMapField", func() {
			tool.New("intkeys", "", noop[struct {
				Counts map[int]int `json:"counts"`
			}])
		}, []string{`"intkeys"`, "field Counts has type map[int]int, and only maps with string keys"}},
		{"RecursiveType", func() { tool.New("tree", "", noop[Recursive]) }, []string{`"tree"`, "field Children[] refers back to type tool_test.Recursive"}},
		{"RefinerBreaksTheObjectType", func() { tool.New("broken", "", noop[brokenRefiner]) }, []string{`"broken"`, "want object"}},
		{"RefinerAddsARemoteReference", func() { tool.New("remote", "", noop[unresolvableRefiner]) }, []string{`"remote"`, "resolve schema"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := newPanic(t, tt.new)
			for _, want := range tt.want {
				if !strings.Contains(msg, want) {
					t.Errorf("panic message %q does not contain %q", msg, want)
				}
			}
		})
	}
}

func TestAStructTypeUsedTwiceIsNotRecursion(t *testing.T) {
	tl := tool.New("t", "", noop[struct {
		From Nested `json:"from"`
		To   Nested `json:"to"`
	}])
	if props := schemaOf(t, tl).(map[string]any)["properties"].(map[string]any); len(props) != 2 {
		t.Errorf("schema %s", tl.Schema())
	}
}

func TestIgnoredFieldsMayHaveAnyType(t *testing.T) {
	tl := tool.New("t", "", noop[struct {
		Path    string `json:"path"`
		Hook    func() `json:"-"`
		events  chan int
		complex complex128
	}])
	want := mustJSON(t, `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`)
	if got := schemaOf(t, tl); !reflect.DeepEqual(got, want) {
		t.Errorf("schema %s", tl.Schema())
	}
}

func TestSchemaForMatchesNew(t *testing.T) {
	type answer struct {
		City  string  `json:"city"`
		Score float64 `json:"score,omitempty"`
	}
	got, err := tool.SchemaFor[answer]()
	if err != nil {
		t.Fatal(err)
	}
	want := tool.New("t", "d", func(context.Context, *tool.Call, answer) (tool.Result, error) { return tool.Result{}, nil }).Schema()
	if string(got) != string(want) {
		t.Errorf("SchemaFor %s, New %s", got, want)
	}
	if _, err := tool.SchemaFor[[]string](); err == nil {
		t.Error("a slice type was accepted")
	}
}
