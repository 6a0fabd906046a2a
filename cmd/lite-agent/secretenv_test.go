package main

import (
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// TestKeyEnvTellsTheGate checks that the variable --key-env names, which
// holds the store's key under a name of the user's choice, is one the
// gate asks before a bash line prints (echo $MY_STORE), while without
// --key-env the name means nothing to it.
func TestKeyEnvTellsTheGate(t *testing.T) {
	isolateEnv(t)
	home, work := t.TempDir(), t.TempDir()
	t.Setenv("MY_STORE", strings.Repeat("ab", 32))
	check := func(keyFlags ...string) checkResult {
		t.Helper()
		args := append([]string{"--home", home, "--workdir", work}, keyFlags...)
		args = append(args, "permissions", "check", "--json", "bash", `{"command":"echo $MY_STORE"}`, "--allow", "bash")
		r := runCLI(t, args...)
		var got checkResult
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != 0 {
			t.Fatalf("code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
		}
		return got
	}
	if got := check("--codec", codecXChaCha, "--key-env", "MY_STORE"); got.Decision != "ask" || got.RuleID != permission.RuleBashSecretRead {
		t.Errorf("with --key-env MY_STORE: %s (rule %s, %s), want an ask of %s", got.Decision, got.RuleID, got.Reason, permission.RuleBashSecretRead)
	}
	if got := check(); got.Decision != "allow" {
		t.Errorf("without --key-env: %s (rule %s, %s), want allow", got.Decision, got.RuleID, got.Reason)
	}
}

// TestAuditKeyEnvTellsTheGate runs a model that calls bash to print the
// variable --audit-key-env names, with bash allowed: the gate asks, which
// a run without a terminal denies, so the key reaches neither the model
// nor the output; a variable the flags do not name is printed.
func TestAuditKeyEnvTellsTheGate(t *testing.T) {
	isolateEnv(t)
	key := strings.Repeat("cd", 32)
	t.Setenv("LOG_HMAC", key) // a name no rule on names knows
	t.Setenv("OTHER_VALUE", "other-"+key[:8])
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	for _, tc := range []struct {
		variable, value string
		printed         bool
	}{{"LOG_HMAC", key, false}, {"OTHER_VALUE", "other-" + key[:8], true}} {
		srv := &anthropicServer{replies: []string{
			toolReply("toolu_1", "bash", `{"command":"echo $`+tc.variable+`"}`),
			textReply("Done."),
		}}
		ts := httptest.NewServer(srv)
		t.Setenv("ANTHROPIC_BASE_URL", ts.URL)
		log := filepath.Join(t.TempDir(), "audit.jsonl")
		r := runCLI(t, "--home", t.TempDir(), "--workdir", t.TempDir(), "run", "--allow", "bash",
			"--audit-log", log, "--audit-key-env", "LOG_HMAC", "print it")
		ts.Close()
		if r.code != 0 {
			t.Fatalf("%s: run: %d %s", tc.variable, r.code, r.stderr)
		}
		srv.mu.Lock()
		sent, _ := json.Marshal(srv.bodies)
		srv.mu.Unlock()
		if got := strings.Contains(string(sent)+r.stdout+r.stderr, tc.value); got != tc.printed {
			t.Errorf("echo $%s: value printed %v, want %v (stderr %q)", tc.variable, got, tc.printed, r.stderr)
		}
	}
}
