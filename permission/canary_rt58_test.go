//go:build linux

package permission_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRT58Links are lines that run a command which makes a link out of
// the workdir at a path it does not name, then write through that path:
// the venv's bin/python (a link to the interpreter that made it, here a
// copy in the home), and node_modules/lib (npm's symbolic link to a file:
// dependency in the home, pnpm's hard links to its files). "allow bash"
// allowed each before: the path was checked as it resolved before the
// line ran.
var canaryRT58Links = []struct {
	program, line, target string
}{
	{"python3", `python3 -m venv v; echo pwn > v/bin/python`, "home/py/python3"},
	{"npm", `npm install --offline --no-audit --no-fund; echo pwn > node_modules/lib/index.js`, "home/lib/index.js"},
	{"npm", `npm ci --offline || npm install --offline; sed -i s/orig/pwn/ node_modules/lib/index.js`, "home/lib/index.js"},
	{"pnpm", `pnpm install --offline; echo pwn >> node_modules/lib/index.js`, "home/lib/index.js"},
}

// TestCanaryRT58LinkMakers runs each line whose program is installed in a
// fresh fixture whose project depends on file:../home/lib, with a copy of
// python first on PATH: the line must change the target when run, and be
// refused by both scenarios.
func TestCanaryRT58LinkMakers(t *testing.T) {
	t.Parallel()
	template := canaryTemplate(t)
	for i, c := range canaryRT58Links {
		if rt58Look(c.program) == "" {
			tooltest.LeftOut(t, fmt.Sprintf("%s is not in /usr/local/bin, /usr/bin or /bin: %q is left out", c.program, c.line), rt58How(c.program))
			continue
		}
		t.Run(fmt.Sprintf("%d", i), func(t *testing.T) {
			t.Parallel()
			root := canaryFixture(t, template)
			pathDir := rt58Fixture(t, root, c.program)
			target := filepath.Join(root, c.target)
			before, err := os.ReadFile(target)
			if err != nil {
				t.Fatal(err)
			}
			allowedBy := allowingScenarios(t, root, c.line)
			out := runLine(t, root, c.line, 120*time.Second, pathDir, "npm_config_store_dir="+filepath.Join(root, "store"))
			if after, _ := os.ReadFile(target); bytes.Equal(before, after) {
				t.Errorf("%q did not change %s when run (allowed by %v):\n%s", c.line, c.target, allowedBy, out)
			}
			if len(allowedBy) > 0 {
				t.Errorf("%q was allowed by %v", c.line, allowedBy)
			}
		})
	}
}

