package sandbox_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/sandbox"
	"github.com/lite-agent/lite-agent-go/sandbox/sandboxtest"
)

// macOS's keychains in the user's home and podman's and buildah's
// registry logins in the runtime directory ($XDG_RUNTIME_DIR/containers/
// auth.json) are hidden in a project's sandbox (gate66); the files beside
// them stay readable.
func TestKeychainsAndRuntimeLoginsAreHidden(t *testing.T) {
	paths, home := project(t)
	runtime := hostDir(t)
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	secrets := []string{filepath.Join(home, "Library/Keychains/login.keychain-db"), filepath.Join(runtime, "containers/auth.json")}
	visible := []string{filepath.Join(home, "Library/Preferences/x.plist"), filepath.Join(runtime, "containers/x.conf")}
	for _, s := range secrets {
		writeFile(t, s, "SECRET")
	}
	for _, s := range visible {
		writeFile(t, s, "visible")
	}
	opts := sandbox.ProjectOptions(paths, home)
	sb := sandboxtest.Bubblewrap(t, opts)
	for _, s := range secrets {
		if out, err := run(t, sb, home, "cat '"+s+"'"); err == nil || strings.Contains(out, "SECRET") {
			t.Errorf("%s is readable in the sandbox: %q", s, out)
		}
	}
	for _, s := range visible {
		if out := mustRun(t, sb, home, "cat '"+s+"'"); strings.TrimSpace(out) != "visible" {
			t.Errorf("%s is not readable in the sandbox: %q", s, out)
		}
	}
}
