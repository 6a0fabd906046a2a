package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

func TestPermissionsCheckNamesTheDecidingRule(t *testing.T) {
	isolateEnv(t)
	home, work := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(work, ".acme"), 0o755)
	os.WriteFile(filepath.Join(work, ".acme", "permissions.json"), []byte(`{"version":1,"rules":[{"id":"no-push","tool":"bash","when":{"command":{"startsWith":"git push"}},"effect":"deny"},{"tool":"bash","effect":"allow"}]}`), 0o644)
	base := []string{"--home", home, "--workdir", work, "--namespace", "acme", "permissions", "check"}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"bash", `{"command":"git push origin main"}`}, "deny (layer project, rule project:no-push)"},
		{[]string{"bash", `{"command":"ls && git push"}`}, "deny (layer project, rule project:no-push)"},
		{[]string{"bash", `{"command":"ls"}`}, "ask"},
		{[]string{"bash", `{"command":"ls"}`, "--allow", "bash"}, "allow"},
		{[]string{"bash", `{"command":"echo x > .acm?/permissions.jso?"}`, "--allow", "bash"}, "deny (layer self-protection, rule bash-protected)"},
		{[]string{"bash", `{"command":"x='a[$(id)]'; echo $((x))"}`, "--allow", "bash"}, "ask: the command cannot be fully analyzed"},
		{[]string{"read_file", `{"path":"README.md"}`}, "allow"},
		{[]string{"write_file", `{"path":"a.txt","content":""}`, "--deny", "write_file"}, "deny"},
	}
	for _, tt := range tests {
		r := runCLI(t, append(base, tt.args...)...)
		if r.code != 0 || !strings.HasPrefix(r.stdout, tt.want) {
			t.Errorf("%v: code %d stdout %q stderr %q, want %q", tt.args, r.code, r.stdout, r.stderr, tt.want)
		}
	}
	if r := runCLI(t, append(base, "bash", "{not json")...); r.code != 2 {
		t.Errorf("bad input JSON: code %d", r.code)
	}
}

// The CLI's policy decides in layers: --deny, then file rules that
// restrict, then host file rules that allow, then --allow, then the
// default asks; a project file only restricts.
func TestPermissionLayersDecideInOrder(t *testing.T) {
	isolateEnv(t)
	home, work := t.TempDir(), t.TempDir()
	write := func(path, rules string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(`{"version":1,"rules":[`+rules+`]}`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, "permissions.json"),
		`{"id":"status","tool":"bash","when":{"command":{"equals":"git status"}},"effect":"allow"},`+
			`{"id":"tests","tool":"bash","when":{"command":{"startsWith":"go test"}},"effect":"allow"},`+
			`{"id":"push","tool":"bash","when":{"command":{"startsWith":"git push"}},"effect":"ask"},`+
			`{"id":"env","tool":"read_file","when":{"path":{"glob":"**/.env"}},"effect":"deny"}`)
	// The gate asks about git in a workdir without .git, whose
	// configuration nobody protects.
	if err := os.MkdirAll(filepath.Join(work, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(work, ".lite-agent", "permissions.json"),
		`{"id":"no-tests","tool":"bash","when":{"command":{"startsWith":"go test ./secret"}},"effect":"deny"},`+
			`{"id":"rm","tool":"bash","when":{"command":{"startsWith":"rm"}},"effect":"allow"}`)
	base := []string{"--home", home, "--workdir", work, "permissions", "check", "--json"}
	tests := []struct {
		name   string
		args   []string
		want   string // decision
		layer  string
		ruleID string
	}{
		{"a user allow pre-approves", []string{"bash", `{"command":"git status"}`}, "allow", "user", "user:status"},
		{"every part allowed", []string{"bash", `{"command":"git status && go test ./..."}`}, "allow", "user", "user:status"},
		{"a part no rule allows falls to the default ask", []string{"bash", `{"command":"git status && curl example.com"}`}, "ask", "cli-default", "cli-default:bash"},
		{"--allow decides where no rule matches", []string{"bash", `{"command":"curl example.com"}`, "--allow", "bash"}, "allow", "flags", "--allow bash"},
		{"--allow does not beat a user ask", []string{"bash", `{"command":"git push"}`, "--allow", "bash"}, "ask", "user", "user:push"},
		{"--deny beats a user allow", []string{"bash", `{"command":"git status"}`, "--deny", "bash"}, "deny", "flags", "--deny bash"},
		{"a project deny beats a user allow", []string{"bash", `{"command":"go test ./secret"}`}, "deny", "project", "project:no-tests"},
		{"a project allow grants nothing", []string{"bash", `{"command":"rm -r build"}`}, "ask", "cli-default", "cli-default:bash"},
		{"a user deny beats --allow", []string{"read_file", `{"path":"app/.env"}`, "--allow", "read_file"}, "deny", "user", "user:env"},
		{"unlisted tools are allowed", []string{"read_file", `{"path":"main.go"}`}, "allow", "default", ""},
		{"the default asks about writes", []string{"write_file", `{"path":"a.txt","content":""}`}, "ask", "cli-default", "cli-default:write_file"},
		{"--allow of one MCP tool beats the mcp__* ask", []string{"mcp__gh__list", `{}`, "--allow", "mcp__gh__list"}, "allow", "flags", "--allow mcp__gh__list"},
		{"the files guard themselves", []string{"write_file", `{"path":".lite-agent/permissions.json","content":""}`, "--allow", "write_file"}, "deny", "self-protection", "self-protection"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, append(base, tt.args...)...)
			var got checkResult
			if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != 0 {
				t.Fatalf("code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
			}
			if got.Decision != tt.want || got.Layer != tt.layer || got.RuleID != tt.ruleID {
				t.Errorf("got %s (layer %s, rule %s), want %s (layer %s, rule %s)", got.Decision, got.Layer, got.RuleID, tt.want, tt.layer, tt.ruleID)
			}
		})
	}
	// The text form names the layer and the rule of every decision.
	r := runCLI(t, "--home", home, "--workdir", work, "permissions", "check", "read_file", `{"path":"main.go"}`)
	if r.stdout != "allow (layer default, rule -)\n" {
		t.Errorf("text: %q", r.stdout)
	}
}

