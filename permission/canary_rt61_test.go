//go:build linux

package permission_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// rt61SxInit is an x86-64 assembly file, with the C preprocessor (.sx),
// whose .init_array entry creates ../home/p: go test links it into the
// test binary of a cgo package, and runs it there. The '%' are doubled
// for printf.
const rt61SxInit = `.section .init_array,"aw"\n.align 8\n.quad rt61init\n.text\nrt61init:\n` +
	`lea rt61path(%%rip), %%rdi\nmov $0x41, %%esi\nmov $0x1a4, %%edx\nmov $2, %%eax\nsyscall\nret\n` +
	`.section .rodata\nrt61path: .asciz "../home/p"\n.section .note.GNU-stack,"",@progbits\n`

// canaryRT61 are lines of round redteam61 that change the home when run
// and "allow bash" allowed before. programs must all be installed (the
// first one's directory leads PATH); files are the project's, written in
// the workdir before the line runs, then setup is run there; env is added to the line's
// environment; python, when set, is a module the python3 on PATH must
// import (flask loads .flaskenv only with python-dotenv).
var canaryRT61 = []struct {
	programs []string
	files    map[string]string
	env      []string
	python   string
	amd64    bool
	rust     bool
	setup    []string
	line     string
}{
	// bun loads .env.test for bun test; a test's child node takes its
	// NODE_OPTIONS.
	{programs: []string{"bun", "node"}, files: map[string]string{"t.test.js": "import { test } from \"bun:test\";\n" +
		"test(\"x\", () => { require(\"child_process\").execSync(\"node -e 1\"); });\n"},
		line: `printf 'require("fs").writeFileSync("../home/p","")' > p.txt; printf 'NODE_OPTIONS=--require ./p.txt\n' > .env.test; bun test`},
	// flask calls the factory of --app, and of a written .flaskenv's
	// FLASK_APP, with its literal arguments.
	{programs: []string{"flask"}, line: `flask --app "subprocess:getoutput('cd ..; touch home/p')" routes`},
	{programs: []string{"flask", "python3"}, python: "dotenv",
		line: `printf "FLASK_APP=subprocess:getoutput('touch ../home/p')\n" > .flaskenv; flask routes`},
	// flask shell runs the Python of its standard input.
	{programs: []string{"flask"}, files: map[string]string{"app.py": "from flask import Flask\napp = Flask(__name__)\n"},
		line: `echo 'import os; os.system("touch ../home/p")' | flask shell`},
	// Unpickling calls the function the pickle names.
	{programs: []string{"python3"}, line: `printf 'cos\nsystem\n(S"touch ../home/p"\ntR.' | python3 -m pickle -`},
	// pandoc: a Lua filter of any name, -d x's x.yaml, a --data-dir's
	// filters.
	{programs: []string{"pandoc"}, line: `printf 'os.execute("touch ../home/p")' > x.txt; pandoc -L x.txt README`},
	{programs: []string{"pandoc"}, line: `printf 'output-file: ../home/p\n' > x.yaml; pandoc -d x README`},
	{programs: []string{"pandoc"}, line: `mkdir -p d/filters; printf 'os.execute("touch ../home/p")' > d/filters/f.lua; pandoc --data-dir=d -L f.lua README`},
	// go test links a written .sx into a cgo package's test binary.
	{programs: []string{"go", "gcc"}, amd64: true, env: []string{"GOTOOLCHAIN=local", "CGO_ENABLED=1", "GOFLAGS="},
		files: map[string]string{
			"go.mod":    "module m\n\ngo 1.21\n",
			"m.go":      "package m\n\n// int two(void) { return 2; }\nimport \"C\"\n\nfunc Two() int { return int(C.two()) }\n",
			"m_test.go": "package m\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) {\n\tif Two() != 2 {\n\t\tt.Fatal(Two())\n\t}\n}\n",
		},
		line: "printf '" + rt61SxInit + "' > x.sx; go test ./..."},
	// pytest runs the doctests of test*.txt, with no settings.
	{programs: []string{"pytest"}, line: `printf '>>> import os; _ = os.system("touch ../home/p")\n' > test_x.txt; pytest`},
	// cargo test runs the doctests of the README.md a crate includes as
	// its documentation.
	{programs: []string{"cargo"}, rust: true, files: map[string]string{
		"Cargo.toml": "[package]\nname = \"rt61\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
		"src/lib.rs": "#![doc = include_str!(\"../README.md\")]\npub fn two() -> i32 { 2 }\n",
		"README.md":  "# rt61\n",
	}, line: "printf '```\\nstd::fs::write(\"../home/p\", \"\").unwrap();\\n```\\n' > README.md; cargo test --offline"},
	// Every pip command follows the log= of its environment's pip.conf.
	{programs: []string{"python3"}, setup: []string{"python3", "-m", "venv", ".venv"},
		line: `printf '[global]\nlog=../home/x\n' > .venv/pip.conf; .venv/bin/pip list`},
	// ld writes where the OUTPUT of its -T script says.
	{programs: []string{"ld"}, line: `printf 'OUTPUT(../home/p)\n' > x.ld; ld -r -b binary README -T x.ld`},
}

