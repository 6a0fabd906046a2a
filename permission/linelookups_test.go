package permission_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// A repointStep points link (relative to the workdir) to to, then wants
// line decided so.
type repointStep struct {
	link, to, line string
	want           permission.Decision
}

// checkRepointed takes steps in turn with one gate's decide, in the
// workdir wd.
func checkRepointed(t *testing.T, wd string, decide func(string) permission.Verdict, steps []repointStep) {
	t.Helper()
	for i, s := range steps {
		p := filepath.Join(wd, s.link)
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err := os.Symlink(s.to, p); err != nil {
			t.Fatal(err)
		}
		if v := decide(s.line); v.Decision != s.want {
			t.Errorf("step %d: %s with %s -> %s: got %v (%s), want %v", i, s.line, s.link, s.to, v.Decision, v.Reason, s.want)
		}
	}
}

// unkeyedSecretHome is secretHome without the project's link to ~/.ssh:
// names a command prints are then the project's own (see
// TestCanaryLinkedWhole).
func unkeyedSecretHome(t *testing.T) (home, wd string) {
	t.Helper()
	home, wd = secretHome(t)
	if err := os.Remove(filepath.Join(wd, "keys")); err != nil {
		t.Fatal(err)
	}
	return home, wd
}

// One gate decides each line against the file system as it is then: what
// a line's checks look up once (a path resolved through its links, which
// words name a secret, the project's links) is not carried to the next
// line, so a link the project re-points between two calls is followed
// where it leads now.
func TestGateLooksUpEachLineAfresh(t *testing.T) {
	home, wd := unkeyedSecretHome(t)
	writeSecretFiles(t, "x\n", filepath.Join(wd, "doc", "id_rsa"), filepath.Join(wd, "doc", "notes"), filepath.Join(home, ".ssh", "notes"))
	checkRepointed(t, wd, secretDecider(t, home, wd), []repointStep{
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
	})
}

// The same for each line's writes against the protected paths, and its
// reads through the links of a tree: the protected paths and the secret
// locations a walk of links resolves once a line are resolved again for
// the next.
func TestGateLooksUpProtectedAndLinkedAfresh(t *testing.T) {
	home, wd := unkeyedSecretHome(t)
	writeSecretFiles(t, "x\n", filepath.Join(wd, "doc", "notes"), filepath.Join(wd, "tree", "f"))
	checkRepointed(t, wd, secretDecider(t, home, wd) /* protects ~/.lite-agent */, []repointStep{
		{"d", "doc", "echo x > d/f", permission.Allow},
		{"d", "../.lite-agent", "echo x > d/f", permission.Deny},
		{"d", "doc", "echo x > d/f", permission.Allow},
		{"d", "../.lite-agent/projects", "rm -r d/0123456789abcdef", permission.Deny},
		{"d", "doc", "rm -r d/0123456789abcdef", permission.Allow},
		{"tree/l", "../doc", "grep -R x tree", permission.Allow},
		{"tree/l", "../../.ssh", "grep -R x tree", permission.Ask},
		{"tree/l", "../doc", "grep -R x tree", permission.Allow},
	})
}
