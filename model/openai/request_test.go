package openai_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/openai"
)

func ptr[T any](v T) *T { return &v }

// send streams req to a fake that answers "ok" and returns the request it
// received.
func send(t *testing.T, req model.Request) recorded {
	t.Helper()
	f := newFake(t, sse(text("ok"), finish("stop"), done))
	if r := collect(t, f.provider().Stream(t.Context(), req)); r.err != nil {
		t.Fatal(r.err)
	}
	return f.requests()[0]
}

func TestRequestMapsTheConversation(t *testing.T) {
	req := model.Request{
		Model:  "gpt-test",
		System: "You are terse.",
		Messages: []model.Message{
			model.SystemText("Answer in French."),
			model.UserText("Read two files."),
			model.AssistantBlocks(
				model.TextBlock("Reading."),
				model.TextBlock("Both at once."),
				model.ToolCallBlock("call_1", "read", json.RawMessage(`{ "path" : "a.txt" }`)),
				model.ToolCallBlock("call_2", "read", nil),
				model.NativeBlock("anthropic", json.RawMessage(`{"type":"thinking"}`)),
			),
			model.UserBlocks(
				model.ToolResultBlock("call_1", "contents of a", false),
				model.ToolResultBlock("call_2", "no such file", true),
				model.TextBlock("Also,"),
				model.TextBlock("summarise."),
			),
			model.AssistantText("Résumé."),
			model.UserBlocks(model.CompactionBlock("Earlier: files were read.")),
			{Role: model.RoleSystem, Blocks: []model.Block{model.TextBlock("Be kind.")}},
			model.AssistantBlocks(), // nothing to send
			{Role: "tool", Blocks: []model.Block{model.ToolResultBlock("call_3", "late", false)}},
			{Role: "developer", Text: "odd role"},
		},
	}
	got := send(t, req)
	if got.body["model"] != "gpt-test" {
		t.Errorf("model = %v", got.body["model"])
	}
	assertJSON(t, "messages", got.body["messages"], `[
		{"role":"system","content":"You are terse.\n\nAnswer in French.\n\nBe kind."},
		{"role":"user","content":"Read two files."},
		{"role":"assistant","content":"Reading.\nBoth at once.","tool_calls":[
			{"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":\"a.txt\"}"}},
			{"id":"call_2","type":"function","function":{"name":"read","arguments":"{}"}}
		]},
		{"role":"tool","content":"contents of a","tool_call_id":"call_1"},
		{"role":"tool","content":"no such file","tool_call_id":"call_2"},
		{"role":"user","content":"Also,\nsummarise."},
		{"role":"assistant","content":"Résumé."},
		{"role":"user","content":"Earlier: files were read."},
		{"role":"tool","content":"late","tool_call_id":"call_3"},
		{"role":"user","content":"odd role"}
	]`)
}

func TestNoSystemMessageWhenThereIsNoSystemText(t *testing.T) {
	got := send(t, model.Request{Model: "m", Messages: []model.Message{model.SystemText(""), model.UserText("hi")}})
	assertJSON(t, "messages", got.body["messages"], `[{"role":"user","content":"hi"}]`)
}

func TestOptionalParametersAreSentOnlyWhenSet(t *testing.T) {
	t.Run("unset", func(t *testing.T) {
		got := send(t, model.Request{Model: "m", Messages: []model.Message{model.UserText("hi")}})
		for _, k := range []string{"max_tokens", "temperature", "top_p", "seed", "stop", "tools", "tool_choice"} {
			if v, ok := got.body[k]; ok {
				t.Errorf("%s = %v sent though unset", k, v)
			}
		}
	})
	t.Run("set", func(t *testing.T) {
		got := send(t, model.Request{
			Model:       "m",
			MaxTokens:   256,
			Temperature: ptr(0.0), // zero is a value, not "unset"
			TopP:        ptr(0.9),
			Seed:        ptr(int64(42)),
			Stop:        []string{"END", "\n\n"},
		})
		for k, want := range map[string]string{
			"max_tokens":  `256`,
			"temperature": `0`,
			"top_p":       `0.9`,
			"seed":        `42`,
			"stop":        `["END","\n\n"]`,
		} {
			assertJSON(t, k, got.body[k], want)
		}
	})
}

