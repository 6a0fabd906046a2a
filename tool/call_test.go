package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/tool"
)

type fileInput struct {
	Path   string    `json:"path" jsonschema:"the file"`
	Limit  int       `json:"limit,omitempty"`
	Tags   []string  `json:"tags,omitempty"`
	Level  int8      `json:"level,omitempty"`
	Since  time.Time `json:"since,omitzero"`
	Nested *Nested   `json:"nested,omitempty"`
}

// counting returns a tool over fileInput whose handler counts its calls and
// records its last input.
func counting(t *testing.T) (tool.Tool, *atomic.Int64, *fileInput) {
	t.Helper()
	var calls atomic.Int64
	var last fileInput
	tl := tool.New("read_file", "Read a file.", func(ctx context.Context, _ *tool.Call, in fileInput) (tool.Result, error) {
		calls.Add(1)
		last = in
		return tool.Text("read " + in.Path), nil
	})
	return tl, &calls, &last
}

func TestInvalidInputNeverReachesTheHandler(t *testing.T) {
	long := "x" + strings.Repeat("é", 3000) // odd offset: a 1024-byte cut lands inside a rune
	tests := []struct {
		name   string
		input  string
		detail string // a substring of the model-facing details
	}{
		{"MissingRequiredField", `{"limit": 3}`, `required: missing properties: ["path"]`},
		{"EmptyObjectMissesRequiredField", `{}`, `missing properties: ["path"]`},
		{"NullMissesRequiredField", `null`, `missing properties: ["path"]`},
		{"EmptyInputMissesRequiredField", ``, `missing properties: ["path"]`},
		{"WrongType", `{"path": 7}`, `/properties/path: type: 7 has type "integer", want "string"`},
		{"NullForARequiredString", `{"path": null}`, `want "string"`},
		{"FractionForAnInteger", `{"path": "a", "limit": 1.5}`, `want "integer"`},
		{"WrongItemType", `{"path": "a", "tags": ["x", 2]}`, `/properties/tags/items: type: 2 has type "integer"`},
		{"WrongNestedType", `{"path": "a", "nested": {"name": false}}`, `/properties/nested/properties/name`},
		{"ExtraProperty", `{"path": "a", "lines": 3}`, `unexpected additional properties ["lines"]`},
		{"ExtraNestedProperty", `{"path": "a", "nested": {"name": "n", "x": 1}}`, `unexpected additional properties ["x"]`},
		{"DifferentlyCasedName", `{"Path": "a"}`, `unexpected additional properties ["Path"]`},
		{"ArrayInput", `["a"]`, `want "object"`},
		{"StringInput", `"a"`, `want "object"`},
		{"NumberInput", `3`, `want "object"`},
		{"TruncatedJSON", `{"path": "a"`, `not valid JSON: unexpected end of JSON input`},
		{"NotJSON", `path=a`, `not valid JSON: invalid character 'p'`},
		{"TrailingData", `{"path": "a"} {}`, `not valid JSON: invalid character '{' after top-level value`},
		{"OutOfRangeForASizedInteger", `{"path": "a", "level": 300}`, `/properties/level: maximum: 300/1 is greater than 127`},
		{"IntegerTooLargeForGo", `{"path": "a", "limit": 1e300}`, `limit: cannot use number 1e300 as int`},
		{"UnparsableTime", `{"path": "a", "since": "yesterday"}`, `parsing time "yesterday"`},
		{"LongValueIsCut", `{"path": "a", "limit": "` + long + `"}`, `…`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl, calls, _ := counting(t)
			res, err := tl.Call(t.Context(), nil, json.RawMessage(tt.input))
			if err != nil {
				t.Fatalf("Call returned a Go error for invalid input: %v", err)
			}
			if n := calls.Load(); n != 0 {
				t.Errorf("handler ran %d times on invalid input", n)
			}
			const prefix = "Error: invalid input for read_file: "
			if !res.IsError || !strings.HasPrefix(res.Content, prefix) {
				t.Errorf("got %+v, want an error result starting %q", res, prefix)
			}
			if !strings.Contains(res.Content, tt.detail) {
				t.Errorf("content %q does not contain %q", res.Content, tt.detail)
			}
			if len(res.Content) > len(prefix)+1024+len("…") || !utf8.ValidString(res.Content) {
				t.Errorf("details are not cut to 1024 bytes of valid UTF-8: %d bytes", len(res.Content))
			}
		})
	}
}

