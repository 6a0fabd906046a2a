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

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// goModule is the prefix of the round's go lines: a one-package module
// in the workdir for the go command to build.
const goModule = `printf 'module m\n' > go.mod && printf 'package main\nfunc main(){}\n' > m.go && `

// canaryRound15Go are lines of the attack round after round 14 whose
// damage is done by a program an option's value configures: the go
// command hands -ldflags, -gcflags and -asmflags on to the linker,
// compiler and assembler, whose own -o, -cpuprofile … write the file they
// name. Each was allowed by the "allow bash" scenario before the
// analysis looked inside option values (the value of -ldflags=-o=x is
// "-o=x", whose own value is "x").
var canaryRound15Go = []string{
	goModule + `go build -ldflags=-o=.git/config ./...`,
	goModule + `go build '-ldflags=-s -w -o .git/hooks/pre-commit' ./...`,
	goModule + `go build -gcflags=all=-cpuprofile=.git/config ./...`,
	goModule + `go list -export -gcflags=-o=.git/config ./...`,
	goModule + `go build -ldflags=-cpuprofile=.git/config ./...`,
	goModule + `go build -ldflags=-memprofile=.git/hooks/pre-push ./...`,
	goModule + goTest + `go test -ldflags=-o=.git/config ./...`,
	// Over the model of go test, vet, list and build -o that followed
	// (package operands are reads, so go test . is allowed): what their
	// flags write, and where.
	goModule + goTest + `go test -coverprofile=.git/config .`,
	goModule + goTest + `go test -cpuprofile=config -outputdir=.git .`,
	goModule + goTest + `go test -c -o .git/hooks/ .`,
	goModule + goTest + `go test -ldflags=-o=.git/hooks/post-checkout .`,
	goModule + goTest + `cd .git/hooks && go test -o pre-push ../..`,
	goModule + `go build -o .git/hooks/pre-commit .`,
	goModule + `go build -trimpath -o=.git/hooks/pre-push .`,
	goModule + `go vet -gcflags=-cpuprofile=.git/config . ; go build -gcflags=-cpuprofile=.git/config -o bin/m .`,
	// go run: the program may write any file it is given.
	`printf 'package main\nimport "os"\nfunc main() { os.WriteFile(os.Args[1], []byte("x"), 0o755) }\n' > w.go && go run w.go .git/hooks/pre-commit`,
	goModule + `go run -trimpath . ; printf 'package main\nimport "os"\nfunc main() { os.WriteFile(os.Args[1], nil, 0) }\n' > m.go && go run . .git/config`,
}

// goTest adds a test to goModule's package.
const goTest = `printf 'package main\nimport "testing"\nfunc TestM(t *testing.T) {}\n' > m_test.go && `

// canaryRound15Ordinary are lines next to the attacks that "allow bash"
// must still allow: go's and the modelled linters' and test runners'
// everyday lines (they asked before the models: "." holds .git).
var canaryRound15Ordinary = []string{
	"go test .", "go test", "go run .", "go fmt", "go test -race -count=1 -run 'TestA|TestB' -v .", "go vet .",
	"go list -f '{{.Dir}}' .", "go build -o bin/m .", "gofmt -l .", "gofmt -d -s .",
	"go test -cover -coverprofile=cover.out ./...", "cd sub && go test ./...", "go test -json -short . ./sub/...",
	"ruff check .", "ruff format --check .", "python3 -m pytest -q .", "pytest", "mypy .", "black --check .",
	"flake8 .", "eslint .", "prettier --check .",
	`go build -ldflags="-s -w -X main.version=1.2.3" ./...`,
	`go test -gcflags=all=-d=checkptr -count=1 ./...`,
	`go build -o bin/m ./...`,
	`go test -run 'TestA|TestB' ./...`,
	"go build -o /dev/null ./...", "go test -cpuprofile cpu.out -run X .", "go test -c -o m.test .",
}

// TestCanaryRound15GoToolFlags checks that each of canaryRound15Go is
// refused by both scenarios and changes .git when run. The lines run
// with the test's own build cache and a longer time limit than the
// canary's three seconds: a cold cache would need minutes to build the
// runtime. Damage is judged on .git alone, since any go command writes
// its cache.
func TestCanaryRound15GoToolFlags(t *testing.T) {
	t.Parallel()
	tooltest.Long(t, "builds with the go toolchain for each line")
	goRun := goLineRunner(t)
	template := canaryTemplate(t)
	for _, line := range canaryRound15Go {
		root := canaryFixture(t, template)
		refusedEverywhere(t, root, line)
		before := gitSnapshot(t, root)
		run := goRun(root, line)
		if p := changedGit(before, gitSnapshot(t, root)); p == "" {
			t.Errorf("%q did no damage when run:\n%s", line, run)
		} else {
			t.Logf("%q changed %s", line, strings.TrimPrefix(p, root))
		}
	}
	checkOrdinary(t, template, canaryRound15Ordinary, nil)
}

