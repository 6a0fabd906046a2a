//go:build linux

package permission_test

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/permission"
)

// On a case-insensitive file system (macOS's default) GIT and /usr/bin/Git
// run git: the checks the gate makes of git's repository (a push to a
// repository on this machine runs its hooks) apply to them as to git.
func TestGitInAnyLetterCaseIsCheckedAsGit(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	root := canaryFixture(t, canaryTemplate(t))
	wd := filepath.Join(root, "work")
	for _, args := range [][]string{
		{"remote", "add", "origin", "https://example.com/x.git"},
		{"init", "-q", "--bare", "backup"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = wd
		cmd.Env = canaryEnv(filepath.Join(root, "home"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	g := canaryGate(t, root, canaryAllowBashRules)
	for line, want := range map[string]bool{
		"GIT push origin HEAD:x":           true,
		"GIT push backup HEAD:x":           false,
		"Git push ./backup HEAD:x":         false,
		"/usr/bin/GIT push backup HEAD:x":  false,
		"command gIt push backup HEAD:x":   false,
		"nice GIT push file:///tmp/x HEAD": false,
	} {
		if out := authorize(t, g, line); out.Run != want {
			t.Errorf("%q: run %v, want %v (%+v)", line, out.Run, want, out.Verdict)
		}
	}
}

// A case-insensitive APFS volume folds names by Unicode's full case
// folding: a line that writes .lite-agent/permißions.json or .git/conﬁg
// writes the protected file there, and is denied as one.
func TestProtectedPathsUnderFullCaseFolding(t *testing.T) {
	t.Parallel()
	root := canaryFixture(t, canaryTemplate(t))
	g := canaryGate(t, root, canaryAllowBashRules)
	for _, line := range []string{
		"echo '{}' > .lite-agent/permi\u00dfions.json", "cp README .git/con\ufb01g", "rm -rf .lite-agent/\u017fkills",
		"tee .git/hoo\u212as/pre-commit < README", "echo x > .LITE-AGENT/PERMI\u1e9eIONS.JSON",
	} {
		if out := authorize(t, g, line); out.Run || out.Verdict.RuleID != permission.RuleBashProtected {
			t.Errorf("%q: run %v (%+v), want denied as a protected path", line, out.Run, out.Verdict)
		}
	}
}

// A .git directory spelled with a code point HFS+ ignores, or with a
// folding APFS applies, is the .git directory there: writing inside it is
// opaque, as writing inside .git is.
func TestGitDirUnderFolding(t *testing.T) {
	t.Parallel()
	root := canaryFixture(t, canaryTemplate(t))
	g := canaryGate(t, root, canaryAllowBashRules)
	for _, line := range []string{
		"cp README .g\u200cit/description", "cp README .GI\u200dT/info/exclude", "cp README \ufeff.git/description",
	} {
		if out := authorize(t, g, line); out.Run {
			t.Errorf("%q runs (%+v)", line, out.Verdict)
		}
	}
}
