package anthropic

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
)

// sentBody sends req through a fresh fake API and returns the JSON body the
// API received.
func sentBody(t *testing.T, opts Options, req model.Request) apiRequest {
	t.Helper()
	api := newFakeAPI(t, sse(textEvents("ok")...))
	if r := collect(t, api.provider(opts).Stream(t.Context(), req)); r.err != nil {
		t.Fatal(r.err)
	}
	reqs := api.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	return reqs[0]
}

func ptr[T any](v T) *T { return &v }

func TestRequestMapping(t *testing.T) {
	schema := json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"z":{"type":"string","$schema":"kept when nested"},"a":{"type":"integer"}}}`)
	tools := []model.ToolSpec{
		{Name: "first", InputSchema: schema},
		{Name: "last", Description: "the last tool"},
	}
	user := []model.Message{model.UserText("q")}
	for _, tc := range []struct {
		name string
		opts Options
		req  model.Request
		want map[string]string // member → JSON; "" means absent
	}{
		{
			name: "UnknownModelMaxTokensIs4096",
			req:  model.Request{Model: "m", Messages: user},
			want: map[string]string{"max_tokens": `4096`},
		},
		{
			name: "KnownModelMaxTokensIsItsOutputLimit",
			req:  model.Request{Model: "claude-sonnet-4-5-20250929", Messages: user},
			want: map[string]string{"max_tokens": `64000`},
		},
		{
			name: "MaxTokensFromOptionsWinOverTheModelTable",
			opts: Options{DefaultMaxTokens: 2000},
			req:  model.Request{Model: "claude-opus-4-6", Messages: user},
			want: map[string]string{"max_tokens": `2000`},
		},
		{
			name: "MaxTokensFromOptionsWhenRequestHasNone",
			opts: Options{DefaultMaxTokens: 1000},
			req:  model.Request{Model: "m", Messages: user},
			want: map[string]string{"max_tokens": `1000`},
		},
		{
			name: "MaxTokensFromRequestWins",
			opts: Options{DefaultMaxTokens: 1000},
			req:  model.Request{Model: "m", Messages: user, MaxTokens: 77},
			want: map[string]string{"max_tokens": `77`},
		},
		{
			name: "SamplingForwardedSeedIgnored",
			req:  model.Request{Model: "m", Messages: user, Temperature: ptr(0.25), TopP: ptr(0.5), Seed: ptr(int64(42)), Stop: []string{"END", "\n\n"}},
			want: map[string]string{"temperature": `0.25`, "top_p": `0.5`, "seed": ``, "stop_sequences": `["END","\n\n"]`},
		},
		{
			name: "ZeroSamplingIsStillSent",
			req:  model.Request{Model: "m", Messages: user, Temperature: ptr(0.0)},
			want: map[string]string{"temperature": `0`, "top_p": ``},
		},
		{
			name: "SystemMessagesHoistedAfterRequestSystem",
			req: model.Request{Model: "m", System: "You are terse.", Messages: []model.Message{
				model.SystemText("Rule one."),
				model.UserText("q"),
				{Role: model.RoleSystem, Blocks: []model.Block{model.TextBlock("Rule"), model.TextBlock("two.")}},
				model.SystemText(""),
			}},
			want: map[string]string{
				"system":        `[{"type":"text","text":"You are terse.\n\nRule one.\n\nRule\ntwo.","cache_control":{"type":"ephemeral"}}]`,
				"messages":      `[{"role":"user","content":[{"type":"text","text":"q"}]}]`,
				"cache_control": ``,
			},
		},
		{
			name: "SystemMessageAloneBecomesSystem",
			req:  model.Request{Model: "m", Messages: []model.Message{model.SystemText("Only this."), model.UserText("q")}},
			want: map[string]string{"system": `[{"type":"text","text":"Only this.","cache_control":{"type":"ephemeral"}}]`},
		},
		{
			name: "NonAssistantRolesSentAsUser",
			req: model.Request{Model: "m", Messages: []model.Message{
				model.UserText("q"),
				model.AssistantText("a"),
				{Role: model.RoleTool, Text: "tool says"},
				{Role: "narrator", Text: "meanwhile"},
			}},
			want: map[string]string{"messages": `[
				{"role":"user","content":[{"type":"text","text":"q"}]},
				{"role":"assistant","content":[{"type":"text","text":"a"}]},
				{"role":"user","content":[{"type":"text","text":"tool says"}]},
				{"role":"user","content":[{"type":"text","text":"meanwhile"}]}]`},
		},
		{
			name: "BlocksMapToAPIBlocks",
			req: model.Request{Model: "m", Messages: []model.Message{
				model.UserText("q"),
				model.AssistantBlocks(
					model.NativeBlock("anthropic", json.RawMessage(`{"type":"thinking","thinking":"hmm","signature":"sig"}`)),
					model.TextBlock("calling"),
					model.ToolCallBlock("toolu_1", "run", json.RawMessage(`{"cmd":"ls"}`)),
					model.ToolCallBlock("toolu_2", "noargs", nil),
					model.NativeBlock("openai", json.RawMessage(`{"type":"reasoning"}`)),
					model.Block{Type: "future", Raw: json.RawMessage(`{"type":"future"}`)},
				),
				model.UserBlocks(
					model.ToolResultBlock("toolu_1", "a.txt", false),
					model.ToolResultBlock("toolu_2", "boom", true),
					model.ToolResultBlock("toolu_3", "", false),
				),
				model.UserBlocks(model.CompactionBlock("summary so far"), model.Block{Type: model.BlockCompaction, NullContent: true}),
			}},
			want: map[string]string{"messages": `[
				{"role":"user","content":[{"type":"text","text":"q"}]},
				{"role":"assistant","content":[
					{"type":"thinking","thinking":"hmm","signature":"sig"},
					{"type":"text","text":"calling"},
					{"type":"tool_use","id":"toolu_1","name":"run","input":{"cmd":"ls"}},
					{"type":"tool_use","id":"toolu_2","name":"noargs","input":{}}]},
				{"role":"user","content":[
					{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"a.txt"}]},
					{"type":"tool_result","tool_use_id":"toolu_2","is_error":true,"content":[{"type":"text","text":"boom"}]},
					{"type":"tool_result","tool_use_id":"toolu_3"}]},
				{"role":"user","content":[
					{"type":"compaction","content":"summary so far"},
					{"type":"compaction","content":null}]}]`},
		},
		{
			name: "MessageLeftWithoutBlocksIsDropped",
			req: model.Request{Model: "m", Messages: []model.Message{
				model.UserText("q"),
				model.AssistantBlocks(model.NativeBlock("openai", json.RawMessage(`{}`))),
				model.UserBlocks(),
				model.UserText("again"),
			}},
			want: map[string]string{"messages": `[
				{"role":"user","content":[{"type":"text","text":"q"}]},
				{"role":"user","content":[{"type":"text","text":"again"}]}]`},
		},
		{
			name: "ToolsWithoutSchemaMemberAndLastToolCached",
			req:  model.Request{Model: "m", Messages: user, Tools: tools},
			want: map[string]string{
				"tools": `[
					{"name":"first","input_schema":{"type":"object","properties":{"z":{"type":"string","$schema":"kept when nested"},"a":{"type":"integer"}}}},
					{"name":"last","description":"the last tool","input_schema":{"type":"object","properties":{}},"cache_control":{"type":"ephemeral"}}]`,
				"system":        ``,
				"cache_control": ``,
				"tool_choice":   ``,
			},
		},
		{
			name: "WithSystemToolsAreNotCached",
			req:  model.Request{Model: "m", System: "s", Messages: user, Tools: tools[1:]},
			want: map[string]string{
				"tools":         `[{"name":"last","description":"the last tool","input_schema":{"type":"object","properties":{}}}]`,
				"cache_control": ``,
			},
		},
		{
			name: "NeitherSystemNorToolsCachesTopLevel",
			req:  model.Request{Model: "m", Messages: user},
			want: map[string]string{"cache_control": `{"type":"ephemeral"}`, "system": ``, "tools": ``},
		},
		{
			name: "ToolChoiceAuto",
			req:  model.Request{Model: "m", Messages: user, Tools: tools[1:], ToolChoice: model.ToolChoice{Mode: model.ToolChoiceAuto}},
			want: map[string]string{"tool_choice": `{"type":"auto"}`},
		},
		{
			name: "ToolChoiceNone",
			req:  model.Request{Model: "m", Messages: user, Tools: tools[1:], ToolChoice: model.ToolChoice{Mode: model.ToolChoiceNone}},
			want: map[string]string{"tool_choice": `{"type":"none"}`},
		},
		{
			name: "ToolChoiceRequiredIsAny",
			req:  model.Request{Model: "m", Messages: user, Tools: tools[1:], ToolChoice: model.ToolChoice{Mode: model.ToolChoiceRequired}},
			want: map[string]string{"tool_choice": `{"type":"any"}`},
		},
		{
			name: "ToolChoiceNamedTool",
			req:  model.Request{Model: "m", Messages: user, Tools: tools[1:], ToolChoice: model.ToolChoice{Mode: model.ToolChoiceTool, Name: "last"}},
			want: map[string]string{"tool_choice": `{"type":"tool","name":"last"}`},
		},
		{
			name: "ToolChoiceNotSentWithoutTools",
			req:  model.Request{Model: "m", Messages: user, ToolChoice: model.ToolChoice{Mode: model.ToolChoiceRequired}},
			want: map[string]string{"tool_choice": ``, "tools": ``},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := sentBody(t, tc.opts, tc.req).Body
			for member, want := range tc.want {
				v, ok := got[member]
				switch {
				case want == "" && ok:
					t.Errorf("%s = %s, want it absent", member, mustMarshal(t, v))
				case want != "" && !ok:
					t.Errorf("%s is absent, want %s", member, want)
				case want != "":
					jsonEqual(t, member, v, want)
				}
			}
		})
	}
}

func TestSchemaMemberOrderIsKept(t *testing.T) {
	// The order of a schema's members is the order the model reads, and
	// changing it between requests would defeat prompt caching.
	raw := sentBody(t, Options{}, model.Request{Model: "m", Messages: []model.Message{model.UserText("q")}, Tools: []model.ToolSpec{{
		Name:        "t",
		InputSchema: json.RawMessage(`{"type":"object", "$schema":"x", "required":["b"], "properties":{"b":{"type":"string"},"a":{"type":"string"}}}`),
	}}}).Raw
	want := `"input_schema":{"type":"object","required":["b"],"properties":{"b":{"type":"string"},"a":{"type":"string"}}}`
	if !strings.Contains(string(raw), want) {
		t.Errorf("request body %s\ndoes not contain %s", raw, want)
	}
}

func TestBadToolSchemaFailsBeforeSending(t *testing.T) {
	api := newFakeAPI(t)
	for _, schema := range []string{`[]`, `"object"`, `{"type":`, `null`} {
		r := collect(t, api.provider(Options{}).Stream(t.Context(), model.Request{
			Model:    "m",
			Messages: []model.Message{model.UserText("q")},
			Tools:    []model.ToolSpec{{Name: "bad", InputSchema: json.RawMessage(schema)}},
		}))
		e := modelError(t, r.err)
		if e.Class != model.ClassBadRequest || !strings.Contains(e.Message, "bad") {
			t.Errorf("schema %s: error %v, want a bad_request naming the tool", schema, e)
		}
	}
	if n := len(api.requests()); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
}

func TestDropMember(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"$schema":"x"}`, `{}`},
		{`{"a":1,"$schema":"x","b":[1, 2]}`, `{"a":1,"b":[1,2]}`},
		{` { "b" : {"$schema":"kept"} , "a":"\u00e9" } `, `{"b":{"$schema":"kept"},"a":"\u00e9"}`},
		{`{"$schema":"x","$schema":"y","c":null}`, `{"c":null}`},
	} {
		got, err := dropMember(json.RawMessage(tc.in), "$schema")
		if err != nil || string(got) != tc.want {
			t.Errorf("dropMember(%s) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
}

func TestDropMemberRefusesWhatIsNotOneJSONObject(t *testing.T) {
	for _, in := range []string{
		"{}\v", "\v{}", "{}\f", "{}\u00a0", "{} {}", "{}x", "{}}", `{"a":1}]`, "", " ", "[]", "null",
	} {
		if got, err := dropMember(json.RawMessage(in), "$schema"); err == nil {
			t.Errorf("dropMember(%q) = %s, want an error", in, got)
		}
	}
	for _, in := range []string{"{}", " \t\r\n{} \t\r\n", "\n{\"a\":1}\n"} {
		if _, err := dropMember(json.RawMessage(in), "$schema"); err != nil {
			t.Errorf("dropMember(%q): %v", in, err)
		}
	}
}

func TestMaxOutputTokens(t *testing.T) {
	for _, tc := range []struct {
		model string
		want  int
		known bool
	}{
		{"claude-opus-5-5", 128_000, true},
		{"claude-fable-5-1", 128_000, true},
		{"claude-sonnet-5", 128_000, true},
		{"claude-opus-4-8", 128_000, true},
		{"claude-opus-4-6", 128_000, true},
		{"claude-sonnet-4-6", 128_000, true},
		{"claude-opus-4-5-20251101", 64_000, true},
		{"claude-sonnet-4-5", 64_000, true},
		{"claude-haiku-4-5@20251001", 64_000, true},
		{"anthropic.claude-haiku-4-5-20251001-v1:0", 64_000, true},
		{"us.anthropic.claude-opus-4-6-v1", 128_000, true},
		{"Claude-Sonnet-4-5", 64_000, true},
		{"claude-opus-4-1-20250805", 32_000, true},
		{"claude-opus-4-20250514", 32_000, true},
		{"claude-opus-4-0", 32_000, true},
		{"claude-sonnet-4-20250514", 64_000, true},
		{"claude-3-7-sonnet-latest", 64_000, true},
		{"claude-3-5-haiku-20241022", 8_192, true},
		{"claude-3-haiku-20240307", 4_096, true},
		{"claude-test", 0, false},
		{"claude", 0, false},
		{"gpt-4.1", 0, false},
		{"", 0, false},
	} {
		got, ok := MaxOutputTokens(tc.model)
		if got != tc.want || ok != tc.known {
			t.Errorf("MaxOutputTokens(%q) = %d, %v; want %d, %v", tc.model, got, ok, tc.want, tc.known)
		}
	}
}
