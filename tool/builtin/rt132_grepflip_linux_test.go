//go:build linux

package builtin_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// gatedSearchTools returns the search tools of ws behind a gate on
// policy, with the Readable filter an agent gives them: the policy's
// read_file verdict.
func gatedSearchTools(t *testing.T, ws string, policy permission.Policy) []tool.Tool {
	t.Helper()
	readable := func(ctx context.Context, sessionID, p string) (bool, error) {
		input, err := json.Marshal(map[string]string{"path": p})
		if err != nil {
			return false, err
		}
		v, err := policy.Check(ctx, permission.Call{Name: "read_file", Input: input, SessionID: sessionID})
		return err == nil && v.Decision == permission.Allow, err
	}
	search, err := builtin.SearchTools(builtin.FileOptions{Workdir: ws}, builtin.SearchOptions{Readable: readable})
	if err != nil {
		t.Fatal(err)
	}
	return permission.NewGate(permission.GateOptions{Policy: policy}).WrapAll(search)
}

// TestASearchThroughAFlippedDirectoryNeverReadsADeniedFile (rt132files):
// a child process flips "d" between a plain directory and a symbolic link
// to the denied "secrets/" (a link inside the workspace, as a cloned
// repository or a `git checkout` loop between two branches plants it) in
// a tight loop, while grep searches d/key and d, and list_dir lists d,
// behind the gate and with the read_file filter an agent gives them. The
// gate and the filter judge the names as they are at their check; grep
// then opened what the name led to, following a link that stays inside
// the workspace: no result may show the secret. The same searches of a
// directory that stays put find its lines, as before.
func TestASearchThroughAFlippedDirectoryNeverReadsADeniedFile(t *testing.T) {
	ws := t.TempDir()
	for _, d := range []string{"secrets", "d", "plain"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(ws, "secrets", "key"), "SECRET=key")
	writeFile(t, filepath.Join(ws, "d", "key"), "plain key")
	writeFile(t, filepath.Join(ws, "plain", "key"), "plain key")
	symlink(t, "secrets", filepath.Join(ws, "dl"))
	policy, _ := gatedFileTools(t, ws)
	tools := gatedSearchTools(t, ws, policy)

	// The ordinary case first, before anything flips.
	for _, c := range []struct{ tool, in, want string }{
		{"grep", `{"pattern":"key","path":"plain/key"}`, "plain/key:1: plain key"},
		{"grep", `{"pattern":"key","path":"plain"}`, "plain/key:1: plain key"},
		{"grep", `{"pattern":"key","path":"d"}`, "d/key:1: plain key"},
		{"list_dir", `{"path":"plain"}`, "key (file, 9 bytes)"},
	} {
		if res := call(t, byName(t, tools, c.tool), c.in); res.IsError || !strings.Contains(res.Content, c.want) {
			t.Errorf("%s %s = %q, want %q", c.tool, c.in, res.Content, c.want)
		}
	}
	for _, in := range []string{`{"pattern":"SECRET","path":"dl/key"}`, `{"pattern":"SECRET","path":"dl"}`} {
		if res := call(t, byName(t, tools, "grep"), in); strings.Contains(res.Content, "SECRET") {
			t.Errorf("grep %s through the link itself = %q, want the secret left out", in, res.Content)
		}
	}

	startSwapper(t, filepath.Join(ws, "d"), filepath.Join(ws, "dl"))
	steps := []struct{ tool, in string }{
		{"grep", `{"pattern":"key","path":"d/key"}`},
		{"grep", `{"pattern":"key","path":"d"}`},
		{"grep", `{"pattern":"key","path":"d","include":"key"}`},
	}
	const rounds = 1500
	var calls, found, leaks int
	for range rounds {
		for _, s := range steps {
			res := call(t, byName(t, tools, s.tool), s.in)
			calls++
			if strings.Contains(res.Content, "plain key") {
				found++
			}
			if strings.Contains(res.Content, "SECRET") {
				leaks++
				if leaks <= 3 {
					t.Errorf("%s %s returned a denied file: %.300q", s.tool, s.in, res.Content)
				}
			}
		}
	}
	t.Logf("%d calls, %d found the plain key, %d returned the secret", calls, found, leaks)
	if leaks > 0 {
		t.Errorf("%d of %d searches returned a file the gate denies", leaks, calls)
	}
	if found == 0 {
		t.Errorf("no search found the plain key in %d: the test exercised nothing", calls)
	}
}