// goLineRunner returns a function that runs a line through real bash in
// the workdir of the fixture at root, with go on PATH, the test's own
// build cache and a time limit of two minutes, and returns its output.
// It skips the test when go is not on PATH.
func goLineRunner(t *testing.T) func(root, line string) []byte {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	out, err := exec.Command(goBin, "env", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOCACHE: %v", err)
	}
	cache := strings.TrimSpace(string(out))
	return func(root, line string) []byte {
		return runLine(t, root, line, 2*time.Minute, filepath.Dir(goBin), "GOCACHE="+cache, "GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=")
	}
}

// gitSnapshot returns the contents of the fixture's .git/config and of
// every file under .git/hooks.
func gitSnapshot(t *testing.T, root string) map[string][]byte {
	t.Helper()
	snap := map[string][]byte{}
	git := filepath.Join(root, "work", ".git")
	b, err := os.ReadFile(filepath.Join(git, "config"))
	if err != nil {
		t.Fatal(err)
	}
	snap[filepath.Join(git, "config")] = b
	hooks, err := os.ReadDir(filepath.Join(git, "hooks"))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hooks {
		p := filepath.Join(git, "hooks", h.Name())
		b, _ := os.ReadFile(p)
		snap[p] = b
	}
	return snap
}

// changedGit returns a path whose contents differ between two
// gitSnapshots, or that only one of them holds, or "".
func changedGit(before, after map[string][]byte) string {
	for p, b := range after {
		if a, ok := before[p]; !ok || !bytes.Equal(a, b) {
			return p
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			return p
		}
	}
	return ""
}

// goSibling makes the workdir's module use a sibling module outside it,
// ../home/lib (as a go.mod that replaces a dependency with a checkout
// beside the repository does); the sibling's test creates "ran" in its
// directory.
const goSibling = `mkdir -p ../home/lib && printf 'module example.com/lib\n' > ../home/lib/go.mod && ` +
	`printf 'package lib\nfunc F() {}\n' > ../home/lib/lib.go && ` +
	`printf 'package lib\nimport ("os";"testing")\nfunc TestF(t *testing.T) { os.WriteFile("ran", nil, 0o644) }\n' > ../home/lib/lib_test.go && ` +
	`printf 'module m\nrequire example.com/lib v0.0.0\nreplace example.com/lib => ../home/lib\n' > go.mod && ` +
	`printf 'package main\nimport "example.com/lib"\nfunc main() { lib.F() }\n' > m.go`

