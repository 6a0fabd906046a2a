package permission

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
)

// benchLines are command lines of growing size.
var benchLines = map[string]string{
	"short":  "git status",
	"chain":  "git add -A && git commit -m \"$(date)\" && git push origin main | tee log.txt",
	"nested": `bash -c "cd src && find . -name '*.go' -exec grep -l TODO {} \; | xargs wc -l > /tmp/out" && eval "echo done"`,
	// A pipeline of the kind round 107's checks read closely: names a
	// command lists, passed through filters, read by another.
	"pipeline": `find . -name '*.go' -newer go.mod | sed 's,^\./,,' | sort | xargs grep -l TODO | head -20 > todo.txt`,
	// A line naming many files, each checked against every secret
	// location.
	"files200": "wc -l" + manyFiles(200),
	// A line writing many files, each checked against every protected
	// path, and one reading through patterns, each checked against every
	// secret location.
	"writes200": "touch" + manyFiles(200),
	"patterns":  "cat src/*/a*.go src/*/b*.go src/*/c*.go src/*/d*.go src/*/e*.go src/*/f*.go src/*/g*.go src/*/h*.go",
}

// manyFiles returns n file names, each after a blank.
func manyFiles(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, " src/pkg%d/file.go", i)
	}
	return b.String()
}

func benchRules() []Rule {
	return []Rule{
		BashCommand("git:*", Allow), BashCommand("ls:*", Allow), BashCommand("grep:*", Allow),
		BashCommand("find:*", Allow), BashCommand("rm:*", Deny), BashCommand("git push:*", Ask),
		FilePath("secrets/**", Deny), FilePath("~/.ssh/**", Deny), FilePath(".env", Deny),
		{Tool: []string{"mcp__*"}, Effect: Ask},
	}
}

// BenchmarkGateBash measures the gate's own screening of a bash line
// (analysis, path resolution, protected paths) on top of a policy that
// allows everything, against BenchmarkCheckBash and shellscan's
// BenchmarkParseOnly.
func BenchmarkGateBash(b *testing.B) {
	wd := b.TempDir()
	allow := PolicyFunc(func(context.Context, Call) (Verdict, error) { return Verdict{Decision: Allow}, nil })
	g := NewGate(GateOptions{Policy: allow, Workdir: wd, HomeDir: b.TempDir(),
		Protected: []string{filepath.Join(wd, ".git", "config"), filepath.Join(wd, ".git", "hooks")}})
	for name, line := range benchLines {
		in, _ := json.Marshal(map[string]string{"command": line})
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := g.Decide(context.Background(), Call{Name: "bash", Input: in}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCheckBash(b *testing.B) {
	p, err := New(Options{Rules: benchRules(), Default: Ask, Workdir: "/w", HomeDir: "/home/u"})
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	ws, err := Workspace(p, WorkspaceOptions{Workdir: dir, HomeDir: "/home/u"})
	if err != nil {
		b.Fatal(err)
	}
	for _, pol := range []struct {
		name string
		p    Policy
	}{{"lexical", p}, {"workspace", ws}} {
		for name, line := range benchLines {
			input, _ := json.Marshal(map[string]string{"command": line})
			b.Run(pol.name+"/"+name, func(b *testing.B) {
				for b.Loop() {
					if _, err := pol.p.Check(context.Background(), Call{Name: "bash", Input: input}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkCheckFileTool(b *testing.B) {
	dir := b.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src", "pkg"), 0o755); err != nil {
		b.Fatal(err)
	}
	p, _ := New(Options{Rules: benchRules(), Default: Ask, HomeDir: "/home/u"})
	ws, err := Workspace(p, WorkspaceOptions{Workdir: dir, HomeDir: "/home/u"})
	if err != nil {
		b.Fatal(err)
	}
	input := json.RawMessage(`{"path":"src/pkg/../pkg/main.go"}`)
	for b.Loop() {
		if _, err := ws.Check(context.Background(), Call{Name: "read_file", Input: input}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeRules(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		var rs []string
		for i := range n {
			rs = append(rs, fmt.Sprintf(`{"id":"r%d","tool":["bash"],"when":{"command":{"startsWith":"cmd%d"},"x":{"not":{"in":[1,2,3]}}},"effect":"ask"}`, i, i))
		}
		data := []byte(`{"version":1,"rules":[` + strings.Join(rs, ",") + `]}`)
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := DecodeRules(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("rules=%d/encoding-json", n), func(b *testing.B) {
			// The raw operation: a plain, non-strict decode.
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var v any
				if err := json.Unmarshal(data, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFilePolicyCheck measures a check including the stat of every
// rule file (the reload test).
func BenchmarkFilePolicyCheck(b *testing.B) {
	root := b.TempDir()
	work, home := filepath.Join(root, "work"), filepath.Join(root, "home")
	for _, d := range []string{filepath.Join(work, ".lite-agent"), home} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			b.Fatal(err)
		}
	}
	doc, _ := EncodeRules(benchRules())
	for _, f := range []string{filepath.Join(home, FileName), filepath.Join(work, ".lite-agent", FileName)} {
		if err := os.WriteFile(f, doc, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	b.Setenv(ManagedEnv, "")
	fp, err := NewFilePolicy(FileOptions{Workdir: work, Storage: storage.Options{Home: home}, HomeDir: "/home/u"})
	if err != nil {
		b.Fatal(err)
	}
	input, _ := json.Marshal(map[string]string{"command": benchLines["chain"]})
	for b.Loop() {
		if _, err := fp.Check(context.Background(), Call{Name: "bash", Input: input}); err != nil {
			b.Fatal(err)
		}
	}
}

// repoLines are lines an agent runs in a real repository: names listed
// by one command and read by another make the gate walk the project for
// links (see BenchmarkGateBashInRepo).
var repoLines = map[string]string{
	"status":  "git status",
	"grep-r":  "grep -rn TODO .",
	"listed":  "find . -name '*.go' | xargs grep -l TODO",
	"catsubs": "cat $(git ls-files '*.md')",
	"commit":  "git add -A && git commit -m wip && git status",
}

// BenchmarkGateBashInRepo is BenchmarkGateBash with this module's own
// tree (a few thousand files, read only) as the workdir, so that the
// walks of the project (its links, a tree a line reads) cost what they
// cost in a real repository.
func BenchmarkGateBashInRepo(b *testing.B) {
	wd, err := filepath.Abs("..")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(wd, "go.mod")); err != nil {
		b.Skip("run from the permission package's directory (as go test does): the module's tree is the workdir")
	}
	allow := PolicyFunc(func(context.Context, Call) (Verdict, error) { return Verdict{Decision: Allow}, nil })
	g := NewGate(GateOptions{Policy: allow, Workdir: wd, HomeDir: b.TempDir(),
		Protected: []string{filepath.Join(wd, ".git", "config"), filepath.Join(wd, ".git", "hooks")}})
	for name, line := range repoLines {
		in, _ := json.Marshal(map[string]string{"command": line})
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := g.Decide(context.Background(), Call{Name: "bash", Input: in}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
