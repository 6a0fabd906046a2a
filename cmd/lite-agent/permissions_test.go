package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