func TestValidInputReachesTheHandlerDecoded(t *testing.T) {
	tl, calls, last := counting(t)
	input := `  {"path": "a.go", "limit": 5, "tags": ["x"], "level": -3, "since": "2026-01-02T03:04:05Z", "nested": {"name": "n"}}  `
	res, err := tl.Call(t.Context(), nil, json.RawMessage(input))
	if err != nil || res != tool.Text("read a.go") {
		t.Fatalf("Call = %+v, %v", res, err)
	}
	want := fileInput{Path: "a.go", Limit: 5, Tags: []string{"x"}, Level: -3,
		Since: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Nested: &Nested{Name: "n"}}
	if calls.Load() != 1 || !reflect.DeepEqual(*last, want) {
		t.Errorf("handler got %+v (%d calls), want %+v", *last, calls.Load(), want)
	}
}

func TestNullAndEmptyInputCountAsAnEmptyObject(t *testing.T) {
	type optional struct {
		Query string `json:"query,omitempty"`
	}
	for _, input := range []string{"", "  ", "null", " null\n", "{}"} {
		t.Run(fmt.Sprintf("%q", input), func(t *testing.T) {
			var got *optional
			tl := tool.New("search", "", func(ctx context.Context, _ *tool.Call, in optional) (tool.Result, error) {
				got = &in
				return tool.Text("ok"), nil
			})
			var raw json.RawMessage
			if input != "" {
				raw = json.RawMessage(input)
			}
			res, err := tl.Call(t.Context(), nil, raw)
			if err != nil || res.IsError {
				t.Fatalf("Call = %+v, %v", res, err)
			}
			if got == nil || *got != (optional{}) {
				t.Errorf("handler got %v, want the zero value", got)
			}
		})
	}
}

func TestMapInputAcceptsAnyPropertyOfItsValueType(t *testing.T) {
	var got map[string]int
	tl := tool.New("counts", "", func(ctx context.Context, _ *tool.Call, in map[string]int) (tool.Result, error) {
		got = in
		return tool.Text("ok"), nil
	})
	if res, err := tl.Call(t.Context(), nil, json.RawMessage(`{"a": 1, "b": 2}`)); err != nil || res.IsError {
		t.Fatalf("Call = %+v, %v", res, err)
	}
	if !reflect.DeepEqual(got, map[string]int{"a": 1, "b": 2}) {
		t.Errorf("handler got %v", got)
	}
	res, err := tl.Call(t.Context(), nil, json.RawMessage(`{"a": "one"}`))
	if err != nil || !res.IsError || !strings.Contains(res.Content, `want "integer"`) {
		t.Errorf("wrong value type: Call = %+v, %v", res, err)
	}
}

