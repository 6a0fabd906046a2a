package permission_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

func TestDecodeRulesReadsTheDocumentedFormat(t *testing.T) {
	t.Parallel()
	rules, err := permission.DecodeRules([]byte(`{
	  "version": 1,
	  "rules": [
	    {"id": "secrets", "description": "keep out", "tool": ["read_file", "write_file"],
	     "when": {"path": {"glob": "secrets/**"}}, "effect": "deny"},
	    {"tool": "bash", "when": {"command": {"startsWith": "git push"}, "x.y": {"not": {"in": [1, "a", null]}}}, "effect": "ask"},
	    {"effect": "allow"}
	  ]
	}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != 3 {
		t.Fatalf("got %d rules", len(rules))
	}
	r := rules[0]
	if r.ID != "secrets" || r.Description != "keep out" || !reflect.DeepEqual(r.Tool, []string{"read_file", "write_file"}) || r.Effect != deny {
		t.Errorf("rule 0 = %+v", r)
	}
	if got := r.When["path"].String(); got != `{"glob":"secrets/**"}` {
		t.Errorf("condition = %s", got)
	}
	if got := rules[1].When["x.y"].String(); got != `{"not":{"in":[1,"a",null]}}` {
		t.Errorf("condition = %s", got)
	}
	if !reflect.DeepEqual(rules[1].Tool, []string{"bash"}) || rules[2].Effect != allow || rules[2].Tool != nil {
		t.Errorf("rules 1, 2 = %+v, %+v", rules[1], rules[2])
	}
	if rules, err := permission.DecodeRules([]byte(`{"version":1}`)); err != nil || len(rules) != 0 {
		t.Errorf("no rules: %v, %v", rules, err)
	}
}

func TestDecodeRulesIsStrict(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		doc  string
		want string // in the error
	}{
		{"Empty", ``, "empty"},
		{"NotAnObject", `[]`, "must be an object"},
		{"NoVersion", `{"rules":[]}`, "version: missing"},
		{"WrongVersion", `{"version":2,"rules":[]}`, "unsupported version"},
		{"VersionAsString", `{"version":"1"}`, "unsupported version"},
		{"VersionAsFloat", `{"version":1.0}`, "unsupported version"},
		{"UnknownTopKey", `{"version":1,"rules":[],"mode":"bypassPermissions"}`, `: mode: unknown key`},
		{"HooksInRuleFile", `{"version":1,"hooks":{"run:start":[{"command":"touch /tmp/x"}]}}`, "unknown key"},
		{"UnknownRuleKey", `{"version":1,"rules":[{"effect":"deny","where":"x"}]}`, `rules[0].where: unknown key`},
		{"UnknownConditionKey", `{"version":1,"rules":[{"effect":"deny","when":{"a":{"matches":"x"}}}]}`, "unknown key"},
		{"TwoOperators", `{"version":1,"rules":[{"effect":"deny","when":{"a":{"equals":1,"contains":"x"}}}]}`, "exactly one"},
		{"NoOperator", `{"version":1,"rules":[{"effect":"deny","when":{"a":{}}}]}`, "exactly one"},
		{"ConditionNotObject", `{"version":1,"rules":[{"effect":"deny","when":{"a":"x"}}]}`, "must be an object"},
		{"DuplicateTopKey", `{"version":1,"version":1}`, `configuration: duplicate key "version" (at byte 12)`},
		{"DuplicateEffect", `{"version":1,"rules":[{"effect":"deny","effect":"allow"}]}`, "duplicate key"},
		{"DuplicateAllowKey", `{"version":1,"rules":[{"tool":"bash","effect":"allow"}],"rules":[{"tool":"bash","effect":"allow"}]}`, "duplicate key"},
		{"DuplicateEscapedKey", `{"version":1,"rul\u0065s":[],"rules":[]}`, "duplicate key"},
		{"DuplicateInNestedValue", `{"version":1,"rules":[{"effect":"deny","when":{"a":{"equals":{"k":1,"k":2}}}}]}`, "duplicate key"},
		{"NonUTF8", "{\"version\":1,\"rules\":[{\"id\":\"\xff\",\"effect\":\"deny\"}]}", "UTF-8"},
		{"BOM", "\xef\xbb\xbf{\"version\":1}", "invalid JSON (at byte 1)"},
		{"TrailingData", `{"version":1} {}`, "after the top-level value"},
		{"Truncated", `{"version":1,"rules":[`, "rules: invalid JSON: unexpected end of input"},
		{"Malformed", `{"version":1,}`, "invalid JSON (at byte 13)"},
		{"NoEffect", `{"version":1,"rules":[{"tool":"bash"}]}`, "effect: missing"},
		{"BadEffect", `{"version":1,"rules":[{"effect":"prompt"}]}`, "effect: must be"},
		{"EffectCase", `{"version":1,"rules":[{"effect":"Deny"}]}`, "effect: must be"},
		{"EffectNotString", `{"version":1,"rules":[{"effect":true}]}`, "effect: must be"},
		{"RulesNotList", `{"version":1,"rules":{}}`, "must be a list"},
		{"RuleNotObject", `{"version":1,"rules":["deny"]}`, "must be an object"},
		{"ToolNumber", `{"version":1,"rules":[{"tool":1,"effect":"deny"}]}`, "tool: must be"},
		{"ToolEmptyList", `{"version":1,"rules":[{"tool":[],"effect":"deny"}]}`, "empty list"},
		{"ToolEmptyString", `{"version":1,"rules":[{"tool":"","effect":"deny"}]}`, "empty tool glob"},
		{"ToolClaudeSyntax", `{"version":1,"rules":[{"tool":"Bash(*)","effect":"deny"}]}`, "not a tool name glob"},
		{"IDEmpty", `{"version":1,"rules":[{"id":"","effect":"deny"}]}`, "id: must be"},
		{"IDNumber", `{"version":1,"rules":[{"id":1,"effect":"deny"}]}`, "id: must be"},
		{"IDControl", `{"version":1,"rules":[{"id":"a\nb","effect":"deny"}]}`, "id: must be"},
		{"DescriptionNumber", `{"version":1,"rules":[{"description":1,"effect":"deny"}]}`, "description: must be"},
		{"WhenNotObject", `{"version":1,"rules":[{"when":[],"effect":"deny"}]}`, "when: must be an object"},
		{"EmptyConditionKey", `{"version":1,"rules":[{"when":{"":{"equals":1}},"effect":"deny"}]}`, "dot path"},
		{"BadDotPath", `{"version":1,"rules":[{"when":{"a..b":{"equals":1}},"effect":"deny"}]}`, "dot path"},
		{"InNotList", `{"version":1,"rules":[{"when":{"a":{"in":"x"}},"effect":"deny"}]}`, "must be a list"},
		{"GlobNotString", `{"version":1,"rules":[{"when":{"a":{"glob":1}},"effect":"deny"}]}`, "must be a string"},
		{"BadRegex", `{"version":1,"rules":[{"when":{"a":{"regex":"(?=x)"}},"effect":"deny"}]}`, "invalid regex"},
		{"NegatedGlob", `{"version":1,"rules":[{"when":{"a":{"glob":"!x"}},"effect":"deny"}]}`, "negated"},
		{"NotOfNothing", `{"version":1,"rules":[{"when":{"a":{"not":{}}},"effect":"deny"}]}`, "exactly one"},
		{"DeepNot", `{"version":1,"rules":[{"when":{"a":` + strings.Repeat(`{"not":`, 40) + `{"equals":1}` + strings.Repeat(`}`, 40) + `},"effect":"deny"}]}`, "nest"},
		{"DeepJSON", `{"version":1,"x":` + strings.Repeat(`[`, 100) + strings.Repeat(`]`, 100) + `}`, "nesting deeper than 64 levels"},
		{"TooLarge", `{"version":1,"rules":[],"x":"` + strings.Repeat("a", permission.MaxRuleFileSize) + `"}`, "larger than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := permission.DecodeRules([]byte(tt.doc))
			var ce *permission.ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is not a *ConfigError", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestDecodeErrorsNeverQuoteValues(t *testing.T) {
	t.Parallel()
	const secret = "sk-live-0123456789abcdef"
	for _, doc := range []string{
		`{"version":1,"rules":[{"effect":"` + secret + `"}]}`,
		`{"version":1,"rules":[{"when":{"a":{"regex":"(` + secret + `"}},"effect":"deny"}]}`,
		`{"version":1,"rules":[{"when":{"a":{"glob":"!` + secret + `"}},"effect":"deny"}]}`,
		`{"version":"` + secret + `"}`,
		`{"version":1,"rules":[{"id":"` + secret + "\n" + `","effect":"deny"}]}`,
		`{"version":1,"rules":[{"effect":"deny"}]} "` + secret + `"`,
		`{"version":1,"rules":[` + secret + `]}`,
	} {
		_, err := permission.DecodeRules([]byte(doc))
		if err == nil {
			t.Fatalf("%s: accepted", doc)
		}
		if strings.Contains(err.Error(), "0123456789") {
			t.Errorf("error quotes the value: %v", err)
		}
	}
}

func TestEncodeRulesRoundTrips(t *testing.T) {
	t.Parallel()
	rules := []permission.Rule{
		permission.BashCommand("git push:*", ask),
		permission.FilePath("secrets/**", deny),
		{ID: "x", Tool: []string{"mcp__*"}, When: map[string]permission.Condition{"a.b": permission.Not(permission.In(1, "x"))}, Effect: allow},
	}
	b, err := permission.EncodeRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	back, err := permission.DecodeRules(b)
	if err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	again, err := permission.EncodeRules(back)
	if err != nil || string(again) != string(b) {
		t.Errorf("second encoding differs:\n%s\n%s", b, again)
	}
	if _, err := permission.EncodeRules([]permission.Rule{{}}); err == nil {
		t.Error("a rule without an effect was encoded")
	}
}
