//go:build linux

package sandbox_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/sandbox"
	"github.com/lite-agent/lite-agent-go/sandbox/sandboxtest"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A round-127 project: <dir>/project is the workdir, a git repository
// with one commit, and <dir>/home the fake HOME beside it, where the
// attacks try to leave <dir>/home/pwned by making git, run later outside
// the sandbox, run a command.
type rt127 struct {
	dir, wd, home string
	env           []string
}

func newRT127(t *testing.T) *rt127 {
	t.Helper()
	return newRT127On(t, hostDir(t))
}

// newRT127On is newRT127 with the project and the home in dir.
func newRT127On(t *testing.T, dir string) *rt127 {
	t.Helper()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	p := &rt127{dir: dir, wd: filepath.Join(dir, "project"), home: filepath.Join(dir, "home")}
	for _, d := range []string{p.wd, p.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p.env = []string{"HOME=" + p.home, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com",
		"GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com", "GIT_ALLOW_PROTOCOL=file"}
	p.git(t, p.wd, "init", "-q", ".")
	writeFile(t, filepath.Join(p.wd, "README"), "hello\n")
	p.git(t, p.wd, "add", "README")
	p.git(t, p.wd, "commit", "-q", "-m", "init")
	return p
}

// git runs git in dir outside the sandbox, as the user would later.
func (p *rt127) git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), p.env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// sandbox builds the project's sandbox as the CLI does.
func (p *rt127) sandbox(t *testing.T) *sandbox.Bubblewrap {
	t.Helper()
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{
		Workdir: p.wd, Storage: storage.Options{Namespace: "acme", Home: filepath.Join(p.home, ".acme")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return sandboxtest.Bubblewrap(t, sandbox.ProjectOptions(paths, p.home))
}

// bash runs line with bash -c in the workdir inside sb, as the CLI runs
// a bash line, and returns its output; a failing line is not an error.
func (p *rt127) bash(t *testing.T, sb sandbox.Sandbox, line string) string {
	t.Helper()
	out, _ := runWith(t, sb, "bash", p.wd, line, p.env...)
	return out
}

// pwned is the command the attacks plant; it leaves <home>/pwned.
func (p *rt127) pwned() string { return "echo pwned >> " + filepath.Join(p.home, "pwned") }

// checkHome fails the test when a planted command ran outside the
// sandbox.
func (p *rt127) checkHome(t *testing.T, what string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(p.home, "pwned")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s ran a command the sandboxed line planted: it wrote ../home/pwned", what)
	}
}

// plantHook is the line that writes, as an executable pre-commit hook
// running p.pwned, the file hooks/pre-commit.
func (p *rt127) plantHook(hooks string) string {
	return "printf '#!/bin/sh\\n" + p.pwned() + "\\n' > " + hooks + "/pre-commit; chmod +x " + hooks + "/pre-commit"
}

// commitOutside commits a new file in the repository at dir with git run
// outside the sandbox, and checks that no hook a sandboxed command planted
// ran.
func (p *rt127) commitOutside(t *testing.T, dir string) {
	t.Helper()
	writeFile(t, filepath.Join(dir, "b.txt"), "b\n")
	p.git(t, dir, "add", "b.txt")
	p.git(t, dir, "commit", "-q", "-m", "b")
	p.checkHome(t, "git commit in "+dir)
}

// addSubmodule makes a repository of one commit beside the workdir and
// adds it, checked out, as the submodule lib of the workdir's repository,
// whose git directory is then .git/modules/lib.
func (p *rt127) addSubmodule(t *testing.T) {
	t.Helper()
	lib := filepath.Join(p.dir, "libsrc")
	p.git(t, p.dir, "init", "-q", lib)
	writeFile(t, filepath.Join(lib, "lib.txt"), "lib\n")
	p.git(t, lib, "add", "lib.txt")
	p.git(t, lib, "commit", "-q", "-m", "lib")
	p.git(t, p.wd, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib")
	p.git(t, p.wd, "commit", "-q", "-m", "submodule")
}

// fsmonitor is a git configuration whose core.fsmonitor runs p.pwned.
func (p *rt127) fsmonitor() string {
	return "[core]\n\tfsmonitor = \"" + p.pwned() + "; false\"\n"
}

// A hook manager's core.hooksPath (husky's .husky/_) names a directory in
// the workdir: a hook a sandboxed command put there ran at the user's
// next git commit. So did one in .githooks, which a relative
// core.hooksPath in the user's ~/.gitconfig names in every worktree.
func TestRT127HooksPathDirectoryIsReadOnly(t *testing.T) {
	for _, global := range []bool{false, true} {
		t.Run(fmt.Sprint("global=", global), func(t *testing.T) { testHooksPath(t, global) })
	}
}

func testHooksPath(t *testing.T, global bool) {
	p := newRT127(t)
	dir := ".husky/_"
	if global {
		dir = ".githooks"
		p.git(t, p.wd, "config", "--global", "core.hooksPath", dir)
	} else {
		p.git(t, p.wd, "config", "core.hooksPath", dir)
	}
	writeFile(t, filepath.Join(p.wd, dir, ".gitignore"), "*\n")
	sb := p.sandbox(t)
	p.bash(t, sb, p.plantHook(dir))
	p.commitOutside(t, p.wd)
	// Ordinary work goes on: a commit inside the sandbox.
	if out := p.bash(t, sb, "echo a > a.txt && git add a.txt && git commit -q -m a && echo committed"); !strings.Contains(out, "committed") {
		t.Fatalf("git commit in the sandbox: %s", out)
	}
}

// include.path and includeIf.*.path name files in the workdir (the
// shared ../.gitconfig many projects ask contributors to include, and an
// optional local one that does not exist yet): a core.fsmonitor put in
// either ran at the user's next git status. The missing one is covered by
// an empty file, which git reads as no settings.
func TestRT127IncludedConfigFilesAreReadOnly(t *testing.T) {
	p := newRT127(t)
	writeFile(t, filepath.Join(p.wd, ".gitconfig"), "[alias]\n\tst = status\n")
	p.git(t, p.wd, "add", ".gitconfig")
	p.git(t, p.wd, "commit", "-q", "-m", "shared config")
	p.git(t, p.wd, "config", "include.path", "../.gitconfig")
	p.git(t, p.wd, "config", "includeIf.gitdir:/nowhere/.path", "../.gitconfig.local")
	p.git(t, p.wd, "config", "--add", "include.path", "../.gitconfig.local")
	sb := p.sandbox(t)
	p.bash(t, sb, "printf '"+p.fsmonitor()+"' >> .gitconfig; printf '"+p.fsmonitor()+"' > .gitconfig.local")
	p.git(t, p.wd, "status", "--short")
	p.checkHome(t, "git status")
	if b, err := os.ReadFile(filepath.Join(p.wd, ".gitconfig.local")); err == nil && len(b) != 0 {
		t.Errorf(".gitconfig.local = %q, want it missing or empty", b)
	}
	if out := p.bash(t, sb, "echo a > a.txt && git add a.txt && git commit -q -m a && git st --short && echo committed"); !strings.Contains(out, "committed") {
		t.Fatalf("git commit in the sandbox: %s", out)
	}
}

// In a main checkout with a linked worktree, .git/worktrees/NAME/commondir
// says where that worktree's configuration lives: pointed at a copy of the
// git directory with a core.fsmonitor, it ran at git status in the linked
// worktree.
func TestRT127LinkedWorktreesAreReadOnly(t *testing.T) {
	p := newRT127(t)
	wt := filepath.Join(p.dir, "wt")
	p.git(t, p.wd, "worktree", "add", "-q", wt)
	sb := p.sandbox(t)
	p.bash(t, sb, "cp -r .git eg && printf '"+p.fsmonitor()+"' >> eg/config && echo "+filepath.Join(p.wd, "eg")+" > .git/worktrees/wt/commondir")
	p.git(t, wt, "status", "--short")
	p.checkHome(t, "git status in the linked worktree")
	if out := p.bash(t, sb, "echo a > a.txt && git add a.txt && git commit -q -m a && echo committed"); !strings.Contains(out, "committed") {
		t.Fatalf("git commit in the sandbox: %s", out)
	}
}

// A submodule's git directory lies in .git/modules/NAME: a core.fsmonitor
// put in its config ran at the user's git status in the superproject,
// which looks into every checked-out submodule, and a hook put in its
// hooks at a commit in the submodule.
func TestRT127SubmoduleGitDirectoriesAreReadOnly(t *testing.T) {
	p := newRT127(t)
	p.addSubmodule(t)
	sb := p.sandbox(t)
	p.bash(t, sb, "printf '"+p.fsmonitor()+"' >> .git/modules/lib/config; printf '#!/bin/sh\\n"+p.pwned()+"\\n' > .git/modules/lib/hooks/pre-commit; chmod +x .git/modules/lib/hooks/pre-commit")
	p.git(t, p.wd, "status", "--short")
	writeFile(t, filepath.Join(p.wd, "lib", "x.txt"), "x\n")
	p.git(t, filepath.Join(p.wd, "lib"), "add", "x.txt")
	p.git(t, filepath.Join(p.wd, "lib"), "commit", "-q", "-m", "x")
	p.checkHome(t, "git status in the superproject or git commit in the submodule")
	if out := p.bash(t, sb, "echo a > a.txt && git add a.txt && git commit -q -m a && echo y > lib/y.txt && git -C lib add y.txt && git -C lib commit -q -m y && echo committed"); !strings.Contains(out, "committed") {
		t.Fatalf("git commit in the sandbox: %s", out)
	}
}

// The kernel's keyrings are not namespaced: a sandboxed command could
// read, and change, the keys of the session keyring the agent runs in
// (Kerberos tickets, tokens put there with keyctl). The seccomp filter
// now refuses add_key, request_key and keyctl, with or without
// AllowUnixSockets.
func TestRT127SessionKeyringIsOutOfReach(t *testing.T) {
	tooltest.Need(t, tooltest.CanaryTools, "perl")
	nr := map[string][2]int{"amd64": {249, 250}, "arm64": {218, 219}}[runtime.GOARCH]
	if nr[0] == 0 {
		t.Skip("the seccomp filter is for amd64 and arm64")
	}
	// A session keyring of this thread alone, which the commands started
	// from it inherit.
	runtime.LockOSThread() // never unlocked: the thread ends with the test
	if _, err := unix.KeyctlJoinSessionKeyring("rt127-test"); err != nil {
		t.Skipf("no keyrings here: %v", err)
	}
	name := "rt127-" + filepath.Base(t.TempDir())
	id, err := unix.AddKey("user", name, []byte("KEYSECRET"), unix.KEY_SPEC_SESSION_KEYRING)
	if err != nil {
		t.Skipf("add_key: %v", err)
	}
	t.Cleanup(func() { unix.KeyctlInt(unix.KEYCTL_INVALIDATE, id, 0, 0, 0) })
	read := fmt.Sprintf(`perl -e 'my ($t, $d) = ("user", "%s"); $id = syscall(%d, $t, $d, 0, 0); $b = "\0" x 64; $n = syscall(%d, 11, $id, $b, 64); print $n > 0 ? "read:" . substr($b, 0, $n) . "\n" : "refused: $!\n"'`, name, nr[0], nr[1])
	wd := hostDir(t)
	for _, unixSockets := range []bool{false, true} {
		sb := sandboxtest.Bubblewrap(t, sandbox.Options{Workdir: wd, AllowUnixSockets: unixSockets})
		out := mustRun(t, sb, wd, read)
		if strings.Contains(out, "KEYSECRET") || !strings.Contains(out, "refused") {
			t.Errorf("AllowUnixSockets=%v: the sandboxed command reached the session keyring: %q", unixSockets, out)
		}
	}
	// Outside the sandbox the same command reads the key.
	cmd := exec.Command("/bin/sh", "-c", read)
	if out, _ := cmd.CombinedOutput(); !strings.Contains(string(out), "read:KEYSECRET") {
		t.Errorf("outside the sandbox the key should be readable: %q", out)
	}
}

// The agent's environment holds its provider's key (ANTHROPIC_API_KEY)
// and often other tokens: an allowed python3 x.py printed them from its
// environment, and any command read them from bubblewrap's
// /proc/1/environ. A project's sandbox now leaves every credential
// variable out (HideCredentialEnv, set by ProjectOptions), and a host adds the
// ones it knows by other names.
func TestRT127CredentialVariablesAreHidden(t *testing.T) {
	paths, home := project(t)
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-RT127SECRET")
	t.Setenv("GITHUB_TOKEN", "ghp_RT127SECRET")
	t.Setenv("RT127_PLAIN", "visible")
	opts := sandbox.ProjectOptions(paths, home)
	opts.HiddenEnv = append(opts.HiddenEnv, "MY_STORE")
	sb := sandboxtest.Bubblewrap(t, opts)
	out := mustRun(t, sb, paths.Workdir(), `echo "env:$ANTHROPIC_API_KEY:$GITHUB_TOKEN:$MY_STORE:$RT127_PLAIN"; tr '\0' '\n' < /proc/1/environ | grep RT127; cat /proc/self/environ /proc/$$/environ | tr '\0' '\n' | grep RT127SECRET; true`, "MY_STORE=store-RT127SECRET")
	if strings.Contains(out, "RT127SECRET") {
		t.Errorf("a credential variable reached the sandboxed command: %q", out)
	}
	if !strings.Contains(out, "env::::visible") {
		t.Errorf("the other variables should stay: %q", out)
	}
}

// A credential store the environment moves out of the home (GNUPGHOME,
// AWS_SHARED_CREDENTIALS_FILE, CARGO_HOME's credentials) was readable in
// the sandbox, though the gate asks before a line reads it: cat printed
// the keys. It is hidden now as ~/.gnupg is; pip's settings file, which
// programs need, stays visible as ~/.config/pip/pip.conf does.
func TestRT127CredentialsTheEnvironmentMovesAreHidden(t *testing.T) {
	paths, home := project(t)
	elsewhere := hostDir(t)
	secrets := map[string]string{
		"GNUPGHOME":                   "gnupg/private-keys-v1.d/k.key",
		"AWS_SHARED_CREDENTIALS_FILE": "aws/credentials",
		"CARGO_HOME":                  "cargo/credentials.toml",
	}
	var cat []string
	for name, rel := range secrets {
		writeFile(t, filepath.Join(elsewhere, rel), "RT127SECRET")
		value := filepath.Join(elsewhere, strings.SplitN(rel, "/", 2)[0])
		if name == "AWS_SHARED_CREDENTIALS_FILE" {
			value = filepath.Join(elsewhere, rel)
		}
		t.Setenv(name, value)
		cat = append(cat, filepath.Join(elsewhere, rel))
	}
	writeFile(t, filepath.Join(elsewhere, "pip.conf"), "[global]\nindex-url = https://example.com/simple\n")
	t.Setenv("PIP_CONFIG_FILE", filepath.Join(elsewhere, "pip.conf"))
	sb := sandboxtest.Bubblewrap(t, sandbox.ProjectOptions(paths, home))
	out, _ := run(t, sb, paths.Workdir(), "cat "+strings.Join(cat, " ")+"; cat "+filepath.Join(elsewhere, "pip.conf"))
	if strings.Contains(out, "RT127SECRET") {
		t.Errorf("a credential store the environment names was readable: %q", out)
	}
	if !strings.Contains(out, "index-url") {
		t.Errorf("pip's settings should stay readable: %q", out)
	}
}

// A symbolic link on the way to a protected path (.git -> realgit, as a
// project that keeps its git directory beside the worktree has) was
// replaceable: the protection followed the link to realgit/config, and a
// command pointed .git at a copy with a core.fsmonitor, which the user's
// git status then ran. The directory holding such a link now stays
// read-only, here the workdir itself, as it does when .git is a gitdir:
// file.
func TestRT127LinkOnTheWayToAProtectedPathIsKept(t *testing.T) {
	p := newRT127(t)
	if err := os.Rename(filepath.Join(p.wd, ".git"), filepath.Join(p.wd, "realgit")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("realgit", filepath.Join(p.wd, ".git")); err != nil {
		t.Fatal(err)
	}
	p.git(t, p.wd, "status", "--short")
	sb := p.sandbox(t)
	p.bash(t, sb, "cp -r realgit evilgit && printf '"+p.fsmonitor()+"' >> evilgit/config && rm .git && ln -s evilgit .git")
	p.git(t, p.wd, "status", "--short")
	p.checkHome(t, "git status")
	if target, err := os.Readlink(filepath.Join(p.wd, ".git")); err != nil || target != "realgit" {
		t.Errorf(".git -> %q, %v; want realgit", target, err)
	}
}

// In a project without a repository, the workdir itself became one: a
// command wrote HEAD, objects/, refs/ and a config whose core.worktree is
// . and whose core.fsmonitor ran at the user's git status there (git,
// finding no repository in the empty .git, takes a directory holding
// HEAD, objects and refs for a git directory). HEAD is now covered by an
// empty read-only file when .git holds no repository.
func TestRT127WorkdirCannotBecomeARepository(t *testing.T) {
	p := newRT127(t)
	if err := os.RemoveAll(filepath.Join(p.wd, ".git")); err != nil {
		t.Fatal(err)
	}
	p.env = append(p.env, "GIT_CEILING_DIRECTORIES="+p.dir)
	sb := p.sandbox(t)
	p.bash(t, sb, "git init -q --bare /tmp/b; cp -r /tmp/b/HEAD /tmp/b/objects /tmp/b/refs . ; printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = .\\n\\tfsmonitor = \""+p.pwned()+"; false\"\\n' > config")
	cmd := exec.Command("git", "status", "--short")
	cmd.Dir = p.wd
	cmd.Env = append(os.Environ(), p.env...)
	cmd.Run() // fails outside a repository
	p.checkHome(t, "git status")
	if b, err := os.ReadFile(filepath.Join(p.wd, "HEAD")); err == nil && len(b) != 0 {
		t.Errorf("HEAD = %q, want it empty", b)
	}
	if out := p.bash(t, sb, "echo ok > notes.txt && cat notes.txt"); !strings.Contains(out, "ok") {
		t.Errorf("the workdir should stay writable: %s", out)
	}
}

// A missing .git/commondir was left writable (a read-only .git would stop
// every commit): a command created it naming a copy of the git directory
// with a core.fsmonitor, and the user's git status ran it. The same held
// for config.worktree once extensions.worktreeConfig is set. Both are now
// created before the command and bound read-only: commondir holding ".",
// which git reads as no commondir, config.worktree empty.
func TestRT127MissingCommondirAndConfigWorktreeCannotBeCreated(t *testing.T) {
	for _, tt := range []struct {
		name, setup, attack string
	}{
		{"commondir", "", "cp -r .git eg && printf '%s' >> eg/config && echo ../eg > .git/commondir"},
		{"config.worktree", "extensions.worktreeConfig", "printf '%s' > .git/config.worktree"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := newRT127(t)
			if tt.setup != "" {
				p.git(t, p.wd, "config", "core.repositoryformatversion", "1")
				p.git(t, p.wd, "config", tt.setup, "true")
			}
			sb := p.sandbox(t)
			p.bash(t, sb, fmt.Sprintf(tt.attack, p.fsmonitor()))
			p.git(t, p.wd, "status", "--short")
			p.checkHome(t, "git status")
			if out := p.bash(t, sb, "echo a > a.txt && git add a.txt && git commit -q -m a && echo committed"); !strings.Contains(out, "committed") {
				t.Fatalf("git commit in the sandbox: %s", out)
			}
			if log := p.git(t, p.wd, "log", "--format=%s"); log != "a\ninit\n" {
				t.Errorf("git log outside = %q", log)
			}
		})
	}
}
