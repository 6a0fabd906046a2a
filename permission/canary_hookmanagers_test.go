//go:build linux

package permission_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// TestCanaryHookManagerFiles: in a repository laid out by husky (v9:
// core.hooksPath .husky/_, whose scripts run .husky/NAME), a line that
// writes .husky/pre-commit and then commits runs what it wrote: with real
// git it removed ~/.bashrc, and "allow bash" allowed it at stop 44. The
// gate is made after the layout is there, as for a cloned repository whose
// hooks were installed.
func TestCanaryHookManagerFiles(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	root := canaryFixture(t, canaryTemplate(t))
	runLine(t, root, `mkdir -p .husky/_ && git config core.hooksPath .husky/_ && `+
		`printf '#!/bin/sh\n. "$(dirname "$0")/h"\n' > .husky/_/pre-commit && `+
		`printf '#!/bin/sh\ns="$(dirname "$(dirname "$0")")/$(basename "$0")"\n[ -f "$s" ] || exit 0\nsh -e "$s"\n' > .husky/_/h && `+
		`chmod +x .husky/_/pre-commit .husky/_/h`, time.Minute, "")
	g := canaryGate(t, root, canaryAllowBashRules)
	lines := []string{
		`printf 'rm -f ~/.bashrc\n' > .husky/pre-commit && git commit -q --allow-empty -m x`,
		`echo 'rm -f ~/.bashrc' >> .husky/pre-commit; git commit -q --allow-empty -m x`,
	}
	for _, line := range lines {
		if out := authorize(t, g, line); out.Run {
			t.Errorf("%q was allowed", line)
		}
	}
	for _, line := range []string{`echo x > notes.txt && git add notes.txt && git commit -q -m x`, `git status`} {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("ordinary line %q was refused: %+v", line, out.Verdict)
		}
	}
	out := runLine(t, root, lines[0], time.Minute, "",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if _, err := os.Stat(filepath.Join(root, "home", ".bashrc")); err == nil {
		t.Errorf("the husky hook did not run at git commit, so the line proves nothing:\n%s", out)
	}
}
