package permission_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// One gate decides each line's writes against the protected paths, and
// each line's reads through the links of a tree, as the file system is
// then: the protected paths and the secret locations a walk of links
// resolves once a line are resolved again for the next, so a link the
// project re-points between two calls is followed where it leads now.
func TestGateLooksUpProtectedAndLinkedAfresh(t *testing.T) {
	home, wd := secretHome(t)
	if err := os.Remove(filepath.Join(wd, "keys")); err != nil {
		t.Fatal(err)
	}
	decide := secretDecider(t, home, wd) // protects ~/.lite-agent
	writeSecretFiles(t, "x\n", filepath.Join(wd, "doc", "notes"), filepath.Join(wd, "tree", "f"))
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
		{"d", "doc", "echo x > d/f", permission.Allow},
		{"d", "../.lite-agent", "echo x > d/f", permission.Deny},
		{"d", "doc", "echo x > d/f", permission.Allow},
		{"d", "../.lite-agent/projects", "rm -r d/0123456789abcdef", permission.Deny},
		{"d", "doc", "rm -r d/0123456789abcdef", permission.Allow},
		{"tree/l", "../doc", "grep -R x tree", permission.Allow},
		{"tree/l", "../../.ssh", "grep -R x tree", permission.Ask},
		{"tree/l", "../doc", "grep -R x tree", permission.Allow},
	}
	for i, s := range steps {
		point(s.link, s.to)
		if v := decide(s.line); v.Decision != s.want {
			t.Errorf("step %d: %s with %s -> %s: got %v (%s), want %v", i, s.line, s.link, s.to, v.Decision, v.Reason, s.want)
		}
	}
}
