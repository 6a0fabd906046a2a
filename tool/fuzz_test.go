package tool_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/tool"
)

type fuzzInput struct {
	Path  string   `json:"path"`
	Limit int      `json:"limit,omitempty"`
	Tags  []string `json:"tags,omitempty"`
	Level int8     `json:"level,omitempty"`
}

// FuzzCall checks, for any input a model might send, that Call neither
// panics nor fails as the runtime, that the handler only sees input that
// holds a string path and no unknown property, and that every other input
// gets an invalid-input error result of bounded, valid UTF-8 text.
func FuzzCall(f *testing.F) {
	for _, seed := range []string{
		`{"path":"a.go","limit":3,"tags":["x"],"level":2}`,
		`{"path":"a.go"}`,
		`{}`,
		`null`,
		``,
		`{"path":1}`,
		`{"Path":"a"}`,
		`{"path":"a","limit":1e300}`,
		`{"path":"a","level":128}`,
		`[{"path":"a"}]`,
		`{"path":"a"`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		var got *fuzzInput
		tl := tool.New("read_file", "", func(ctx context.Context, _ *tool.Call, in fuzzInput) (tool.Result, error) {
			got = &in
			return tool.Text("ok"), nil
		})
		res, err := tl.Call(context.Background(), nil, json.RawMessage(input))
		if err != nil {
			t.Fatalf("Call returned a Go error: %v", err)
		}
		if got != nil {
			var m map[string]any
			if json.Unmarshal(input, &m) != nil {
				t.Fatalf("handler ran on input that is not a JSON object: %q", input)
			}
			if _, ok := m["path"].(string); !ok {
				t.Fatalf("handler ran without a string path: %q", input)
			}
			for k := range m {
				switch k {
				case "path", "limit", "tags", "level":
				default:
					t.Fatalf("handler ran with unknown property %q: %q", k, input)
				}
			}
			if res != tool.Text("ok") {
				t.Fatalf("handler result replaced: %+v", res)
			}
			return
		}
		const prefix = "Error: invalid input for read_file: "
		if !res.IsError || !strings.HasPrefix(res.Content, prefix) {
			t.Fatalf("input %q: got %+v, want an invalid-input error", input, res)
		}
		if len(res.Content) > len(prefix)+1024+len("…") || !utf8.ValidString(res.Content) {
			t.Fatalf("input %q: details are not bounded valid UTF-8: %q", input, res.Content)
		}
	})
}