// An "a" answer allows exactly the call's input, whatever its key order
// or spacing, and is echoed as a rule a permissions.json file accepts.
func TestCallPatternIsTheExactInput(t *testing.T) {
	call := func(name, input string) permission.Call {
		return permission.Call{Name: name, Input: json.RawMessage(input)}
	}
	tests := []struct {
		name string
		a, b permission.Call
		same bool
	}{
		{"key order and spacing", call("bash", `{"command":"ls","timeout":5}`), call("bash", `{ "timeout": 5, "command": "ls" }`), true},
		{"another command", call("bash", `{"command":"ls"}`), call("bash", `{"command":"ls -la"}`), false},
		{"another tool", call("write_file", `{"path":"a"}`), call("edit_file", `{"path":"a"}`), false},
		{"an extra field", call("bash", `{"command":"ls"}`), call("bash", `{"command":"ls","background":true}`), false},
		{"empty input", call("mcp__x__y", ``), call("mcp__x__y", `{}`), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ka, rule := callPattern(tt.a)
			kb, _ := callPattern(tt.b)
			if (ka == kb) != tt.same {
				t.Errorf("same pattern = %v, want %v", ka == kb, tt.same)
			}
			rules, err := permission.DecodeRules([]byte(`{"version":1,"rules":[` + rule + `]}`))
			if err != nil || len(rules) != 1 || rules[0].Effect != permission.Allow {
				t.Errorf("rule %s: %v", rule, err)
			}
		})
	}
}

// TestGitControlFilesAreProtected: .git/commondir points git at another
// repository's config (whose core.fsmonitor runs on the next git status),
// and config.worktree adds to it; a bash line that writes either is denied
// as a protected path, even under --allow bash, and whatever the approver
// would say.
func TestGitControlFilesAreProtected(t *testing.T) {
	isolateEnv(t)
	home, work := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(work, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"echo /evil > .git/commondir",
		"echo x >> .git/config.worktree",
		"printf '%s' /evil | tee .git/common?ir",
		"echo /evil > sub/../.git/commondir",
	} {
		input, _ := json.Marshal(map[string]string{"command": line})
		r := runCLI(t, "--home", home, "--workdir", work, "permissions", "check", "bash", string(input), "--allow", "bash")
		if !strings.HasPrefix(r.stdout, "deny ") || !strings.Contains(r.stdout, "bash-protected") {
			t.Errorf("%q: %q", line, r.stdout)
		}
	}
}