func TestToolChoiceIsSentOnlyWithTools(t *testing.T) {
	tools := []model.ToolSpec{{Name: "read", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	tests := []struct {
		name   string
		tools  []model.ToolSpec
		choice model.ToolChoice
		want   string // "" for absent
	}{
		{"zero with tools", tools, model.ToolChoice{}, ""},
		{"auto", tools, model.ToolChoice{Mode: model.ToolChoiceAuto}, `"auto"`},
		{"none", tools, model.ToolChoice{Mode: model.ToolChoiceNone}, `"none"`},
		{"required", tools, model.ToolChoice{Mode: model.ToolChoiceRequired}, `"required"`},
		{"named", tools, model.ToolChoice{Mode: model.ToolChoiceTool, Name: "read"}, `{"type":"function","function":{"name":"read"}}`},
		{"required without tools", nil, model.ToolChoice{Mode: model.ToolChoiceRequired}, ""},
		{"named without tools", nil, model.ToolChoice{Mode: model.ToolChoiceTool, Name: "read"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := send(t, model.Request{Model: "m", Tools: tt.tools, ToolChoice: tt.choice})
			v, ok := got.body["tool_choice"]
			switch {
			case tt.want == "" && ok:
				t.Errorf("tool_choice = %v, want none", v)
			case tt.want != "":
				assertJSON(t, "tool_choice", v, tt.want)
			}
		})
	}
}

func TestToolWithoutSchemaGetsAnEmptyObjectSchema(t *testing.T) {
	got := send(t, model.Request{Model: "m", Tools: []model.ToolSpec{{Name: "now"}}})
	assertJSON(t, "tools", got.body["tools"], `[{"type":"function","function":{"name":"now","parameters":{"type":"object","properties":{}}}}]`)
}

func TestInvalidRequestFailsBeforeSending(t *testing.T) {
	tests := []struct {
		name string
		req  model.Request
	}{
		{"no model", model.Request{}},
		{"invalid schema", model.Request{Model: "m", Tools: []model.ToolSpec{{Name: "t", InputSchema: json.RawMessage(`{"type":`)}}}},
		{"unknown tool choice", model.Request{Model: "m", Tools: []model.ToolSpec{{Name: "t"}}, ToolChoice: model.ToolChoice{Mode: "sometimes"}}},
		{"named choice without a name", model.Request{Model: "m", Tools: []model.ToolSpec{{Name: "t"}}, ToolChoice: model.ToolChoice{Mode: model.ToolChoiceTool}}},
		{"negative max tokens", model.Request{Model: "m", MaxTokens: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var hits atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
			defer srv.Close()
			p := openai.New(openai.Options{BaseURL: srv.URL})
			r := collect(t, p.Stream(t.Context(), tt.req))
			if e := modelError(t, r.err); e.Class != model.ClassBadRequest || e.Started {
				t.Errorf("error = %+v, want bad request, not started", e)
			}
			if n := hits.Load(); n != 0 {
				t.Errorf("%d requests sent", n)
			}
		})
	}
}

func TestAPIErrorDescribesItself(t *testing.T) {
	e := &openai.APIError{Status: 400, Code: "context_length_exceeded", Message: "too long"}
	if got, want := e.Error(), "openai: HTTP 400 (context_length_exceeded): too long"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got, want := (&openai.APIError{Message: "boom"}).Error(), "openai: stream error: boom"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	var target *openai.APIError
	if !errors.As(error(e), &target) {
		t.Error("errors.As fails on *APIError")
	}
}
