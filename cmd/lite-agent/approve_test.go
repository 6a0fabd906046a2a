package main

import (
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

func TestWriteApproval(t *testing.T) {
	for _, tc := range []struct {
		name, tool, input string
		verdict           permission.Verdict
		want              string
	}{
		{
			name: "fields in the model's order", tool: "bash",
			input:   `{"description":"Run the tests","command":"cd web && npm test"}`,
			verdict: permission.Verdict{RuleID: "bash-analysis", Reason: "the command cannot be fully analyzed: npm runs code from package.json"},
			want: "allow bash? the command cannot be fully analyzed: npm runs code from package.json (bash-analysis)\n" +
				"  description: Run the tests\n" +
				"  command: cd web && npm test\n" +
				"[y]es, [n]o, [a]lways this call in this session: ",
		},
		{
			name: "several lines", tool: "write_file",
			input: `{"path":"run.sh","content":"#!/bin/sh\n\tcurl x | sh\n"}`,
			want: "allow write_file?\n" +
				"  path: run.sh\n" +
				"  content:\n" +
				"  | #!/bin/sh\n" +
				"  | \tcurl x | sh\n" +
				"  | \n" +
				"[y]es, [n]o, [a]lways this call in this session: ",
		},
		{
			name: "escapes", tool: "mcp__srv\u202e__x",
			input:   `{"command":"ls\r\u001b[2Kecho ok\u200b","ke\u0007y":"v\u0085","n":[1, {"a" : "\u2066"}]}`,
			verdict: permission.Verdict{RuleID: "r\u001b1"},
			want: "allow mcp__srv\\u202e__x? (r\\x1b1)\n" +
				"  command: ls\\r\\x1b[2Kecho ok\\u200b\n" +
				"  ke\\ay: \"v\\u0085\"\n" +
				"  n: [1,{\"a\":\"\\u2066\"}]\n" +
				"[y]es, [n]o, [a]lways this call in this session: ",
		},
		{
			name: "blanks and empty values quoted", tool: "edit_file",
			input: `{"old_string":" x ","new_string":"","path":"a b"}`,
			want: "allow edit_file?\n" +
				"  old_string: \" x \"\n" +
				"  new_string: \"\"\n" +
				"  path: a b\n" +
				"[y]es, [n]o, [a]lways this call in this session: ",
		},
		{
			name: "not an object", tool: "x", input: "[\"a\",\n 1]",
			want: "allow x?\n  input: [\"a\",1]\n[y]es, [n]o, [a]lways this call in this session: ",
		},
		{
			name: "trailing data", tool: "x", input: `{"a":1} {"b":2}`,
			want: "allow x?\n  input: {\"a\":1} {\"b\":2}\n[y]es, [n]o, [a]lways this call in this session: ",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			hidden := writeApproval(&b, permission.ApprovalRequest{
				Call:    permission.Call{Name: tc.tool, Input: []byte(tc.input)},
				Verdict: tc.verdict,
			}, false)
			if got := b.String(); got != tc.want || hidden {
				t.Errorf("got (hidden %v)\n%s\nwant\n%s", hidden, got, tc.want)
			}
		})
	}
}

// A long value shows its head and tail unless full; a long line its
// first characters. Nothing is left out silently.
func TestWriteApprovalLong(t *testing.T) {
	lines := make([]string, 100)
	for i := range lines {
		lines[i] = "line"
	}
	lines[60] = "the middle"
	long := strings.Repeat("y", shownRunes+10) + "TAIL"
	in := mustJSONString(map[string]string{"a": strings.Join(lines, "\n"), "b": long})
	req := permission.ApprovalRequest{Call: permission.Call{Name: "bash", Input: []byte(in)}}

	var b strings.Builder
	if !writeApproval(&b, req, false) {
		t.Fatal("nothing reported hidden")
	}
	got := b.String()
	for _, want := range []string{"… 55 more lines, not shown …", "… (14 more characters, not shown)", "[v]iew it all: "} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "the middle") || strings.Contains(got, "TAIL") {
		t.Errorf("the clipped prompt shows what it says it leaves out:\n%s", got)
	}

	b.Reset()
	if writeApproval(&b, req, true) {
		t.Error("the full prompt says it left something out")
	}
	got = b.String()
	if !strings.Contains(got, "  | the middle\n") || !strings.Contains(got, "TAIL\n") || strings.Contains(got, "not shown") {
		t.Errorf("the full prompt:\n%s", got)
	}
}
