package model_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
)

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal %#v: %v", v, err)
	}
	return string(b)
}

func TestMessageJSONIsThePersistedFormat(t *testing.T) {
	tests := []struct {
		name string
		msg  model.Message
		want string
	}{
		{"string content", model.UserText("hi"), `{"role":"user","content":"hi"}`},
		{"empty string content", model.AssistantText(""), `{"role":"assistant","content":""}`},
		{"empty block array stays an array", model.UserBlocks(), `{"role":"user","content":[]}`},
		{"system", model.SystemText("be brief"), `{"role":"system","content":"be brief"}`},
		{"tool role", model.Message{Role: model.RoleTool, Text: "x"}, `{"role":"tool","content":"x"}`},
		{"text block", model.AssistantBlocks(model.TextBlock("a")), `{"role":"assistant","content":[{"type":"text","text":"a"}]}`},
		{"tool call input compacted", model.AssistantBlocks(model.ToolCallBlock("c1", "bash", json.RawMessage("{ \"cmd\" :\n \"ls\" }"))),
			`{"role":"assistant","content":[{"type":"tool_call","id":"c1","name":"bash","input":{"cmd":"ls"}}]}`},
		{"nil tool call input is an empty object", model.AssistantBlocks(model.ToolCallBlock("c1", "noop", nil)),
			`{"role":"assistant","content":[{"type":"tool_call","id":"c1","name":"noop","input":{}}]}`},
		{"isError omitted when false", model.UserBlocks(model.ToolResultBlock("c1", "ok", false)),
			`{"role":"user","content":[{"type":"tool_result","id":"c1","content":"ok"}]}`},
		{"isError written when true", model.UserBlocks(model.ToolResultBlock("c1", "boom", true)),
			`{"role":"user","content":[{"type":"tool_result","id":"c1","content":"boom","isError":true}]}`},
		{"native", model.AssistantBlocks(model.NativeBlock("anthropic", json.RawMessage(`{"sig":"x"}`))),
			`{"role":"assistant","content":[{"type":"native","provider":"anthropic","data":{"sig":"x"}}]}`},
		{"native nil data is null", model.AssistantBlocks(model.NativeBlock("p", nil)),
			`{"role":"assistant","content":[{"type":"native","provider":"p","data":null}]}`},
		{"compaction", model.AssistantBlocks(model.CompactionBlock("summary")),
			`{"role":"assistant","content":[{"type":"compaction","content":"summary"}]}`},
		{"compaction null", model.AssistantBlocks(model.Block{Type: model.BlockCompaction, NullContent: true}),
			`{"role":"assistant","content":[{"type":"compaction","content":null}]}`},
		{"unknown block kept raw", model.AssistantBlocks(model.Block{Type: "image", Raw: json.RawMessage(`{"type":"image", "url":"u"}`)}),
			`{"role":"assistant","content":[{"type":"image","url":"u"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.msg.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("MarshalJSON\n got %s\nwant %s", got, tt.want)
			}
			var back model.Message
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatalf("Unmarshal: %v", err)
			}
			again, err := back.MarshalJSON()
			if err != nil || string(again) != tt.want {
				t.Errorf("round trip changed the JSON:\n got %s\nwant %s (err %v)", again, tt.want, err)
			}
		})
	}
}

func TestContentShapeRoundTrips(t *testing.T) {
	for _, msg := range []model.Message{
		model.UserText(""),
		model.UserBlocks(),
		model.UserBlocks(model.TextBlock("")),
		model.AssistantBlocks(model.ToolCallBlock("id", "n", json.RawMessage(`{"a":[1,2,{"b":null}]}`))),
		model.AssistantBlocks(model.Block{Type: model.BlockCompaction, NullContent: true}),
	} {
		b, err := json.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		var back model.Message
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, msg) {
			t.Errorf("round trip of %s:\n got %#v\nwant %#v", b, back, msg)
		}
	}
}

func TestStringsAreEscapedLikeJSONStringify(t *testing.T) {
	in := "<a & b> \"q\" \\ \n\r\t\b\f \x01 \u2028 é 😀 \xff"
	got, err := model.UserText(in).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"role":"user","content":"<a & b> \"q\" \\ \n\r\t\b\f \u0001 ` + "\u2028 é 😀 \ufffd" + `"}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if bytes.ContainsAny(got, "\n\r") {
		t.Error("marshaled message holds a line break")
	}
	var back model.Message
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if want := strings.ReplaceAll(in, "\xff", "\ufffd"); back.Text != want {
		t.Errorf("decoded %q, want %q", back.Text, want)
	}
}

func TestUnknownBlockIsPreservedVerbatim(t *testing.T) {
	in := `{"role":"assistant","content":[{"type":"thinking","thinking":"hmm","signature":"s"},{"type":"text","text":"hi"}]}`
	var m model.Message
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		t.Fatal(err)
	}
	if m.Blocks[0].Type != "thinking" || string(m.Blocks[0].Raw) != `{"type":"thinking","thinking":"hmm","signature":"s"}` {
		t.Errorf("unknown block = %+v", m.Blocks[0])
	}
	if got := mustMarshal(t, m); got != in {
		t.Errorf("rewritten as %s", got)
	}
	if m.PlainText() != "hi" {
		t.Errorf("PlainText = %q", m.PlainText())
	}
}

func TestUnknownMembersOfKnownBlocksAreIgnored(t *testing.T) {
	var m model.Message
	in := `{"role":"user","extra":1,"content":[{"type":"text","text":"a","cache":{"x":1}}]}`
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		t.Fatal(err)
	}
	if want := model.UserBlocks(model.TextBlock("a")); !reflect.DeepEqual(m, want) {
		t.Errorf("got %#v, want %#v", m, want)
	}
}

func TestNullMembersCountAsAbsent(t *testing.T) {
	var m model.Message
	in := `{"role":"user","content":[{"type":"tool_result","id":null,"content":null,"isError":null},{"type":"compaction"}]}`
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		t.Fatal(err)
	}
	want := model.UserBlocks(model.ToolResultBlock("", "", false), model.Block{Type: model.BlockCompaction, NullContent: true})
	if !reflect.DeepEqual(m, want) {
		t.Errorf("got %#v, want %#v", m, want)
	}
}

func TestInvalidMessagesAreRejected(t *testing.T) {
	for _, in := range []string{
		`null`,
		`[]`,
		`"hi"`,
		`{}`,
		`{"content":"x"}`,
		`{"role":"user"}`,
		`{"role":1,"content":"x"}`,
		`{"role":"user","content":null}`,
		`{"role":"user","content":7}`,
		`{"role":"user","content":{"type":"text"}}`,
		`{"role":"user","content":[1]}`,
		`{"role":"user","content":[null]}`,
		`{"role":"user","content":[{"text":"no type"}]}`,
		`{"role":"user","content":[{"type":5}]}`,
		`{"role":"user","content":[{"type":"text","text":5}]}`,
		`{"role":"user","content":[{"type":"tool_result","id":"a","content":"x","isError":"yes"}]}`,
		`{"role":"user","content":[{"type":"compaction","content":false}]}`,
		`{"role":"user","content":"x","role":2}`,
		`{"role":"user","content":"x"} trailing`,
	} {
		var m model.Message
		if err := json.Unmarshal([]byte(in), &m); err == nil {
			t.Errorf("Unmarshal(%s) = %#v, want error", in, m)
		}
	}
}

func TestDuplicateMembersLastWins(t *testing.T) {
	var m model.Message
	in := `{"role":"system","content":[{"type":"text","text":"a"}],"role":"user","content":"b"}`
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		t.Fatal(err)
	}
	if want := model.UserText("b"); !reflect.DeepEqual(m, want) {
		t.Errorf("got %#v, want %#v", m, want)
	}
}

func TestInvalidRawJSONFailsToMarshal(t *testing.T) {
	for _, b := range []model.Block{
		model.ToolCallBlock("c", "n", json.RawMessage(`{"a":`)),
		model.NativeBlock("p", json.RawMessage(`nope`)),
		{Type: "custom", Raw: json.RawMessage(`[1]`)},
	} {
		if _, err := model.AssistantBlocks(b).MarshalJSON(); err == nil {
			t.Errorf("MarshalJSON(%+v) succeeded", b)
		}
	}
}

func TestPlainText(t *testing.T) {
	tests := []struct {
		name string
		msg  model.Message
		want string
	}{
		{"string", model.UserText("hello"), "hello"},
		{"text blocks joined", model.UserBlocks(model.TextBlock("a"), model.ToolResultBlock("c", "x", false), model.TextBlock("b")), "a\nb"},
		{"no text blocks", model.UserBlocks(model.ToolResultBlock("c", "x", false)), ""},
		{"blocks win over text", model.Message{Role: model.RoleUser, Text: "ignored", Blocks: []model.Block{}}, ""},
	}
	for _, tt := range tests {
		if got := tt.msg.PlainText(); got != tt.want {
			t.Errorf("%s: PlainText = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func ExampleMessage() {
	msg := model.AssistantBlocks(
		model.TextBlock("Listing files."),
		model.ToolCallBlock("call_1", "bash", json.RawMessage(`{"command":"ls"}`)),
	)
	b, _ := json.Marshal(msg)
	fmt.Println(string(b))
	fmt.Println(model.UserText("hi").PlainText())
	// Output:
	// {"role":"assistant","content":[{"type":"text","text":"Listing files."},{"type":"tool_call","id":"call_1","name":"bash","input":{"command":"ls"}}]}
	// hi
}

// FuzzTextRoundTrips checks that any string survives the persisted form
// as encoding/json would carry it (invalid UTF-8 becomes U+FFFD) and that
// the JSON never holds a raw line break.
func FuzzTextRoundTrips(f *testing.F) {
	for _, s := range []string{"", "plain", "\"q\" \\ / \n\r\t\b\f \x00\x1f\x7f", "é 😀 \u2028\u2029", "\xff\xfe bad", "<&>", strings.Repeat("ab\"", 9)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := model.UserText(s).MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if bytes.ContainsAny(b, "\n\r") {
			t.Fatalf("raw line break in %q", b)
		}
		var back model.Message
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%q: %v", b, err)
		}
		std, _ := json.Marshal(s)
		var want string
		json.Unmarshal(std, &want)
		if back.Text != want {
			t.Fatalf("round trip of %q gave %q, want %q", s, back.Text, want)
		}
	})
}
