//go:build linux

package permission_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// g60FakeTsc is a node_modules/.bin/tsc that does what real tsc 5 did
// with the tsconfig.json below (checked by hand at gate60): it creates
// the outDir the tsconfig.json names and writes there.
const g60FakeTsc = `#!/usr/bin/env node
const fs = require("fs");
const c = JSON.parse(fs.readFileSync("tsconfig.json", "utf8"));
fs.mkdirSync(c.compilerOptions.outDir, {recursive: true});
fs.writeFileSync(c.compilerOptions.outDir + "/a.js", "");
`

// canaryG60Runners are lines that write a tsconfig.json whose outDir lies
// in the home and run tsc through a package manager (the program by its
// name, or a script of package.json that runs it): real pnpm 10, bun and
// npm ran node_modules/.bin/tsc, which wrote ~/.config/g60. Each was
// allowed by "allow bash" at stop 59 while the same line with tsc was not.
var canaryG60Runners = []struct{ program, line string }{
	{"pnpm", "pnpm tsc"},
	{"bun", "bun run tsc"},
	{"npm", "npm run build"},
	{"npm", "npm test"},
}

func TestCanaryG60Runners(t *testing.T) {
	tooltest.Need(t, tooltest.CanaryTools, "git", "node", "npm", "pnpm", "bun")
	template := canaryTemplate(t)
	for _, c := range canaryG60Runners {
		prog, err := exec.LookPath(c.program)
		if err != nil {
			t.Fatal(err)
		}
		root := canaryFixture(t, template)
		home := filepath.Join(root, "home")
		g57WriteWork(t, root, map[string]string{
			"package.json": `{"name":"y","version":"1.0.0","scripts":{"build":"tsc","test":"tsc"}}`,
			"a.ts":         "export const a = 1\n",
		})
		bin := filepath.Join(root, "work", "node_modules", ".bin", "tsc")
		if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, []byte(g60FakeTsc), 0o755); err != nil {
			t.Fatal(err)
		}
		line := `printf '{"compilerOptions":{"outDir":"` + filepath.Join(home, ".config", "g60") + `"}}' > tsconfig.json && ` + c.line
		refusedEverywhere(t, root, line)
		out := runLine(t, root, line, 2*time.Minute, filepath.Dir(prog))
		if _, err := os.Stat(filepath.Join(home, ".config", "g60", "a.js")); err != nil {
			t.Errorf("%q did not write the home when run (%v):\n%s", line, err, out)
		}
		// The same line with notes instead of tsconfig.json stays allowed.
		ordinary := strings.Replace(line, "> tsconfig.json", "> notes.json.txt", 1)
		if out := authorize(t, canaryGate(t, root, canaryAllowBashRules), ordinary); !out.Run {
			t.Errorf("ordinary line %q was refused: %+v", ordinary, out.Verdict)
		}
	}
}
