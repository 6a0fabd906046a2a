//go:build linux

package permission_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound77 is review65g's attack on round 76's fix: npm and pnpm
// read their options with nopt, which strips every leading dash, so
// ---node-options (or more dashes, or a prefix of the name after them)
// is --node-options, before the command or after it.
var canaryRound77 = map[string][]string{
	"1-npm-dashes": {
		`npm test ---node-options="--import=data:text/javascript,import('fs').then(f=>f.truncateSync('c'))"`,
		`npm ---node-options="--import=data:text/javascript,import('fs').then(f=>f.truncateSync('c'))" test`,
		`npm test ----node-opt="--import=data:text/javascript,import('fs').then(f=>f.truncateSync('c'))"`,
	},
}

func TestCanaryRound77(t *testing.T) {
	t.Parallel()
	template := packageTemplate(t, "npm")
	checkCanaryRoundIn(t, template, canaryRound77)
	checkOrdinary(t, template, []string{`npm test --silent`, `npm test -- ---x`, `npm run build --if-present`}, nil)
}

// canaryRound77Pnpm is the same attack on pnpm.
var canaryRound77Pnpm = map[string][]string{
	"2-pnpm-dashes": {
		`pnpm ---node-options="--import=data:text/javascript,import('fs').then(f=>f.truncateSync('c'))" test`,
	},
}

func TestCanaryRound77Pnpm(t *testing.T) {
	t.Parallel()
	template := packageTemplate(t, "pnpm")
	checkCanaryRoundIn(t, template, canaryRound77Pnpm)
}

// packageTemplate is the canary template with rv76PackageJSON in its
// workdir, for a round that needs the package manager pm and node.
func packageTemplate(t *testing.T, pm string) string {
	t.Helper()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	tooltest.Need(t, tooltest.NodeJS, pm, "node")
	template := canaryTemplate(t)
	if err := os.WriteFile(filepath.Join(template, "work", "package.json"), []byte(rv76PackageJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	return template
}
