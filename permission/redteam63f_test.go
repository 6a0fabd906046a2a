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
	t.Parallel()
	g := secretRuleGate(t)
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
			refusesAmbiguous(t, g, tc.tool, tc.input)
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

// secretRuleGate returns a gate that allows every call but those of
// mcp__docs__read and read_file whose "path", and of mcp__docs__copy whose
// "source", is below /srv/secret.
func secretRuleGate(t *testing.T) *permission.Gate {
	t.Helper()
	policy, err := permission.New(permission.Options{
		Rules: []permission.Rule{{
			ID: "no-secret", Tool: []string{"mcp__docs__read", "read_file"}, Effect: permission.Deny,
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
	return permission.NewGate(permission.GateOptions{Policy: policy})
}

// TestGateRefusesCaseFoldedKeys sends calls whose input has two keys that
// differ as the policy reads them (it matches "path" exactly) but are one
// key to Go's encoding/json, which matches a struct field's name ignoring
// case and folding K (U+212A) to k and ſ (U+017F) to s: a custom tool or an
// MCP server written in Go that decodes its input into a struct reads the
// last of them, the path the deny rule names, while the policy saw the
// allowed one. The test first checks that Go reads them so, then that the
// gate allows none of them.
func TestGateRefusesCaseFoldedKeys(t *testing.T) {
	t.Parallel()
	g := secretRuleGate(t)
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
			refusesAmbiguous(t, g, tc.tool, tc.input)
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

// refusesAmbiguous checks that g does not allow a call of tool with input.
func refusesAmbiguous(t *testing.T, g *permission.Gate, tool, input string) {
	t.Helper()
	v, err := g.Decide(context.Background(), permission.Call{Name: tool, Input: json.RawMessage(input)})
	if err != nil {
		t.Fatal(err)
	}
	if v.Decision == permission.Allow {
		t.Errorf("%s %s: allowed (rule %q, %s); want the ambiguous input refused", tool, input, v.RuleID, v.Reason)
	}
}
