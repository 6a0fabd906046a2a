package permission_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// One gate decides each line against the file system as it is then: what
// a line's checks look up once (a path resolved through its links, which
// words name a secret) is not carried to the next line, so a link the
// project re-points between two calls is followed where it leads now.
func TestGateLooksUpEachLineAfresh(t *testing.T) {
	home, wd := secretHome(t)
	// Without the project's link to ~/.ssh, names a command prints are
	// the project's own (see TestCanaryLinkedWhole).
	if err := os.Remove(filepath.Join(wd, "keys")); err != nil {
		t.Fatal(err)
	}
	decide := secretDecider(t, home, wd)
	if err := os.MkdirAll(filepath.Join(wd, "doc"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeSecretFiles(t, "x\n", filepath.Join(wd, "doc", "id_rsa"), filepath.Join(wd, "doc", "notes"), filepath.Join(home, ".ssh", "notes"))
	point := func(link, to string) {
		t.Helper()
		p := filepath.Join(wd, link)
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err := os.Symlink(to, p); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		link, to, line string
		want           permission.Decision
	}{
		{"n", "doc/notes", "cat n", permission.Allow},
		{"n", "../.ssh/id_rsa", "cat n", permission.Ask},
		{"n", "doc/notes", "cat n", permission.Allow},
		{"d", "doc", "cat d/id_rsa", permission.Allow},
		{"d", "../.ssh", "cat d/id_rsa", permission.Ask},
		{"d", "doc", "cat d/id_rsa", permission.Allow},
		{"d", "../.ssh", "cat $(date +d/notes)", permission.Ask},
		{"d", "doc", "cat $(date +d/notes)", permission.Allow},
		// The project's links, walked for names a command lists.
		{"k", "doc/notes", "ls | xargs cat", permission.Allow},
		{"k", "../.ssh/id_rsa", "ls | xargs cat", permission.Ask},
		{"k", "doc/notes", "ls | xargs cat", permission.Allow},
	}
	for i, s := range steps {
		point(s.link, s.to)
		if v := decide(s.line); v.Decision != s.want {
			t.Errorf("step %d: %s with %s -> %s: got %v (%s), want %v", i, s.line, s.link, s.to, v.Decision, v.Reason, s.want)
		}
	}
}
