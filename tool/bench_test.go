package tool_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/lite-agent/lite-agent-go/tool"
)

type benchInput struct {
	Path   string `json:"path" jsonschema:"the file to read"`
	Offset int    `json:"offset,omitempty" jsonschema:"the first line to return"`
	Limit  int    `json:"limit,omitempty" jsonschema:"the number of lines to return"`
}

// BenchmarkCall measures what Call adds to a handler that does nothing: the
// input is parsed, validated against the schema and decoded. The baseline is
// decoding the same input straight into the struct, as a handler taking raw
// JSON would; each case reports its cost as a multiple of the baseline
// measured in the same run ("x-unmarshal").
func BenchmarkCall(b *testing.B) {
	valid := json.RawMessage(`{"path":"internal/safefs/safefs.go","offset":120,"limit":40}`)
	invalid := json.RawMessage(`{"path":"internal/safefs/safefs.go","offset":"120","limit":40}`)
	handler := func(ctx context.Context, _ *tool.Call, in benchInput) (tool.Result, error) { return tool.Result{}, nil }
	typed := tool.New("read_file", "", handler)
	raw, err := tool.NewRaw("read_file", "", typed.Schema(), func(ctx context.Context, _ *tool.Call, input json.RawMessage) (tool.Result, error) {
		return tool.Result{}, nil
	})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()

	var baseline float64 // ns/op of the plain decode
	report := func(b *testing.B) {
		if baseline > 0 {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/baseline, "x-unmarshal")
		}
	}
	b.Run("baseline=json.Unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var in benchInput
			if err := json.Unmarshal(valid, &in); err != nil {
				b.Fatal(err)
			}
		}
		baseline = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	})
	for _, bc := range []struct {
		name  string
		tool  tool.Tool
		input json.RawMessage
	}{
		{"New/valid", typed, valid},
		{"New/invalid", typed, invalid},
		{"NewRaw/valid", raw, valid},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.tool.Call(ctx, nil, bc.input); err != nil {
					b.Fatal(err)
				}
			}
			report(b)
		})
	}
}

// BenchmarkNew measures building a typed tool: inference, marshalling and
// resolution, paid once per tool at construction.
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		tool.New("read_file", "", func(ctx context.Context, _ *tool.Call, in benchInput) (tool.Result, error) { return tool.Result{}, nil })
	}
}
