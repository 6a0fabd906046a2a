package permission_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/permission"
)

// A program the line runs through a symbolic link out of the workdir is
// judged by where the link leads: a link to a system program of another
// name (x → kill, rb → /usr/sbin/reboot → systemctl) is opaque, however the
// line reaches it (a path, a cd, PATH into the workdir, a wrapper). A link
// whose every hop keeps the name the analysis judges (.venv/bin/python →
// python3), a link in a system directory (/usr/bin/awk → mawk), a program
// the workdir holds and a link that stays in the workdir are not.
func TestLinkedProgramsAreJudgedByTheirTarget(t *testing.T) {
	t.Parallel()
	kill, err := findProgram("kill")
	if err != nil {
		tooltest.Missing(t, fmt.Sprintf("no kill program: %v", err), tooltest.CanaryTools)
	}
	python, _ := findProgram("python3")
	wd := t.TempDir()
	for _, d := range []string{"tools", "sub", ".venv/bin"} {
		if err := os.MkdirAll(filepath.Join(wd, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"x":             kill,
		"tools/fmt":     kill,
		"sub/y":         filepath.Join(wd, "x"), // a link to a link out
		".venv/bin/zap": kill,
		"kill":          kill,
		"mine":          "own.sh",
	}
	if python != "" {
		links[".venv/bin/python"] = python
	}
	for l, to := range links {
		if err := os.Symlink(to, filepath.Join(wd, l)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(wd, "own.sh"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + filepath.Join(wd, ".venv/bin") + ":/usr/bin:/bin"}
	g := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: wd, HomeDir: t.TempDir(),
		BashEnv: func() []string { return env }})
	for _, line := range []string{
		"./x -9 1234", "tools/fmt 1234", "./tools/fmt 1", "cd tools && ./fmt 1", "sub/y 1",
		"nice ./x 1", "env ./x 1", "timeout 5 ./x 1", "zap 1", ".venv/bin/zap 1", "bash -c './x 1'",
		"ls; ./x 1", "/usr/bin/true && ./x 1",
	} {
		if out := authorize(t, g, line); out.Run || out.Verdict.RuleID != permission.RuleBashAnalysis {
			t.Errorf("%q: run %v, verdict %+v; want the analysis to ask", line, out.Run, out.Verdict)
		}
	}
	ok := []string{"./mine", "./own.sh", "/usr/bin/awk 1 own.sh", "awk 1 own.sh"}
	if python != "" {
		ok = append(ok, ".venv/bin/python own.sh", "python own.sh")
	}
	for _, line := range ok {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("%q was refused: %+v", line, out.Verdict)
		}
	}
}

// findProgram returns the real file of the program name in /usr/bin or
// /bin.
func findProgram(name string) (string, error) {
	p, err := filepath.EvalSymlinks(filepath.Join("/usr/bin", name))
	if err != nil {
		p, err = filepath.EvalSymlinks(filepath.Join("/bin", name))
	}
	return p, err
}
