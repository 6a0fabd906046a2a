package main

import (
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// markerServer returns an mcps.json naming one stdio server, "probe", whose
// command creates marker and exits, so a test can see whether it ran.
func markerServer(marker string) string {
	return `{"mcpServers": {"probe": {"command": "/bin/sh", "args": ["-c", "touch \"$1\"; exit 1", "sh", ` + mustJSON(marker) + `]}}}`
}

func TestMCPListConnectGoesThroughThePolicyOfARun(t *testing.T) {
	for _, tc := range []struct {
		name            string
		project, global string // where the server is configured
		userRules       string // <home>/permissions.json; "" writes none
		runs            bool
		stderr          string
	}{
		{name: "user server connects", global: "probe", runs: true, stderr: "could not connect to probe"},
		{name: "project server is asked about, and denied without a terminal", project: "probe", stderr: "could not connect to probe"},
		{name: "user deny rule wins", global: "probe", userRules: `{"version": 1, "rules": [{"id": "no-mcp", "tool": "mcp_connect", "effect": "deny"}]}`, stderr: "could not connect to probe"},
		{name: "user deny rule on the source wins", global: "probe", userRules: `{"version": 1, "rules": [{"tool": "mcp_connect", "when": {"source": {"equals": "user"}}, "effect": "deny"}]}`, stderr: "could not connect to probe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			marker := filepath.Join(t.TempDir(), "ran")
			var project, global string
			if tc.project != "" {
				project = markerServer(marker)
			}
			if tc.global != "" {
				global = markerServer(marker)
			}
			workdir, home := mcpProject(t, project, global)
			if tc.userRules != "" {
				if err := os.WriteFile(filepath.Join(home, "permissions.json"), []byte(tc.userRules), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			res := runCLI(t, "--workdir", workdir, "--home", home, "mcp", "list", "--connect")
			_, err := os.Stat(marker)
			if ran := err == nil; ran != tc.runs {
				t.Errorf("server ran = %v, want %v", ran, tc.runs)
			}
			if res.code != 1 || !strings.Contains(res.stderr, tc.stderr) {
				t.Errorf("exit %d, stderr %q; want 1 and %q", res.code, res.stderr, tc.stderr)
			}
			if !tc.runs && !strings.Contains(res.stdout, "connection denied") {
				t.Errorf("listing does not say the connection was denied:\n%s", res.stdout)
			}
		})
	}
}

// --allow hook means the user's own hooks: a hook that the project
// directory configures is still asked about (and denied without a
// terminal), so a cloned repository's hooks.json runs nothing.
func TestAllowHookMeansTheUsersOwnHooks(t *testing.T) {
	isolateEnv(t)
	srv := &anthropicServer{replies: []string{textReply("one"), textReply("two")}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	t.Setenv("ANTHROPIC_BASE_URL", ts.URL)
	// The markers are in the workdir, which a sandboxed hook may write.
	home, work := t.TempDir(), t.TempDir()
	mine, theirs := filepath.Join(work, "mine"), filepath.Join(work, "theirs")
	writeHooks := func(path, marker string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		data := `{"version": 1, "hooks": {"run:start": [{"command": ` + mustJSON("touch '"+marker+"'") + `}]}}`
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	writeHooks(filepath.Join(home, "hooks.json"), mine)
	writeHooks(filepath.Join(work, ".lite-agent", "hooks.json"), theirs)

	r := runCLI(t, "--home", home, "--workdir", work, "run", "--allow", "hook", "hello")
	if r.code != 0 {
		t.Fatalf("run: %d %s", r.code, r.stderr)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("the user's own hook did not run: %v", err)
	}
	if _, err := os.Stat(theirs); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the project's hook ran under --allow hook")
	}

	// --deny hook still wins over --allow hook.
	os.Remove(mine)
	r = runCLI(t, "--home", home, "--workdir", work, "run", "--allow", "hook", "--deny", "hook", "hello")
	if r.code != 0 {
		t.Fatalf("run: %d %s", r.code, r.stderr)
	}
	if _, err := os.Stat(mine); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the user's hook ran under --deny hook")
	}
}

func TestOwnConfigOnlyFollowsTheAllowGlobs(t *testing.T) {
	for _, tc := range []struct {
		allow []string
		want  bool
	}{
		{nil, false},
		{[]string{"bash", "write_file"}, false},
		{[]string{"hook"}, true},
		{[]string{"mcp_connect"}, true},
		{[]string{"mcp_*"}, true},
		{[]string{"*"}, true},
		{[]string{"mcp__*"}, false},
	} {
		own, err := ownConfigOnly(tc.allow)
		if err != nil {
			t.Fatal(err)
		}
		if (own != nil) != tc.want {
			t.Errorf("ownConfigOnly(%q) = %v, want a policy: %v", tc.allow, own, tc.want)
		}
	}
}
