package permission_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// Reading macOS's keychains or podman's and buildah's registry logins in
// a runtime directory ($XDG_RUNTIME_DIR/containers/auth.json, the user's
// /run/user/<uid>/containers/auth.json) asks (gate66); files beside them
// stay readable.
func TestBashSecretReadsAskG66(t *testing.T) {
	home, wd := secretHome(t)
	runtime := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	writeSecretFiles(t, "{}\n", filepath.Join(home, "Library/Keychains/login.keychain-db"),
		filepath.Join(home, "Library/Preferences/x.plist"), filepath.Join(runtime, "containers/auth.json"),
		filepath.Join(runtime, "containers/x.sock"))
	decide := secretDecider(t, home, wd)
	for _, line := range []string{"cat ~/Library/Keychains/login.keychain-db", "tar czf x.tgz ~/Library/Keychains",
		"cp -r ~/Library/Keychains k", "cat " + filepath.Join(runtime, "containers/auth.json"),
		"base64 /run/user/" + strconv.Itoa(os.Getuid()) + "/containers/auth.json", "grep -r auth " + runtime} {
		if v := decide(line); v.Decision != permission.Ask || v.RuleID != permission.RuleBashSecretRead {
			t.Errorf("%q: %v %s (%s), want an ask of %s", line, v.Decision, v.RuleID, v.Reason, permission.RuleBashSecretRead)
		}
	}
	for _, line := range []string{"cat ~/Library/Preferences/x.plist", "ls " + filepath.Join(runtime, "containers")} {
		if v := decide(line); v.Decision != permission.Allow {
			t.Errorf("%q: %v %s (%s), want it allowed", line, v.Decision, v.RuleID, v.Reason)
		}
	}
}
