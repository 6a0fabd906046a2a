package permission_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// TestGateRefusesCaseFoldedKeys sends calls whose input has two keys that
// differ as the policy reads them (it matches "path" exactly) but are one
// key to Go's encoding/json, which matches a struct field's name ignoring
// case and folding K (U+212A) to k and ſ (U+017F) to s: a custom tool or an
// MCP server written in Go that decodes its input into a struct reads the
// last of them, the path the deny rule names, while the policy saw the
// allowed one. The test first checks that Go reads them so, then that the
// gate allows none of them.
func TestGateRefusesCaseFoldedKeys(t *testing.T) {
	policy, err := permission.New(permission.Options{
		Rules: []permission.Rule{{
			ID: "no-secret", Tool: []string{"mcp__docs__read"}, Effect: permission.Deny,
			When: map[string]permission.Condition{"path": permission.Glob("/srv/secret/**")},
		}, {
			ID: "no-secret-source", Tool: []string{"mcp__docs__copy"}, Effect: permission.Deny,
			When: map[string]permission.Condition{"source": permission.Glob("/srv/secret/**")},
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
		{"Upper", "mcp__docs__read", `{"path":"/srv/ok","PATH":"/srv/secret/key"}`},
		{"Mixed", "mcp__docs__read", `{"path":"/srv/ok","opts":{},"pAth":"/srv/secret/key"}`},
		{"LongS", "mcp__docs__copy", `{"source":"/srv/ok","\u017fource":"/srv/secret/key"}`},
		{"Nested", "mcp__docs__read", `{"path":"/srv/ok","opts":{"mode":"a","MODE":"b"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name != "Nested" {
				var in struct {
					Path   string `json:"path"`
					Source string `json:"source"`
				}
				if err := json.Unmarshal([]byte(tc.input), &in); err != nil {
					t.Fatal(err)
				}
				if in.Path != "/srv/secret/key" && in.Source != "/srv/secret/key" {
					t.Fatalf("Go read %+v from %s, not the secret path", in, tc.input)
				}
			}
			v, err := g.Decide(context.Background(), permission.Call{Name: tc.tool, Input: json.RawMessage(tc.input)})
			if err != nil {
				t.Fatal(err)
			}
			if v.Decision == permission.Allow {
				t.Errorf("%s %s: allowed (rule %q, %s); want the ambiguous input refused", tc.tool, tc.input, v.RuleID, v.Reason)
			}
		})
	}
	// Keys that Go does not fold together are decided by the rules.
	for input, want := range map[string]permission.Decision{
		`{"path":"/srv/ok","paths":["/srv/x"],"path_2":"y"}`:              permission.Allow,
		`{"path":"/srv/ok","opts":{"path":"/srv/x"}}`:                     permission.Allow,
		`{"path":"/srv/secret/key"}`:                                      permission.Deny,
		`{"path":"/srv/ok","note":"\ud83d\ude00 \u0000 1e400","n":1e400}`: permission.Allow,
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