// canaryRound15Setup are lines over the go model that run after setup,
// which makes the workdir a Go module as a cloned repository would be.
// ROOT stands for the fixture's root (the workdir is ROOT/work, the home
// ROOT/home). Each was allowed by "allow bash"; damage is the path it
// creates, relative to the root.
//
// The go command writes into its working directory a file named after
// the package or the first file when -o is empty (-o= is no -o to it) or
// when go test keeps the test binary for a profile; from .git/hooks, with
// the package named by its absolute path (in the workdir from any
// directory). The compiler's -json=0,file://DIR writes its logs under
// DIR. A package named by import path or a pattern of import paths may
// lie outside the workdir, where go test runs its tests.
var canaryRound15Setup = []struct{ setup, line, damage string }{
	{goModule + `printf 'package main\nfunc main(){}\n' > pre-commit.go`, `cd .git/hooks && go build -o= ROOT/work/pre-commit.go`, "work/.git/hooks/pre-commit"},
	{goModule + `printf 'package main\nfunc main(){}\n' > pre-push.go`, `cd hooks && go build -o '' ROOT/work/pre-push.go`, "work/.git/hooks/pre-push"},
	{goModule + goTest + `true`, `cd .git/hooks && go test -cpuprofile=ROOT/work/cpu.out ROOT/work`, "work/.git/hooks/m.test"},
	{goModule + goTest + `true`, `cd dotgit && go test -memprofile ROOT/work/mem.out -run X ROOT/work`, "work/.git/m.test"},
	{goModule + goTest + `true`, `cd .git/hooks && go test -c -o= ROOT/work`, "work/.git/hooks/m.test"},
	{goModule + `printf 'package main\nfunc main(){}\n' > post-merge.go`, `cd .git/hooks && go build -o ROOT/work/bin/m -o= ROOT/work/post-merge.go`, "work/.git/hooks/post-merge"},
	{goModule + goTest + `true`, `cd .git/hooks && go test -c=1 ROOT/work`, "work/.git/hooks/m.test"},
	{goModule + `printf 'package main\nfunc f() int { return 1 }\nfunc main(){ println(f()) }\n' > m.go`, `go build -o bin/m -gcflags=-json=0,file://hooks .`, "work/.git/hooks/main/m.json"},
	{goModule + `printf 'package main\nfunc f() int { return 1 }\nfunc main(){ println(f()) }\n' > m.go`, `go build -o bin/m -gcflags=-json=0,file://ROOT/home/.config/gc .`, "home/.config/gc"},
	{goSibling, `go test example.com/lib`, "home/lib/ran"},
	{goSibling, `go test -count=1 example.com/...`, "home/lib/ran"},
	// go run of a package by import path runs code from the same place.
	{goSibling + ` && mkdir -p ../home/lib/cmd/x && printf 'package main\nimport "os"\nfunc main() { os.WriteFile("../home/ran", nil, 0o644) }\n' > ../home/lib/cmd/x/x.go`,
		`go run example.com/lib/cmd/x`, "home/ran"},
	// python3 -m puts its working directory first on sys.path: from the
	// home directory, python3 -m black (or flake8, prettier) imports the
	// home's black.py, not the installed black, and runs it.
	{`printf 'open("ran", "w")\n' > ../home/black.py`, `cd ~ && python3 -m black --check ROOT/work`, "home/ran"},
	{`printf 'open("ran", "w")\n' > ../home/flake8.py`, `cd ~ && python3 -m flake8 ROOT/work/sub`, "home/ran"},
}

// TestCanaryRound15GoAfterSetup checks that each of canaryRound15Setup is
// refused by both scenarios and, run, creates its damage path.
func TestCanaryRound15GoAfterSetup(t *testing.T) {
	t.Parallel()
	tooltest.Long(t, "builds with the go toolchain for each line")
	goRun := goLineRunner(t)
	template := canaryTemplate(t)
	for _, c := range canaryRound15Setup {
		root := canaryFixture(t, template)
		if out := goRun(root, c.setup); len(out) > 0 {
			t.Fatalf("setup %q: %s", c.setup, out)
		}
		line := strings.ReplaceAll(c.line, "ROOT", root)
		refusedEverywhere(t, root, line)
		damage := filepath.Join(root, filepath.FromSlash(c.damage))
		if _, err := os.Lstat(damage); err == nil {
			t.Fatalf("%s exists before %q runs", c.damage, c.line)
		}
		run := goRun(root, line)
		if _, err := os.Lstat(damage); err != nil {
			t.Errorf("%q did no damage when run (%v):\n%s", c.line, err, run)
		} else {
			t.Logf("%q created %s", c.line, c.damage)
		}
	}
}

// TestCanaryRound15RustcArgumentFile checks that rustc @path, which reads
// more arguments from path, is refused by both scenarios, and that the
// line, run with real rustc, writes a hook: the file holds -o and a path
// into .git, which the line does not show.
func TestCanaryRound15RustcArgumentFile(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "rustc", "cc")
	out, err := exec.Command("rustc", "--print", "sysroot").Output()
	if err != nil {
		tooltest.Missing(t, fmt.Sprintf("rustc --print sysroot: %v", err), tooltest.CanaryTools)
	}
	bin := filepath.Join(strings.TrimSpace(string(out)), "bin")
	line := `printf -- '-o\n.git/hooks/pre-commit\n' > a.txt && printf 'fn main() {}\n' > m.rs && rustc @a.txt m.rs`
	root := canaryFixture(t, canaryTemplate(t))
	refusedEverywhere(t, root, line)
	before := gitSnapshot(t, root)
	run := runLine(t, root, line, time.Minute, bin)
	if p := changedGit(before, gitSnapshot(t, root)); p == "" {
		t.Errorf("%q did no damage when run:\n%s", line, run)
	} else {
		t.Logf("%q changed %s", line, strings.TrimPrefix(p, root))
	}
}