// TestCanaryRT61 runs each line whose programs are installed in a fresh
// fixture holding its project files: it must change the home when run,
// and be refused by both scenarios.
func TestCanaryRT61(t *testing.T) {
	t.Parallel()
	template := canaryTemplate(t)
	for i, c := range canaryRT61 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			dir := ""
			for _, p := range c.programs {
				found, err := exec.LookPath(p)
				if err != nil {
					tooltest.LeftOut(t, fmt.Sprintf("%s is not installed: %q is left out", p, c.line), tooltest.CanaryTools)
					return
				}
				if dir == "" {
					dir = filepath.Dir(found)
				}
			}
			if c.amd64 && runtime.GOARCH != "amd64" {
				t.Skipf("%q is x86-64 assembly", c.line)
			}
			if c.python != "" {
				if err := exec.Command("python3", "-c", "import "+c.python).Run(); err != nil {
					tooltest.LeftOut(t, fmt.Sprintf("python3 cannot import %s: %q is left out", c.python, c.line), tooltest.CanaryTools)
					return
				}
			}
			root := canaryFixture(t, template)
			for name, content := range c.files {
				p := filepath.Join(root, "work", name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if len(c.setup) > 0 {
				cmd := exec.Command(c.setup[0], c.setup[1:]...)
				cmd.Dir = filepath.Join(root, "work")
				if out, err := cmd.CombinedOutput(); err != nil {
					tooltest.LeftOut(t, fmt.Sprintf("%v failed (%v: %s): %q is left out", c.setup, err, out, c.line), tooltest.CanaryTools)
					return
				}
			}
			env := append([]string(nil), c.env...)
			if strings.Contains(c.line, "go test") {
				// The build cache of the test's own go, outside the
				// fixture's home: only the line's own damage changes
				// the home, and the cgo runtime is built once.
				out, err := exec.Command("go", "env", "GOCACHE").Output()
				if err != nil || strings.TrimSpace(string(out)) == "" {
					t.Fatalf("go env GOCACHE: %v", err)
				}
				env = append(env, "GOCACHE="+strings.TrimSpace(string(out)))
			}
			if c.rust {
				// rustup's toolchains where they are, cargo's own
				// state outside the fixture's home.
				rustupHome := os.Getenv("RUSTUP_HOME")
				if rustupHome == "" {
					h, _ := os.UserHomeDir()
					rustupHome = filepath.Join(h, ".rustup")
				}
				env = append(env, "RUSTUP_HOME="+rustupHome, "CARGO_HOME="+t.TempDir())
			}
			checkRT57Attack(t, root, c.line, 120*time.Second, dir, env...)
		})
	}
}