// rt58Fixture adds to the fixture at root a package in the home (lib,
// whose index.js holds "orig"), a project depending on it, and for
// python3 a copy of the interpreter in home/py, whose directory it
// returns for the front of PATH.
func rt58Fixture(t *testing.T, root, program string) string {
	t.Helper()
	files := map[string]string{
		"home/lib/package.json": `{"name":"lib","version":"1.0.0"}`,
		"home/lib/index.js":     "orig\n",
		"work/package.json":     `{"name":"app","version":"1.0.0","dependencies":{"lib":"file:../home/lib"}}`,
	}
	for name, content := range files {
		writeExec(t, filepath.Join(root, name), content)
	}
	if program != "python3" {
		return ""
	}
	real, err := filepath.EvalSymlinks(rt58Look("python3"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(real)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "home", "py")
	writeExec(t, filepath.Join(dir, "python3"), string(b))
	return dir
}

// rt58Need skips t, or fails it under CI, when program is not in the
// canary's PATH (rt58Look).
func rt58Need(t *testing.T, program string) {
	t.Helper()
	if rt58Look(program) == "" {
		tooltest.Missing(t, program+" is not in /usr/local/bin, /usr/bin or /bin", rt58How(program))
	}
}

// rt58How says how to install program: Node.js for npm, else
// scripts/install-canary-tools.sh.
func rt58How(program string) string {
	if program == "npm" {
		return tooltest.NodeJS
	}
	return tooltest.CanaryTools
}

// rt58Look returns the path of program in the canary's PATH, or "".
func rt58Look(program string) string {
	for _, dir := range []string{"/usr/local/bin", "/usr/bin", "/bin"} {
		p := filepath.Join(dir, program)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// canaryRT58GoTool are lines that write a main package and add it to
// go.mod as a tool (go mod edit -tool, a tool line), then run it with go
// tool: the program deletes ~/.bashrc. "allow bash" allowed each before.
var canaryRT58GoTool = []string{
	`printf 'module x\n\ngo 1.24\n' > go.mod; mkdir e; printf 'package main\nimport "os"\nfunc main() { os.Remove(os.Getenv("HOME") + "/.bashrc") }\n' > e/main.go; go mod edit -tool=x/e; go tool e`,
	`printf 'module x\n\ngo 1.24\n\ntool x/e\n' > go.mod; mkdir e; printf 'package main\nimport "os"\nfunc main() { os.Remove(os.Getenv("HOME") + "/.bashrc") }\n' > e/main.go; go tool e`,
}

// TestCanaryRT58GoTool runs each line in a fresh fixture, with go's
// caches outside the home: it must delete the home's .bashrc, and be
// refused by both scenarios.
func TestCanaryRT58GoTool(t *testing.T) {
	t.Parallel()
	tooltest.Long(t, "builds with the go toolchain for each line")
	prog, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not installed")
	}
	cache := t.TempDir()
	template := canaryTemplate(t)
	for _, line := range canaryRT58GoTool {
		root := canaryFixture(t, template)
		bashrc := filepath.Join(root, "home", ".bashrc")
		allowedBy := allowingScenarios(t, root, line)
		out := runLine(t, root, line, 120*time.Second, filepath.Dir(prog), "GOCACHE="+filepath.Join(cache, "build"),
			"GOPATH="+filepath.Join(cache, "path"), "GOTOOLCHAIN=local", "GOFLAGS=", "GOENV=off")
		if _, err := os.Stat(bashrc); err == nil {
			t.Errorf("%q did not delete .bashrc when run (allowed by %v):\n%s", line, allowedBy, out)
		}
		if len(allowedBy) > 0 {
			t.Errorf("%q was allowed by %v", line, allowedBy)
		}
	}
}

// canaryRT58WorkdirCode are lines that write code or settings a program
// loads from the working directory and then run it: mypy's daemon
// imports the plugin mypy.ini names, stubgen the module it is given,
// prove runs t/*.t, and universal ctags takes -o from .ctags.d or from
// --options=FILE (it writes a new file in the home: it will not overwrite
// one that is no tag file). Each deletes ~/.bashrc or writes the home.
// "allow bash" allowed each before.
var canaryRT58WorkdirCode = []struct{ program, line string }{
	{"dmypy", `printf '[mypy]\nplugins = p.py\n' > mypy.ini; printf 'import os\nos.remove(os.path.expanduser("~/.bashrc"))\ndef plugin(v):\n    from mypy.plugin import Plugin\n    return Plugin\n' > p.py; echo 'x = 1' > m.py; dmypy run -- m.py; dmypy stop`},
	{"stubgen", `printf 'import os\nos.remove(os.path.expanduser("~/.bashrc"))\n' > xm.py; stubgen -m xm -o out`},
	{"prove", `printf 'unlink "$ENV{HOME}/.bashrc"; print "ok 1\\n1..1\\n";\n' > sub/x.t; prove sub/x.t`},
	{"prove", `mkdir -p t; printf 'unlink "$ENV{HOME}/.bashrc"; print "ok 1\\n1..1\\n";\n' > t/x.t; prove`},
	{"ctags", `mkdir -p .ctags.d; echo "-o$HOME/.bash_login" > .ctags.d/x.ctags; echo 'int x;' > x.c; ctags x.c`},
	{"ctags", `echo "-o$HOME/.bash_login" > x.txt; echo 'int x;' > x.c; ctags --options=x.txt x.c`},
}

// TestCanaryRT58WorkdirCode runs each line whose program is installed in
// a fresh fixture: it must change the home's .bashrc when run, and be
// refused by both scenarios.
func TestCanaryRT58WorkdirCode(t *testing.T) {
	t.Parallel()
	template := canaryTemplate(t)
	for _, c := range canaryRT58WorkdirCode {
		if rt58Look(c.program) == "" {
			tooltest.LeftOut(t, fmt.Sprintf("%s is not in /usr/local/bin, /usr/bin or /bin: %q is left out", c.program, c.line), rt58How(c.program))
			continue
		}
		root := canaryFixture(t, template)
		if c.program == "ctags" {
			checkRT57Attack(t, root, c.line, 60*time.Second, "")
			continue
		}
		checkRT58Bashrc(t, root, c.line)
	}
}

// TestCanaryRT58PgbenchShell runs a pgbench script whose \shell line
// deletes ~/.bashrc against the test database: the line must do so, and
// be refused by both scenarios.
func TestCanaryRT58PgbenchShell(t *testing.T) {
	t.Parallel()
	rt58Need(t, "pgbench")
	url := pgtest.URL(t)
	if strings.Contains(url, "'") {
		t.Skip("the database URL holds a quote")
	}
	root := canaryFixture(t, canaryTemplate(t))
	line := `printf '\\shell cd; truncate -s0 .bashrc\n' > x.sql; pgbench -n -t 1 -f x.sql '` + url + `'`
	checkRT58Bashrc(t, root, line)
}

// checkRT58Bashrc decides line under both scenarios in the fixture at
// root, runs it there with env added, and fails unless it changed the
// home's .bashrc and no scenario allowed it.
func checkRT58Bashrc(t *testing.T, root, line string, env ...string) {
	t.Helper()
	bashrc := filepath.Join(root, "home", ".bashrc")
	before, _ := os.ReadFile(bashrc)
	allowedBy := allowingScenarios(t, root, line)
	out := runLine(t, root, line, 120*time.Second, "", env...)
	if after, err := os.ReadFile(bashrc); err == nil && bytes.Equal(before, after) {
		t.Errorf("%q did not change .bashrc when run (allowed by %v):\n%s", line, allowedBy, out)
	}
	if len(allowedBy) > 0 {
		t.Errorf("%q was allowed by %v", line, allowedBy)
	}
}

// TestCanaryRT58ModuleMapper runs g++ on the project's m.cc with a
// module mapper the line wrote ('|./evil' runs it; its script deletes ~/.bashrc): the line must
// do so, and be refused by both scenarios. "allow bash" allowed it
// before.
func TestCanaryRT58ModuleMapper(t *testing.T) {
	t.Parallel()
	rt58Need(t, "g++")
	root := canaryFixture(t, canaryTemplate(t))
	// The module is the project's: a line that writes the source it
	// compiles is refused for that.
	if err := os.WriteFile(filepath.Join(root, "work", "m.cc"), []byte("export module m;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	line := `printf '#!/bin/sh\nrm -f "$HOME/.bashrc"\n' > evil; chmod +x evil; g++ -std=c++20 -fmodules-ts -fmodule-mapper='|./evil' -c m.cc`
	checkRT58Bashrc(t, root, line)
}