// TestASearchThroughACheckoutLoopNeverReadsADeniedFile (rt132files) is the
// case above with the ground prepared by a real bash, as the agent's bash
// tool would run it behind the gate: a repository whose branch A holds
// the directory d and whose branch B has d as a symbolic link to the
// denied secrets/ (what a cloned repository may hold), and the background
// line `while :; do git checkout -q A; git checkout -q B; done`, which the
// gate allows. A grep of the workspace looks at a/ first, long enough for
// d to become the link before the walk opens it, and for d to be a
// directory again when the filter judges the names found through it: it
// must never show a line of secrets/.
func TestASearchThroughACheckoutLoopNeverReadsADeniedFile(t *testing.T) {
	for _, prog := range []string{"bash", "git"} {
		if _, err := exec.LookPath(prog); err != nil {
			t.Skipf("no %s: %v", prog, err)
		}
	}
	ws := t.TempDir()
	bash := func(line string) *exec.Cmd {
		cmd := exec.Command("bash", "-c", line)
		cmd.Dir = ws
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+ws, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		return cmd
	}
	prepare := `set -e
git init -q -b main .
printf 'secrets/\n' > .gitignore
mkdir secrets d a
for i in $(seq 1000); do echo SECRET=key > secrets/key$i; echo 'plain a' > a/f$i; done
echo 'plain key' > d/key
git add .gitignore a d && git commit -qm A && git branch A
git rm -rq d && ln -s secrets d && git add d && git commit -qm B && git branch B
git checkout -q A`
	if out, err := bash(prepare).CombinedOutput(); err != nil {
		t.Skipf("preparing the repository: %v: %s", err, out)
	}
	policy, _ := gatedFileTools(t, ws)
	tools := gatedSearchTools(t, ws, policy)
	if res := call(t, byName(t, tools, "grep"), `{"pattern":"key","path":"d"}`); !strings.Contains(res.Content, "d/key:1: plain key") {
		t.Fatalf("grep of d on branch A = %q", res.Content)
	}
	loop := bash(`while :; do git checkout -q A 2>/dev/null; git checkout -q B 2>/dev/null; done`)
	loop.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := loop.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-loop.Process.Pid, syscall.SIGKILL)
		_ = loop.Wait()
	})
	var calls, found, leaks int
	for deadline := time.Now().Add(4 * time.Second); time.Now().Before(deadline); {
		for _, in := range []string{`{"pattern":"key"}`, `{"pattern":"key","path":"d"}`} {
			res := call(t, byName(t, tools, "grep"), in)
			calls++
			if strings.Contains(res.Content, "plain key") {
				found++
			}
			if strings.Contains(res.Content, "SECRET") {
				leaks++
				if leaks <= 3 {
					t.Errorf("grep %s returned a denied file: %.300q", in, res.Content)
				}
			}
		}
	}
	t.Logf("%d calls, %d found the plain key, %d returned the secret", calls, found, leaks)
	if leaks > 0 {
		t.Errorf("%d of %d searches returned a file the gate denies", leaks, calls)
	}
	if found == 0 {
		t.Errorf("no search found the plain key in %d: the test exercised nothing", calls)
	}
}

// TestAGrepOfAFlippedLinkInTheHomeAsksForTheKey (rt132files): in a
// workspace holding the home, the gate asks about grep of a credential
// location (file-secret-read), but only by the path it resolved when it
// decided; grep resolved the path again, following links, and the
// read_file filter it is given is the policy's, which does not know the
// credential locations. A child flips repo/d between a directory and a
// link to ../.ssh (a cloned repository's branch, checked out in a loop):
// a grep of repo/d allowed while d was a directory then searched .ssh and
// printed the key. The gate now checks what grep opened, as it does for
// read_file; a grep of a directory that stays put is allowed as before.
func TestAGrepOfAFlippedLinkInTheHomeAsksForTheKey(t *testing.T) {
	const key = "-----BEGIN OPENSSH PRIVATE KEY----- home"
	home := t.TempDir()
	for _, d := range []string{".ssh", "repo/d", "repo/plain"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(home, ".ssh", "id_ed25519"), key)
	writeFile(t, filepath.Join(home, "repo", "d", "id_ed25519"), "plain PRIVATE")
	writeFile(t, filepath.Join(home, "repo", "plain", "x"), "plain PRIVATE")
	symlink(t, "../.ssh", filepath.Join(home, "repo", "dl"))
	policy, err := permission.New(permission.Options{Allow: []string{"*"}, Workdir: home, HomeDir: home})
	if err != nil {
		t.Fatal(err)
	}
	if policy, err = permission.Workspace(policy, permission.WorkspaceOptions{Workdir: home, HomeDir: home}); err != nil {
		t.Fatal(err)
	}
	readable := func(ctx context.Context, sessionID, p string) (bool, error) {
		input, _ := json.Marshal(map[string]string{"path": p})
		v, err := policy.Check(ctx, permission.Call{Name: "read_file", Input: input, SessionID: sessionID})
		return err == nil && v.Decision == permission.Allow, err
	}
	search, err := builtin.SearchTools(builtin.FileOptions{Workdir: home}, builtin.SearchOptions{Readable: readable})
	if err != nil {
		t.Fatal(err)
	}
	grep := byName(t, permission.NewGate(permission.GateOptions{Policy: policy, Workdir: home, HomeDir: home}).WrapAll(search), "grep")
	for _, c := range []struct{ in, want string }{
		{`{"pattern":"PRIVATE","path":"repo/plain"}`, "repo/plain/x:1: plain PRIVATE"},
		{`{"pattern":"PRIVATE","path":"repo/d"}`, "repo/d/id_ed25519:1: plain PRIVATE"},
		{`{"pattern":"PRIVATE","path":"repo/dl"}`, "needs approval"},
	} {
		if res := call(t, grep, c.in); !strings.Contains(res.Content, c.want) || strings.Contains(res.Content, "home\"") {
			t.Errorf("grep %s = %q, want %q", c.in, res.Content, c.want)
		}
	}

	startSwapper(t, filepath.Join(home, "repo", "d"), filepath.Join(home, "repo", "dl"))
	const rounds = 3000
	var found, leaks int
	for range rounds {
		res := call(t, grep, `{"pattern":"PRIVATE","path":"repo/d"}`)
		if strings.Contains(res.Content, "plain PRIVATE") {
			found++
		}
		if strings.Contains(res.Content, "OPENSSH") {
			leaks++
			if leaks <= 3 {
				t.Errorf("grep of repo/d printed the key: %.300q", res.Content)
			}
		}
	}
	t.Logf("%d greps, %d found the plain file, %d printed the key", rounds, found, leaks)
	if leaks > 0 {
		t.Errorf("%d of %d greps printed the key", leaks, rounds)
	}
	if found == 0 {
		t.Errorf("no grep found the plain file in %d: the test exercised nothing", rounds)
	}
}
