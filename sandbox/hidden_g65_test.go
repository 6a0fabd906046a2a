package sandbox_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/sandbox"
	"github.com/lite-agent/lite-agent-go/sandbox/sandboxtest"
)

// The credential stores the list gained in gate65 (database clients'
// passwords, registry tokens, password stores, browser profiles, cloud
// tools' keys) are hidden in a project's sandbox too, and files beside
// them that programs need (~/.m2/settings.xml, ~/.config/git/config) stay
// readable.
func TestMoreCredentialStoresAreHidden(t *testing.T) {
	paths, home := project(t)
	secrets := []string{".pgpass", ".my.cnf", ".npmrc", ".gem/credentials", ".password-store/x.gpg",
		".mozilla/firefox/p/cookies.sqlite", ".config/rclone/rclone.conf", ".s3cfg", ".config/containers/auth.json",
		".config/git/credentials", ".oci/config"}
	for _, s := range secrets {
		writeFile(t, filepath.Join(home, s), "SECRET")
	}
	visible := []string{".m2/settings.xml", ".config/git/config", ".config/containers/registries.conf"}
	for _, s := range visible {
		writeFile(t, filepath.Join(home, s), "visible")
	}
	opts := sandbox.ProjectOptions(paths, home)
	opts.Writable = []string{home}
	sb := sandboxtest.Bubblewrap(t, opts)
	for _, s := range secrets {
		if out, err := run(t, sb, home, "cat '"+s+"'"); err == nil || strings.Contains(out, "SECRET") {
			t.Errorf("%s is readable in the sandbox: %q", s, out)
		}
	}
	for _, s := range visible {
		if out := mustRun(t, sb, home, "cat "+s); strings.TrimSpace(out) != "visible" {
			t.Errorf("%s is not readable in the sandbox: %q", s, out)
		}
	}
}