func TestHandlerOutcomeBecomesTheResult(t *testing.T) {
	wrappedCancel := fmt.Errorf("fetch: %w", context.Canceled)
	tests := []struct {
		name    string
		handler func(context.Context, *tool.Call, struct{}) (tool.Result, error)
		want    tool.Result
	}{
		{"ResultIsReturnedAsIs",
			func(context.Context, *tool.Call, struct{}) (tool.Result, error) { return tool.Text("done"), nil },
			tool.Result{Content: "done"}},
		{"ErrorResultIsReturnedAsIs",
			func(context.Context, *tool.Call, struct{}) (tool.Result, error) {
				return tool.Errorf("Not a regular file: %s", "x"), nil
			},
			tool.Result{Content: "Error: Not a regular file: x", IsError: true}},
		{"ErrorTextThatIsNotAnErrorStaysSo",
			func(context.Context, *tool.Call, struct{}) (tool.Result, error) {
				return tool.Text("Error: Text not found in a.go"), nil
			},
			tool.Result{Content: "Error: Text not found in a.go"}},
		{"HandlerErrorBecomesAnErrorResult",
			func(context.Context, *tool.Call, struct{}) (tool.Result, error) {
				return tool.Text("ignored"), errors.New("disk full")
			},
			tool.Result{Content: "Error: disk full", IsError: true}},
		{"CancellationErrorWithALiveContextIsTheToolsFailure",
			func(context.Context, *tool.Call, struct{}) (tool.Result, error) { return tool.Result{}, wrappedCancel },
			tool.Result{Content: "Error: fetch: context canceled", IsError: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tool.New("t", "", tt.handler).Call(t.Context(), nil, nil)
			if err != nil {
				t.Fatalf("Call returned a Go error: %v", err)
			}
			if res != tt.want {
				t.Errorf("got %+v, want %+v", res, tt.want)
			}
		})
	}
}

type panicValue struct{ code int }

func (p panicValue) String() string { return fmt.Sprintf("code %d", p.code) }

func TestHandlerPanicBecomesAnErrorResult(t *testing.T) {
	tests := []struct {
		name    string
		handler func(context.Context, *tool.Call, struct{}) (tool.Result, error)
		want    string // a substring after "Error: tool crash panicked: "
	}{
		{"String", func(context.Context, *tool.Call, struct{}) (tool.Result, error) { panic("boom") }, "boom"},
		{"Error", func(context.Context, *tool.Call, struct{}) (tool.Result, error) { panic(errors.New("bad state")) }, "bad state"},
		{"Stringer", func(context.Context, *tool.Call, struct{}) (tool.Result, error) { panic(panicValue{7}) }, "code 7"},
		{"Nil", func(context.Context, *tool.Call, struct{}) (tool.Result, error) { panic(nil) }, "nil"},
		{"RuntimeError", func(context.Context, *tool.Call, struct{}) (tool.Result, error) {
			var m map[string]int
			//lint:ignore SA5000 the handler panics on purpose with a runtime error
			m["x"]++
			return tool.Result{}, nil
		}, "assignment to entry in nil map"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tool.New("crash", "", tt.handler).Call(t.Context(), nil, nil)
			if err != nil {
				t.Fatalf("Call returned a Go error: %v", err)
			}
			const prefix = "Error: tool crash panicked: "
			if !res.IsError || !strings.HasPrefix(res.Content, prefix) || !strings.Contains(res.Content, tt.want) {
				t.Errorf("got %+v, want an error result %q…%q", res, prefix, tt.want)
			}
			if strings.Contains(res.Content, "goroutine") || strings.Contains(res.Content, ".go:") {
				t.Errorf("result carries a stack: %q", res.Content)
			}
		})
	}
}

