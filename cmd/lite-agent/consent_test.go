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

// TestHintForAProjectHookNamesNoFlag checks the hint after a hook was
// denied for want of a terminal (round 133): for a hook of the project
// directory it said "pass --allow hook", which grants only the user's own
// hooks, so the hook stayed denied. It now names the rule to add; for the
// user's own hook it still names the flag.
func TestHintForAProjectHookNamesNoFlag(t *testing.T) {
	isolateEnv(t)
	srv := &anthropicServer{replies: []string{textReply("one"), textReply("two")}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	t.Setenv("ANTHROPIC_BASE_URL", ts.URL)
	for _, tc := range []struct {
		name, dir, want, notWant string
	}{
		{"project", ".lite-agent", "--allow hook covers only your own, so to allow it add {", "pass --allow hook"},
		{"user", "", "to allow it, pass --allow hook, or add {", "covers only your own"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home, work := t.TempDir(), t.TempDir()
			dir := home
			if tc.dir != "" {
				dir = filepath.Join(work, tc.dir)
			}
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			marker := filepath.Join(work, "ran")
			data := `{"version": 1, "hooks": {"run:start": [{"command": ` + mustJSON("touch '"+marker+"'") + `}]}}`
			if err := os.WriteFile(filepath.Join(dir, "hooks.json"), []byte(data), 0o600); err != nil {
				t.Fatal(err)
			}
			r := runCLI(t, "--home", home, "--workdir", work, "run", "hello")
			if r.code != 0 {
				t.Fatalf("run: %d %s", r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, "hint: hook") || !strings.Contains(r.stderr, tc.want) || strings.Contains(r.stderr, tc.notWant) {
				t.Errorf("stderr %q, want a hint with %q and without %q", r.stderr, tc.want, tc.notWant)
			}
			if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
				t.Error("the hook ran without approval")
			}
		})
	}
}
