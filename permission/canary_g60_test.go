//go:build linux

package permission_test

import (
	"fmt"
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
	t.Parallel()
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
		// The same line with notes instead of tsconfig.json stays allowed.
		ordinary := strings.Replace(line, "> tsconfig.json", "> notes.json.txt", 1)
		if out := authorize(t, canaryGate(t, root, canaryAllowBashRules), ordinary); !out.Run {
			t.Errorf("ordinary line %q was refused: %+v", ordinary, out.Verdict)
		}
		refusedEverywhere(t, root, line)
		out := runLine(t, root, line, 2*time.Minute, filepath.Dir(prog))
		if _, err := os.Stat(filepath.Join(home, ".config", "g60", "a.js")); err != nil {
			t.Errorf("%q did not write the home when run (%v):\n%s", line, err, out)
		}
	}
}

// canaryG60ProjectPaths are projects whose settings files, as a cloned
// repository holds them, send a tool's output or cache into the home
// (HOMEDIR), and the line that runs the tool: real pytest, mypy, hugo and
// mvn created HOMEDIR/g60 for each. Each was allowed by "allow bash" at
// stop 59.
var canaryG60ProjectPaths = []struct{ program, file, text, line string }{
	{"pytest", "pytest.ini", "[pytest]\ncache_dir = HOMEDIR/g60\n", "pytest -q test_a.py"},
	{"pytest", "pyproject.toml", "[tool.pytest.ini_options]\ncache_dir = \"HOMEDIR/g60\"\n", "python3 -m pytest -q test_a.py"},
	{"mypy", "mypy.ini", "[mypy]\ncache_dir = HOMEDIR/g60\n", "mypy test_a.py"},
	{"hugo", "hugo.toml", "baseURL = \"/\"\npublishDir = \"HOMEDIR/g60\"\ncacheDir = \"WORKDIR/.hugocache\"\n", "hugo --quiet"},
	{"mvn", ".mvn/maven.config", "-Dmaven.repo.local=HOMEDIR/g60\n", "mvn -o -q validate"},
}

func TestCanaryG60ProjectPaths(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "pytest", "mypy", "hugo", "mvn")
	template := canaryTemplate(t)
	for i, c := range canaryG60ProjectPaths {
		// Each case in a fixture of its own, beside the others: most of
		// its time is spent waiting for python, hugo or a JVM to start.
		t.Run(fmt.Sprintf("%d-%s", i, c.program), func(t *testing.T) {
			t.Parallel()
			prog, err := exec.LookPath(c.program)
			if err != nil {
				t.Fatal(err)
			}
			root := canaryFixture(t, template)
			home, wd := filepath.Join(root, "home"), filepath.Join(root, "work")
			r := strings.NewReplacer("HOMEDIR", home, "WORKDIR", wd)
			g57WriteWork(t, root, map[string]string{
				c.file:          r.Replace(c.text),
				"test_a.py":     "def test_a():\n    pass\n",
				"content/a.md":  "---\ntitle: a\n---\nx\n",
				"pom.xml":       "<project><modelVersion>4.0.0</modelVersion><groupId>a</groupId><artifactId>b</artifactId><version>1</version><packaging>pom</packaging></project>\n",
				"notes/read.md": "x\n",
			})
			refusedEverywhere(t, root, c.line)
			out := runLine(t, root, c.line, 2*time.Minute, filepath.Dir(prog))
			if _, err := os.Stat(filepath.Join(home, "g60")); err != nil {
				t.Errorf("%q with %s did not write the home when run (%v):\n%s", c.line, c.file, err, out)
			}
		})
	}
}

// TestCanaryG60ProjectPathsOrdinary: settings files whose paths lie in
// the workdir leave the tools' lines allowed.
func TestCanaryG60ProjectPathsOrdinary(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	template := canaryTemplate(t)
	root := canaryFixture(t, template)
	g57WriteWork(t, root, map[string]string{
		"tsconfig.json":     `{"compilerOptions": {"outDir": "dist", "rootDir": "src"}, "include": ["src"]}`,
		"pytest.ini":        "[pytest]\naddopts = -q\ncache_dir = .cache/pytest\n",
		"mypy.ini":          "[mypy]\nstrict = True\n",
		"hugo.toml":         "baseURL = \"https://example.org/\"\npublishDir = \"public\"\n",
		".mvn/maven.config": "-B -T 1C\n",
	})
	g := canaryGate(t, root, canaryAllowBashRules)
	for _, line := range []string{"pytest", "python3 -m pytest", "mypy .", "hugo", "mvn -q validate", "npm run build"} {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("ordinary line %q was refused: %+v", line, out.Verdict)
		}
	}
}
