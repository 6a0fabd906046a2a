package main

import (
	"encoding/json"
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
