package permission_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// TestGateRefusesAmbiguousInput sends calls whose input JSON can be read
// two ways: a key given twice (plainly, escaped, nested) or bytes that are
// not UTF-8. The gate's policy reads the last of two duplicate keys, as Go
// does; an MCP server, a hook's script or a custom tool may read the first
// (RapidJSON, gjson, jsonparser, simdjson's on-demand API do) or refuse
// the bytes the gate replaced with U+FFFD, and so do what the rule that
// decided never saw. The deny rule names the first path; the gate must not
// allow any of these calls, whatever the policy says.
func TestGateRefusesAmbiguousInput(t *testing.T) {
	policy, err := permission.New(permission.Options{
		Rules: []permission.Rule{{
			ID: "no-secret", Tool: []string{"mcp__docs__read", "read_file"}, Effect: permission.Deny,
			When: map[string]permission.Condition{"path": permission.Glob("/srv/secret/**")},
		}},
		Allow:   []string{"*"},
		Workdir: "/srv",
		HomeDir: "/home/me",
	})
	if err != nil {
		t.Fatal(err)
	}
	g := permission.NewGate(permission.GateOptions{Policy: policy})
	for _, tc := range []struct{ name, tool, input string }{
		{"Duplicate", "mcp__docs__read", `{"path":"/srv/secret/key","path":"/srv/ok"}`},
		{"EscapedDuplicate", "mcp__docs__read", `{"path":"/srv/secret/key","pat\u0068":"/srv/ok"}`},
		{"NestedDuplicate", "mcp__docs__read", `{"opts":{"path":"/srv/secret/key","path":"/srv/ok"},"path":"/srv/ok"}`},
		{"DuplicateInArray", "mcp__docs__read", `{"path":"/srv/ok","files":[{"name":"/srv/secret/key","name":"x"}]}`},
		{"BuiltinDuplicate", "read_file", `{"path":"/srv/secret/key","path":"/srv/ok"}`},
		{"InvalidUTF8ThenDuplicate", "mcp__docs__read", "{\"note\":\"\xff\",\"path\":\"/srv/secret/key\",\"path\":\"/srv/ok\"}"},
		{"InvalidUTF8", "mcp__docs__read", "{\"path\":\"/srv/secret/\xffkey\"}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := g.Decide(context.Background(), permission.Call{Name: tc.tool, Input: json.RawMessage(tc.input)})
			if err != nil {
				t.Fatal(err)
			}
			if v.Decision == permission.Allow {
				t.Errorf("%s %s: allowed (rule %q, %s); want the ambiguous input refused", tc.tool, tc.input, v.RuleID, v.Reason)
			}
		})
	}
	// The same keys once each are decided by the rules as before.
	for input, want := range map[string]permission.Decision{
		`{"path":"/srv/ok"}`:                          permission.Allow,
		`{"path":"/srv/secret/key"}`:                  permission.Deny,
		`{"path":"/srv/ok","opts":{"path":"/srv/x"}}`: permission.Allow,
	} {
		v, err := g.Decide(context.Background(), permission.Call{Name: "mcp__docs__read", Input: json.RawMessage(input)})
		if err != nil {
			t.Fatal(err)
		}
		if v.Decision != want {
			t.Errorf("%s: %s, want %s", input, v.Decision, want)
		}
	}
}