func TestDoneContextIsARuntimeFailure(t *testing.T) {
	t.Run("CancelledBeforeTheCall", func(t *testing.T) {
		tl, calls, _ := counting(t)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		for _, input := range []string{`{"path": "a"}`, `{"oops": 1}`} {
			res, err := tl.Call(ctx, nil, json.RawMessage(input))
			if !errors.Is(err, context.Canceled) || res != (tool.Result{}) {
				t.Errorf("Call(%s) = %+v, %v; want context.Canceled", input, res, err)
			}
		}
		if calls.Load() != 0 {
			t.Errorf("handler ran on a cancelled context")
		}
	})
	t.Run("DeadlinePassedBeforeTheCall", func(t *testing.T) {
		tl, _, _ := counting(t)
		ctx, cancel := context.WithDeadline(t.Context(), time.Unix(0, 0))
		defer cancel()
		if _, err := tl.Call(ctx, nil, json.RawMessage(`{"path": "a"}`)); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want context.DeadlineExceeded", err)
		}
	})
	t.Run("CancelledWhileTheHandlerRuns", func(t *testing.T) {
		started := make(chan struct{})
		tl := tool.New("wait", "", func(ctx context.Context, _ *tool.Call, in struct{}) (tool.Result, error) {
			close(started)
			<-ctx.Done()
			return tool.Result{}, fmt.Errorf("wait: %w", context.Cause(ctx))
		})
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() {
			res, err := tl.Call(ctx, nil, nil)
			if res != (tool.Result{}) {
				err = fmt.Errorf("result %+v with error %v", res, err)
			}
			done <- err
		}()
		<-started
		cancel()
		if err := <-done; err != context.Canceled {
			t.Errorf("err = %v, want exactly ctx.Err()", err)
		}
	})
	t.Run("ResultFromAHandlerThatFinishedIsKept", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		tl := tool.New("write", "", func(context.Context, *tool.Call, struct{}) (tool.Result, error) {
			cancel()
			return tool.Text("Wrote 3 bytes"), nil
		})
		res, err := tl.Call(ctx, nil, nil)
		if err != nil || res != tool.Text("Wrote 3 bytes") {
			t.Errorf("Call = %+v, %v; want the handler's result", res, err)
		}
	})
	t.Run("PanicAfterCancellationIsStillReported", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		tl := tool.New("crash", "", func(context.Context, *tool.Call, struct{}) (tool.Result, error) {
			cancel()
			panic("boom")
		})
		res, err := tl.Call(ctx, nil, nil)
		if err != nil || !res.IsError || !strings.Contains(res.Content, "panicked: boom") {
			t.Errorf("Call = %+v, %v; want the panic as an error result", res, err)
		}
	})
}

func TestCallIsSafeForConcurrentUse(t *testing.T) {
	var calls atomic.Int64
	tl := tool.New("read_file", "", func(ctx context.Context, _ *tool.Call, in fileInput) (tool.Result, error) {
		calls.Add(1)
		if in.Limit%7 == 0 {
			return tool.Result{}, fmt.Errorf("limit %d", in.Limit)
		}
		return tool.Text(fmt.Sprintf("%s:%d", in.Path, in.Limit)), nil
	})
	const goroutines, perGoroutine = 8, 200
	var wg sync.WaitGroup
	var valid atomic.Int64
	errs := make(chan string, goroutines)
	for g := range goroutines {
		wg.Go(func() {
			for i := range perGoroutine {
				n := g*perGoroutine + i + 1
				var input, want string
				switch {
				case n%5 == 0:
					input, want = fmt.Sprintf(`{"limit": %d}`, n), `Error: invalid input for read_file: required: missing properties: ["path"]`
				case n%7 == 0:
					input, want = fmt.Sprintf(`{"path": "f%d", "limit": %d}`, n, n), fmt.Sprintf("Error: limit %d", n)
					valid.Add(1)
				default:
					input, want = fmt.Sprintf(`{"path": "f%d", "limit": %d}`, n, n), fmt.Sprintf("f%d:%d", n, n)
					valid.Add(1)
				}
				res, err := tl.Call(t.Context(), nil, json.RawMessage(input))
				if err != nil || res.Content != want {
					errs <- fmt.Sprintf("Call(%s) = %+v, %v; want %q", input, res, err, want)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if calls.Load() != valid.Load() {
		t.Errorf("handler ran %d times for %d valid inputs", calls.Load(), valid.Load())
	}
}

func TestResultHelpers(t *testing.T) {
	base := errors.New("no such file")
	tests := []struct {
		name string
		got  tool.Result
		want tool.Result
	}{
		{"TextIsASuccess", tool.Text("hi"), tool.Result{Content: "hi"}},
		{"ErrorfPrefixesError", tool.Errorf("File not found: %s", "a.go"), tool.Result{Content: "Error: File not found: a.go", IsError: true}},
		{"ErrorfAcceptsW", tool.Errorf("open a.go: %w", base), tool.Result{Content: "Error: open a.go: no such file", IsError: true}},
		{"UnknownQuotesTheName", tool.Unknown("grep"), tool.Result{Content: "Error: unknown tool 'grep'", IsError: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %+v, want %+v", tt.got, tt.want)
			}
		})
	}
}
