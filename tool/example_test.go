package tool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/lite-agent/lite-agent-go/tool"
)

type readFileInput struct {
	Path  string `json:"path" jsonschema:"the file to read"`
	Limit int    `json:"limit,omitempty" jsonschema:"the number of lines to return; all when omitted"`
}

func Example() {
	readFile := tool.New("read_file", "Read a text file.",
		func(ctx context.Context, _ *tool.Call, in readFileInput) (tool.Result, error) {
			return tool.Text(fmt.Sprintf("reading %s, limit %d", in.Path, in.Limit)), nil
		})

	var schema bytes.Buffer
	json.Indent(&schema, readFile.Schema(), "", "  ")
	fmt.Println(schema.String())

	for _, input := range []string{
		`{"path": "README.md", "limit": 20}`,
		`{"path": "README.md"}`,
		`{"limit": 20}`,
		`{"path": "README.md", "limit": "20"}`,
		`{"path": "README.md", "lines": 20}`,
	} {
		res, err := readFile.Call(context.Background(), nil, json.RawMessage(input))
		if err != nil {
			fmt.Println("runtime failure:", err)
			return
		}
		fmt.Printf("%s -> isError=%t %s\n", input, res.IsError, res.Content)
	}
	// Output:
	// {
	//   "type": "object",
	//   "properties": {
	//     "path": {
	//       "type": "string",
	//       "description": "the file to read"
	//     },
	//     "limit": {
	//       "type": "integer",
	//       "description": "the number of lines to return; all when omitted"
	//     }
	//   },
	//   "required": [
	//     "path"
	//   ],
	//   "additionalProperties": false
	// }
	// {"path": "README.md", "limit": 20} -> isError=false reading README.md, limit 20
	// {"path": "README.md"} -> isError=false reading README.md, limit 0
	// {"limit": 20} -> isError=true Error: invalid input for read_file: required: missing properties: ["path"]
	// {"path": "README.md", "limit": "20"} -> isError=true Error: invalid input for read_file: validating /properties/limit: type: 20 has type "string", want "integer"
	// {"path": "README.md", "lines": 20} -> isError=true Error: invalid input for read_file: unexpected additional properties ["lines"]
}

type contextInput struct {
	Query  string `json:"query,omitempty" jsonschema:"words to search the archive for"`
	Offset int    `json:"offset,omitempty" jsonschema:"the byte offset to read from"`
	Limit  int    `json:"limit,omitempty" jsonschema:"the number of bytes to read"`
}

// RefineSchema bounds offset and limit, which struct tags cannot do.
func (contextInput) RefineSchema(s *jsonschema.Schema) {
	s.Properties["offset"].Minimum = jsonschema.Ptr(0.0)
	s.Properties["limit"].Minimum = jsonschema.Ptr(1.0)
	s.Properties["limit"].Maximum = jsonschema.Ptr(16000.0)
}

// An input type that implements SchemaRefiner adds bounds to its schema, and
// Call enforces them before the handler runs.
func ExampleSchemaRefiner() {
	ctxTool := tool.New("context", "Search or read the session archive.",
		func(ctx context.Context, _ *tool.Call, in contextInput) (tool.Result, error) {
			return tool.Text(fmt.Sprintf("read %d bytes at %d", in.Limit, in.Offset)), nil
		})

	for _, input := range []string{`{"limit": 100}`, `{"limit": 0}`, `{"limit": 20000}`} {
		res, _ := ctxTool.Call(context.Background(), nil, json.RawMessage(input))
		fmt.Println(res.Content)
	}
	// Output:
	// read 100 bytes at 0
	// Error: invalid input for context: validating /properties/limit: minimum: 0/1 is less than 1.000000
	// Error: invalid input for context: validating /properties/limit: maximum: 20000/1 is greater than 16000.000000
}

// A handler's error is data for the model: it becomes an error Result.
func ExampleErrorf() {
	deleteFile := tool.New("delete_file", "Delete a file.",
		func(ctx context.Context, _ *tool.Call, in struct {
			Path string `json:"path"`
		}) (tool.Result, error) {
			return tool.Errorf("Not a regular file: %s", in.Path), nil
		})
	res, _ := deleteFile.Call(context.Background(), nil, json.RawMessage(`{"path":"src"}`))
	fmt.Printf("%+v\n", res)
	// Output:
	// {Content:Error: Not a regular file: src IsError:true}
}

// An engine runs the last tool of a name and answers unknown names with
// Unknown.
func ExampleSet() {
	echo := func(reply string) tool.Tool {
		return tool.New("echo", "Echo.", func(ctx context.Context, _ *tool.Call, in map[string]any) (tool.Result, error) {
			return tool.Text(reply), nil
		})
	}
	tools := tool.NewSet(echo("built-in"), echo("custom"))

	for _, name := range []string{"echo", "grep"} {
		t, ok := tools.Lookup(name)
		if !ok {
			fmt.Println(tool.Unknown(name).Content)
			continue
		}
		res, _ := t.Call(context.Background(), nil, nil)
		fmt.Println(res.Content)
	}
	fmt.Println(tools.Len(), "specs sent")
	// Output:
	// custom
	// Error: unknown tool 'grep'
	// 2 specs sent
}
