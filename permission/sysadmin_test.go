package permission_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// allowAll is the "allow bash" policy: only the gate's own screening
// refuses.
var allowAll = permission.PolicyFunc(func(context.Context, permission.Call) (permission.Verdict, error) {
	return permission.Verdict{Decision: permission.Allow}, nil
})

// authorize decides the bash line with g.
func authorize(t *testing.T, g *permission.Gate, line string) permission.Outcome {
	t.Helper()
	in, _ := json.Marshal(map[string]string{"command": line})
	out, err := g.Authorize(t.Context(), permission.Call{Name: "bash", Input: in})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A line refused for signalling a process an earlier call started tells
// the model how to stop one it started: run_in_background and the
// KillBackground tool, or kill $! in the line that starts it.
func TestKillReasonPointsAtBackgroundTools(t *testing.T) {
	t.Parallel()
	g := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: t.TempDir(), HomeDir: t.TempDir()})
	for _, line := range []string{"pkill -f 'npm run dev'", "kill 12345", "killall node", "kill -9 $(cat .pid)",
		"fuser -k 3000/tcp", "kill-port 3000"} {
		out := authorize(t, g, line)
		res := out.Result().Content
		if out.Run || !strings.Contains(res, "KillBackground") || !strings.Contains(res, "run_in_background") {
			if strings.Contains(res, "gets a word only known when it runs") {
				continue // kill $(…): refused before its program is judged
			}
			t.Errorf("%q: run %v, result %q does not point at KillBackground", line, out.Run, res)
		}
	}
}

// A program the analysis does not model is opaque when bash would run it
// from an sbin directory: found there by the PATH of the line's
// environment (or, unknown, the gate's own), named by a path into one, or
// a link to one. A program of a bin directory, or of an sbin directory
// that is a link to one (merged /usr), is not; nor --help.
func TestAdminProgramsInSbin(t *testing.T) {
	dir := t.TempDir()
	sbin, bin := filepath.Join(dir, "sbin"), filepath.Join(dir, "bin")
	merged := filepath.Join(dir, "m", "bin")
	for _, d := range []string{sbin, bin, merged} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{filepath.Join(sbin, "rt51admin"), filepath.Join(bin, "rt51tool"), filepath.Join(merged, "rt51merged"),
		filepath.Join(sbin, "rt51noexec")} {
		mode := os.FileMode(0o755)
		if strings.HasSuffix(p, "noexec") {
			mode = 0o644
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(sbin, "rt51admin"), filepath.Join(bin, "rt51link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("bin", filepath.Join(dir, "m", "sbin")); err != nil {
		t.Fatal(err)
	}
	path := "PATH=" + strings.Join([]string{bin, sbin, filepath.Join(dir, "m", "sbin"), "/usr/bin", "/bin"}, ":")
	g := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: t.TempDir(), HomeDir: t.TempDir(),
		BashEnv: func() []string { return []string{"HOME=/nowhere", path} }})
	for _, line := range []string{"rt51admin -D", "nice rt51admin", "rt51link", "ls && rt51admin", "bash -c rt51admin",
		filepath.Join(sbin, "rt51admin") + " -D", filepath.Join(sbin, "missing"), "rt51admin -k stop --help"} {
		if out := authorize(t, g, line); out.Run {
			t.Errorf("%q was allowed", line)
		} else if !strings.Contains(out.Verdict.Reason, "system administration program") {
			t.Errorf("%q: reason %q", line, out.Verdict.Reason)
		}
	}
	for _, line := range []string{"rt51tool x", "rt51merged x", "rt51admin --help", "rt51noexec", "ls", "rt51missing",
		"/usr/sbin/logsave /dev/null ls"} {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("%q was refused: %s", line, out.Verdict.Reason)
		}
	}
	// An unknown environment: the gate's own PATH is the guess.
	t.Setenv("PATH", sbin)
	g = permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: t.TempDir(), HomeDir: t.TempDir()})
	if out := authorize(t, g, "rt51admin -D"); out.Run {
		t.Errorf("rt51admin by the gate's own PATH was allowed")
	}
}
