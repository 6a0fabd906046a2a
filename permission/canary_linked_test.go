//go:build linux

package permission_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryLinked are lines that run rm through a link the workdir holds (x
// → rm, as a cloned repository may bring one): under its own name rm is
// refused by the deny rule of both scenarios, and a link out of the
// workdir to a system program is not the project's own program.
var canaryLinked = []string{
	`./x -f c`, `nice ./x -f c`, `cd sub && ../x -f ../c`, `tools/del -f c`, `env ./x -f c`,
}

func TestCanaryLinkedProgram(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	rm, err := findProgram("rm")
	if err != nil {
		tooltest.Missing(t, fmt.Sprintf("no rm program: %v", err), tooltest.CanaryTools)
	}
	template := canaryTemplate(t)
	for _, line := range canaryLinked {
		root := canaryFixture(t, template)
		wd := filepath.Join(root, "work")
		if err := os.MkdirAll(filepath.Join(wd, "tools"), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, l := range []string{"x", "tools/del"} {
			if err := os.Symlink(rm, filepath.Join(wd, l)); err != nil {
				t.Fatal(err)
			}
		}
		allowedBy := allowingScenarios(t, root, line)
		before := canarySnapshot(t, root)
		runBash(t, root, line, 30*1e9)
		p := changed(before, canarySnapshot(t, root))
		if p == "" {
			t.Errorf("%q did no damage when run (allowed by %v)", line, allowedBy)
		}
		if len(allowedBy) > 0 {
			t.Errorf("%q was allowed by %v (changed %q)", line, allowedBy, p)
		}
	}
}
