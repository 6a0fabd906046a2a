package permission_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

func TestOwnConfigAsksAboutWhatTheUserOrHostDidNotConfigure(t *testing.T) {
	t.Parallel()
	own := permission.OwnConfig("hook", "mcp_connect")
	flags, err := permission.New(permission.Options{Allow: []string{"hook", "mcp_connect"}, Ask: []string{"bash"}})
	if err != nil {
		t.Fatal(err)
	}
	denied, err := permission.New(permission.Options{Allow: []string{"mcp_connect"}, Deny: []string{"hook"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		p      permission.Policy
		call   permission.Call
		want   permission.Decision
		ruleID string
	}{
		{"user hook", own, call("hook", `{"command":"make","event":"run:start","source":"user"}`), allow, permission.OwnConfigRuleID},
		{"host hook", own, call("hook", `{"command":"make","event":"run:start","source":"host"}`), allow, permission.OwnConfigRuleID},
		{"project hook", own, call("hook", `{"command":"make","event":"run:start","source":"project"}`), ask, permission.OwnConfigRuleID},
		{"user server", own, call("mcp_connect", `{"server":"s","source":"user","type":"http"}`), allow, permission.OwnConfigRuleID},
		{"project server", own, call("mcp_connect", `{"server":"s","source":"project","type":"stdio"}`), ask, permission.OwnConfigRuleID},
		{"no source", own, call("hook", `{"command":"make"}`), ask, permission.OwnConfigRuleID},
		{"null source", own, call("hook", `{"source":null}`), ask, permission.OwnConfigRuleID},
		{"source not a string", own, call("hook", `{"source":["user"]}`), ask, permission.OwnConfigRuleID},
		{"other source", own, call("hook", `{"source":"global"}`), ask, permission.OwnConfigRuleID},
		{"no input", own, permission.Call{Name: "hook"}, ask, permission.OwnConfigRuleID},
		{"input not an object", own, call("hook", `"user"`), ask, permission.OwnConfigRuleID},
		{"other tool", own, call("bash", `{"command":"ls","source":"project"}`), allow, ""},
		{"case matters", own, call("Hook", `{"source":"project"}`), allow, ""},

		{"flags: user hook allowed", permission.Compose(flags, own), call("hook", `{"command":"x","source":"user"}`), allow, ""},
		{"flags: project hook asked", permission.Compose(flags, own), call("hook", `{"command":"x","source":"project"}`), ask, permission.OwnConfigRuleID},
		{"flags: project server asked", permission.Compose(flags, own), call("mcp_connect", `{"server":"s","source":"project"}`), ask, permission.OwnConfigRuleID},
		{"flags: bash still asked", permission.Compose(flags, own), call("bash", `{"command":"ls"}`), ask, ""},
		{"deny wins over own", permission.Compose(denied, own), call("hook", `{"command":"x","source":"user"}`), deny, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := tc.p.Check(t.Context(), tc.call)
			if err != nil {
				t.Fatal(err)
			}
			if v.Decision != tc.want || v.RuleID != tc.ruleID {
				t.Errorf("verdict %+v, want %s by %q", v, tc.want, tc.ruleID)
			}
		})
	}
}

// A rule file can tell the user's own hooks and servers from a
// repository's by the input's source.
func TestRulesMatchOnTheSourceOfHooksAndServers(t *testing.T) {
	t.Parallel()
	rules, err := permission.DecodeRules([]byte(`{"version": 1, "rules": [
		{"id": "mine", "tool": ["hook", "mcp_connect"], "when": {"source": {"in": ["user", "host"]}}, "effect": "allow"},
		{"id": "theirs", "tool": "mcp_connect", "when": {"source": {"equals": "project"}}, "effect": "deny"}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	p, err := permission.New(permission.Options{Rules: rules, Default: permission.Ask})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		call   permission.Call
		want   permission.Decision
		ruleID string
	}{
		{call("hook", `{"command":"make","event":"run:start","source":"user"}`), allow, "mine"},
		{call("hook", `{"command":"make","event":"run:start","source":"host"}`), allow, "mine"},
		{call("hook", `{"command":"make","event":"run:start","source":"project"}`), ask, ""},
		{call("mcp_connect", `{"server":"s","source":"user"}`), allow, "mine"},
		{call("mcp_connect", `{"server":"s","source":"project"}`), deny, "theirs"},
		{call("hook", `{"command":"make"}`), ask, ""},
	} {
		v, err := p.Check(t.Context(), tc.call)
		if err != nil {
			t.Fatal(err)
		}
		if v.Decision != tc.want || v.RuleID != tc.ruleID {
			t.Errorf("%s %s: verdict %+v, want %s by %q", tc.call.Name, tc.call.Input, v, tc.want, tc.ruleID)
		}
	}
}
