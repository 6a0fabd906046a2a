package sandbox_test

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/sandbox"
	"github.com/lite-agent/lite-agent-go/sandbox/sandboxtest"
	"github.com/lite-agent/lite-agent-go/storage"
)

// run runs script with /bin/sh in dir inside sb and returns its combined
// output and error.
func run(t *testing.T, sb sandbox.Sandbox, dir, script string, env ...string) (string, error) {
	t.Helper()
	return runWith(t, sb, "/bin/sh", dir, script, env...)
}

// runWith runs script with shell -c in dir inside sb, with env added to
// the host's environment, and returns its combined output and error.
func runWith(t *testing.T, sb sandbox.Sandbox, shell, dir, script string, env ...string) (string, error) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), shell, "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if err := sb.Wrap(cmd); err != nil {
		t.Fatalf("Wrap: %v", err)
	}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Start()
	closeExtraFiles(cmd)
	if err == nil {
		err = cmd.Wait()
	}
	return out.String(), err
}

// closeExtraFiles closes what Wrap passed to the started process.
func closeExtraFiles(cmd *exec.Cmd) {
	for _, f := range cmd.ExtraFiles {
		f.Close()
	}
}

// mustRun is run that fails the test when the script fails.
func mustRun(t *testing.T, sb sandbox.Sandbox, dir, script string, env ...string) string {
	t.Helper()
	out, err := run(t, sb, dir, script, env...)
	if err != nil {
		t.Fatalf("%q in the sandbox: %v\n%s", script, err, out)
	}
	return out
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// hostDir returns a new directory on the root file system outside /tmp,
// which the sandbox shows read-only.
func hostDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("/var/tmp", "sandbox-test-")
	if err != nil {
		t.Skipf("no directory outside /tmp to test with: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func TestWritesOutsideTheWritableAreasFail(t *testing.T) {
	wd := hostDir(t)
	outside := hostDir(t)
	extra := hostDir(t)
	sb := sandboxtest.Bubblewrap(t, sandbox.Options{Workdir: wd, Writable: []string{extra}})
	tmpName := fmt.Sprintf("/tmp/sandbox-test-%d", time.Now().UnixNano())

	mustRun(t, sb, wd, "echo in > in.txt && echo extra > "+extra+"/x.txt && echo tmp > "+tmpName+" && cat "+tmpName+" && mktemp", "TMPDIR="+outside)
	if got := readFile(t, filepath.Join(wd, "in.txt")); got != "in\n" {
		t.Errorf("workdir file = %q", got)
	}
	if got := readFile(t, filepath.Join(extra, "x.txt")); got != "extra\n" {
		t.Errorf("writable file = %q", got)
	}
	if _, err := os.Stat(tmpName); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the sandbox's /tmp reached the host: %v", err)
	}
	for _, script := range []string{
		"echo x > " + outside + "/f",
		"mkdir " + outside + "/d",
		"echo x > /etc/sandbox-test",
		"touch " + filepath.Dir(wd) + "/sandbox-test-sibling",
		"mount -o remount,rw /",
		"umount " + wd,
	} {
		if out, err := run(t, sb, wd, script); err == nil {
			t.Errorf("%q succeeded in the sandbox: %s", script, out)
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("outside directory changed: %v", entries)
	}
}

// project makes a workdir with a project config directory and a git
// repository, and a fake user home, and returns the project's paths.
func project(t *testing.T) (storage.ProjectPaths, string) {
	t.Helper()
	wd := hostDir(t)
	home := hostDir(t)
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{
		Workdir: wd,
		Storage: storage.Options{Namespace: "acme", Home: filepath.Join(home, ".acme")},
	})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(paths.ProjectConfigDir, "permissions.json"), `{"version":1,"rules":[]}`)
	writeFile(t, filepath.Join(paths.ProjectConfigDir, "hooks.json"), `{}`)
	writeFile(t, filepath.Join(paths.ProjectConfigDir, "mcps.json"), `{}`)
	writeFile(t, filepath.Join(paths.ProjectAgentsDir, "a.md"), "agent")
	writeFile(t, filepath.Join(paths.ProjectSkillsDir, "s", "SKILL.md"), "skill")
	writeFile(t, filepath.Join(wd, ".git", "config"), "[core]\n")
	writeFile(t, filepath.Join(wd, ".git", "hooks", "pre-commit"), "#!/bin/sh\n")
	return paths, home
}

func TestProtectedPathsAreReadOnly(t *testing.T) {
	paths, home := project(t)
	wd := paths.Workdir()
	sb := sandboxtest.Bubblewrap(t, sandbox.ProjectOptions(paths, home))
	ns := ".acme"

	protected := map[string]string{}
	for _, rel := range []string{ns + "/permissions.json", ns + "/hooks.json", ns + "/mcps.json", ns + "/agents/a.md", ns + "/skills/s/SKILL.md", ".git/config", ".git/hooks/pre-commit"} {
		protected[rel] = readFile(t, filepath.Join(wd, rel))
	}
	attacks := []string{
		"echo '{}' > " + ns + "/permissions.json",
		"echo x >> " + ns + "/hooks.json",
		"rm -f " + ns + "/mcps.json",
		"mv " + ns + "/permissions.json " + ns + "/old",
		"mv " + ns + " moved",
		"rm -rf " + ns,
		"echo x > " + ns + "/agents/a.md",
		"echo x > " + ns + "/agents/b.md",
		"rm -rf " + ns + "/skills",
		"mkdir " + ns + "/skills/t",
		"echo x > .git/config",
		"echo x > .git/hooks/post-commit",
		"mv .git/hooks .git/h",
		"mv .git .g",
		"rm -rf .git",
		"ln -sf /dev/null " + ns + "/permissions.json",
	}
	for _, script := range attacks {
		t.Run(script, func(t *testing.T) {
			if out, err := run(t, sb, wd, script); err == nil {
				t.Errorf("%q succeeded: %s", script, out)
			}
			for rel, want := range protected {
				if got, err := os.ReadFile(filepath.Join(wd, rel)); err != nil || string(got) != want {
					t.Fatalf("%s changed: %q, %v", rel, got, err)
				}
			}
		})
	}
	for _, name := range []string{"moved", "old", ".g", ns + "/agents/b.md", ".git/hooks/post-commit"} {
		if _, err := os.Lstat(filepath.Join(wd, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s exists: %v", name, err)
		}
	}
	// The rest of the workdir and of .git stays writable.
	mustRun(t, sb, wd, "echo ok > notes.txt && mkdir -p src && echo x > .git/HEAD2 && rm .git/HEAD2")
}

func TestMissingProtectedPathsCannotBeCreated(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(t *testing.T, paths storage.ProjectPaths)
		script string
		absent string // relative to the workdir
	}{
		{"no config dir", func(*testing.T, storage.ProjectPaths) {}, "mkdir -p .acme && echo x > .acme/hooks.json", ".acme/hooks.json"},
		{"config dir without hooks.json", func(t *testing.T, p storage.ProjectPaths) {
			writeFile(t, filepath.Join(p.ProjectConfigDir, "permissions.json"), "{}")
		}, "echo x > .acme/hooks.json", ".acme/hooks.json"},
		{"no skills dir", func(t *testing.T, p storage.ProjectPaths) {
			writeFile(t, filepath.Join(p.ProjectConfigDir, "hooks.json"), "{}")
		}, "mkdir -p .acme/skills/evil", ".acme/skills"},
		{"no .git", func(*testing.T, storage.ProjectPaths) {}, "mkdir -p .git/hooks && echo x > .git/hooks/pre-commit", ".git/hooks"},
		{"no .git/hooks", func(t *testing.T, p storage.ProjectPaths) {
			writeFile(t, filepath.Join(p.Workdir(), ".git", "config"), "[core]\n")
		}, "mkdir .git/hooks", ".git/hooks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wd := hostDir(t)
			paths, err := storage.ResolveProjectPaths(storage.PathsOptions{
				Workdir: wd, Storage: storage.Options{Namespace: "acme", Home: filepath.Join(hostDir(t), "h")},
			})
			if err != nil {
				t.Fatal(err)
			}
			tt.setup(t, paths)
			sb := sandboxtest.Bubblewrap(t, sandbox.ProjectOptions(paths, hostDir(t)))
			if out, err := run(t, sb, wd, tt.script); err == nil {
				t.Errorf("%q succeeded: %s", tt.script, out)
			}
			if _, err := os.Lstat(filepath.Join(wd, tt.absent)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s was created: %v", tt.absent, err)
			}
			mustRun(t, sb, wd, "echo ok > other.txt")
		})
	}
}

func TestSecretsAndDataHomesAreHidden(t *testing.T) {
	paths, home := project(t)
	secrets := []string{
		".ssh/id_ed25519",
		".aws/credentials",
		".gnupg/private-keys-v1.d/k",
		".config/gcloud/credentials.db",
		".netrc",
		".git-credentials",
		".acme/projects/x/sessions/s.jsonl", // this namespace's data home
		".other/projects/0123456789abcdef/sessions/s.jsonl", // another namespace's
	}
	for _, s := range secrets {
		writeFile(t, filepath.Join(home, s), "SECRET")
	}
	writeFile(t, filepath.Join(home, ".profile"), "visible")
	// The home is made writable so that it is visible at all: the hiding,
	// not the read-only root, must keep the secrets out.
	opts := sandbox.ProjectOptions(paths, home)
	opts.Writable = []string{home}
	cat := "cat " + strings.Join(secrets, " ")

	open := sandboxtest.Bubblewrap(t, sandbox.Options{Workdir: opts.Workdir, Writable: opts.Writable})
	if out := mustRun(t, open, home, cat); !strings.Contains(out, "SECRET") {
		t.Fatalf("without hiding the secrets should be readable: %q", out)
	}

	sb := sandboxtest.Bubblewrap(t, opts)
	for _, s := range secrets {
		if out, err := run(t, sb, home, "cat "+s); err == nil || strings.Contains(out, "SECRET") {
			t.Errorf("%s is readable in the sandbox: %q", s, out)
		}
	}
	if out := mustRun(t, sb, home, "ls -A .ssh .acme; cat .profile"); strings.TrimSpace(out) != ".acme:\n\n.ssh:\nvisible" {
		t.Errorf("hidden directories are not empty or .profile not visible: %q", out)
	}
	if out, err := run(t, sb, home, "echo x > .netrc"); err == nil || readFile(t, filepath.Join(home, ".netrc")) != "SECRET" {
		t.Errorf("hidden .netrc is writable: %s", out)
	}
	if out, err := run(t, sb, home, "echo x > .ssh/authorized_keys"); err == nil {
		t.Errorf("hidden .ssh is writable: %s", out)
	}
	if _, err := os.Stat(filepath.Join(home, ".ssh", "authorized_keys")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("authorized_keys written on the host: %v", err)
	}
}

func TestHiddenMustNotContainTheWorkdir(t *testing.T) {
	wd := t.TempDir()
	_, err := sandbox.NewBubblewrap(t.Context(), sandbox.Options{Workdir: wd, Hidden: []string{filepath.Dir(wd)}})
	var oe *sandbox.OptionsError
	if !errors.As(err, &oe) || oe.Field != "Hidden" {
		t.Fatalf("err = %v, want an *OptionsError for Hidden", err)
	}
}

func TestInvalidOptions(t *testing.T) {
	tests := []struct {
		name  string
		opts  sandbox.Options
		field string
	}{
		{"no workdir", sandbox.Options{}, "Workdir"},
		{"relative workdir", sandbox.Options{Workdir: "w"}, "Workdir"},
		{"relative writable", sandbox.Options{Workdir: "/w", Writable: []string{"x"}}, "Writable"},
		{"root writable", sandbox.Options{Workdir: "/w", Writable: []string{"/"}}, "Writable"},
		{"relative read-only", sandbox.Options{Workdir: "/w", ReadOnly: []string{"x"}}, "ReadOnly"},
		{"relative hidden", sandbox.Options{Workdir: "/w", Hidden: []string{"x"}}, "Hidden"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sandbox.NewBubblewrap(t.Context(), tt.opts)
			var oe *sandbox.OptionsError
			if !errors.As(err, &oe) || oe.Field != tt.field {
				t.Fatalf("err = %v, want an *OptionsError for %s", err, tt.field)
			}
		})
	}
}

func TestMissingBwrapIsUnavailable(t *testing.T) {
	opts := sandbox.Options{Workdir: t.TempDir(), Bwrap: filepath.Join(t.TempDir(), "no-bwrap")}
	_, err := sandbox.NewBubblewrap(t.Context(), opts)
	var ue *sandbox.UnavailableError
	if !errors.Is(err, sandbox.ErrUnavailable) || !errors.As(err, &ue) {
		t.Fatalf("NewBubblewrap: %v, want an *UnavailableError", err)
	}
	sb, err := sandbox.Auto(t.Context(), opts)
	if sb != nil || !errors.Is(err, sandbox.ErrUnavailable) {
		t.Fatalf("Auto = %v, %v; want nil and ErrUnavailable", sb, err)
	}
}

func TestBwrapThatCannotStartIsUnavailable(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "bwrap")
	writeFile(t, fake, "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
	if err := os.Chmod(fake, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := sandbox.NewBubblewrap(t.Context(), sandbox.Options{Workdir: t.TempDir(), Bwrap: fake})
	var ue *sandbox.UnavailableError
	if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "No permissions") {
		t.Fatalf("NewBubblewrap: %v, want an *UnavailableError with bwrap's message", err)
	}
}

func TestWrapRefusesAStartedOrBrokenCommand(t *testing.T) {
	sb := sandboxtest.Bubblewrap(t, sandbox.Options{Workdir: t.TempDir()})
	cmd := exec.Command("/no/such/program-xyz")
	cmd.Err = exec.ErrNotFound
	if err := sb.Wrap(cmd); !errors.Is(err, exec.ErrNotFound) {
		t.Errorf("Wrap of a command with Err: %v", err)
	}
	started := exec.Command("/bin/sh", "-c", "exit 0")
	if err := started.Run(); err != nil {
		t.Fatal(err)
	}
	if err := sb.Wrap(started); err == nil {
		t.Error("Wrap of a started command succeeded")
	}
}

func TestNetworkIsOff(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("needs bash for /dev/tcp")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("HELLO\n"))
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	script := fmt.Sprintf("exec bash -c 'exec 3<>/dev/tcp/127.0.0.1/%d && head -n1 <&3'", port)
	wd := t.TempDir()

	on := sandboxtest.Bubblewrap(t, sandbox.Options{Workdir: wd, Network: true})
	if out := mustRun(t, on, wd, script); !strings.Contains(out, "HELLO") {
		t.Fatalf("with Network the listener should answer: %q", out)
	}
	off := sandboxtest.Bubblewrap(t, sandbox.Options{Workdir: wd})
	if out, err := run(t, off, wd, script); err == nil || strings.Contains(out, "HELLO") {
		t.Fatalf("connected to the host's 127.0.0.1 without Network: %q", out)
	}
}

// processesWith returns the pids of the host's processes whose command
// line contains token.
func processesWith(token string) []string {
	var pids []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), token) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// waitFor polls cond every 20ms until it holds or 20s pass.
func waitFor(cond func() bool) bool {
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return false
}

func TestKillingTheGroupKillsTheSandboxedTree(t *testing.T) {
	wd := t.TempDir()
	sb := sandboxtest.Bubblewrap(t, sandbox.Options{Workdir: wd})
	token := fmt.Sprintf("%d.%d", 3000+os.Getpid()%1000, time.Now().UnixNano()%1_000_000)
	// A child, a grandchild and a daemon that left the session.
	cmd := exec.Command("/bin/sh", "-c", fmt.Sprintf("sleep %[1]s & (sleep %[1]s &) ; setsid sleep %[1]s & sleep %[1]s", token))
	cmd.Dir = wd
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := sb.Wrap(cmd); err != nil {
		t.Fatal(err)
	}
	err := cmd.Start()
	closeExtraFiles(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, pid := range processesWith(token) {
			var p int
			if _, err := fmt.Sscan(pid, &p); err == nil {
				syscall.Kill(p, syscall.SIGKILL)
			}
		}
	})
	if !waitFor(func() bool { return len(processesWith("sleep\x00"+token)) == 4 }) {
		t.Fatalf("the sandboxed sleeps did not start: %v", processesWith(token))
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if !waitFor(func() bool { return len(processesWith("sleep\x00"+token)) == 0 }) {
		t.Fatalf("processes outlived the kill: %v", processesWith("sleep\x00"+token))
	}
}

func TestGitWorksInside(t *testing.T) {
	tooltest.Need(t, tooltest.CanaryTools, "git")
	paths, home := project(t)
	wd := paths.Workdir()
	os.RemoveAll(filepath.Join(wd, ".git"))
	env := []string{"HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com",
		"GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com"}
	git := exec.Command("git", "init", "-q", wd)
	git.Env = append(os.Environ(), env...)
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	sb := sandboxtest.Bubblewrap(t, sandbox.ProjectOptions(paths, home))
	out := mustRun(t, sb, wd, "echo hi > a.txt && git add a.txt && git commit -q -m first && git log --format=%s && git status --short", env...)
	if strings.TrimSpace(out) != "first\n?? .acme/" {
		t.Errorf("git output: %q", out)
	}
	if out, err := run(t, sb, wd, "git config core.hooksPath /tmp", env...); err == nil {
		t.Errorf("git config wrote .git/config: %s", out)
	}
}

func TestNewBubblewrapChangesNothingOnDisk(t *testing.T) {
	wd := hostDir(t)
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{
		Workdir: wd, Storage: storage.Options{Namespace: "acme", Home: filepath.Join(hostDir(t), "h")},
	})
	if err != nil {
		t.Fatal(err)
	}
	sandboxtest.Bubblewrap(t, sandbox.ProjectOptions(paths, hostDir(t)))
	if entries, _ := os.ReadDir(wd); len(entries) != 0 {
		t.Errorf("building the sandbox created %v in the workdir", entries)
	}
}

func TestUnixSocketsAreBlocked(t *testing.T) {
	tooltest.Need(t, tooltest.CanaryTools, "perl")
	wd := t.TempDir()
	sock := filepath.Join(wd, "host.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	script := `perl -e 'use Socket; socket(S, PF_UNIX, SOCK_STREAM, 0) or die "socket: $!\n"; connect(S, pack_sockaddr_un($ARGV[0])) or die "connect: $!\n"; print "connected\n"' ` + sock
	pair := `perl -e 'use Socket; socketpair(A, B, AF_UNIX, SOCK_STREAM, PF_UNSPEC) or die "socketpair: $!\n"; print "pair\n"'`

	allowed := sandboxtest.Bubblewrap(t, sandbox.Options{Workdir: wd, AllowUnixSockets: true})
	if out := mustRun(t, allowed, wd, script); !strings.Contains(out, "connected") {
		t.Fatalf("with AllowUnixSockets the host socket should answer: %q", out)
	}
	sb := sandboxtest.Bubblewrap(t, sandbox.Options{Workdir: wd})
	if out, err := run(t, sb, wd, script); err == nil || !strings.Contains(out, "socket: Operation not permitted") {
		t.Errorf("a Unix socket was made in the sandbox: %q, %v", out, err)
	}
	if out := mustRun(t, sb, wd, pair); !strings.Contains(out, "pair") {
		t.Errorf("socketpair: %q", out)
	}
	// Ordinary programs still run under the filter.
	if out := mustRun(t, sb, wd, "ls / >/dev/null && echo ok"); strings.TrimSpace(out) != "ok" {
		t.Errorf("ls: %q", out)
	}
}

func TestProjectOptionsHidesSecretsAndEveryDataHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv(storage.HomeEnv, "")
	t.Setenv("HOME", home)
	for _, d := range []string{".lite-agent/projects", ".acme/projects/0123456789abcdef", ".other/projects/fedcba9876543210", ".cache/projects/not-a-hash", ".Bad/projects/0123456789abcdef", ".plain"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	wd := t.TempDir()
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: wd, Storage: storage.Options{Namespace: "acme", Home: "/data/acme"}})
	if err != nil {
		t.Fatal(err)
	}
	opts := sandbox.ProjectOptions(paths, "")
	if opts.Workdir != wd || opts.Network || opts.AllowUnixSockets || len(opts.Writable) != 0 {
		t.Errorf("options = %+v", opts)
	}
	// ProtectedPaths, less the git control files that do not exist (so
	// that .git stays writable for commits); an existing one is bound.
	want := slices.DeleteFunc(paths.ProtectedPaths(), func(p string) bool {
		return strings.HasSuffix(p, "/.git/commondir") || strings.HasSuffix(p, "/.git/config.worktree")
	})
	if !slices.Equal(opts.ReadOnly, want) {
		t.Errorf("ReadOnly = %q, want ProtectedPaths without missing git control files", opts.ReadOnly)
	}
	if err := os.MkdirAll(filepath.Join(wd, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wd, ".git", "commondir"), []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if ro := sandbox.ProjectOptions(paths, "").ReadOnly; !slices.Contains(ro, filepath.Join(wd, ".git", "commondir")) {
		t.Errorf("an existing .git/commondir is not read-only: %q", ro)
	}
	for _, want := range []string{"/data/acme", ".lite-agent", ".ssh", ".aws", ".gnupg", ".config/gcloud", ".acme", ".other"} {
		if !strings.HasPrefix(want, "/") {
			want = filepath.Join(home, want)
		}
		if !slices.Contains(opts.Hidden, want) {
			t.Errorf("Hidden = %q, missing %s", opts.Hidden, want)
		}
	}
	for _, not := range []string{".Bad", ".plain", ".cache"} {
		if slices.Contains(opts.Hidden, filepath.Join(home, not)) {
			t.Errorf("Hidden = %q, should not hold %s", opts.Hidden, not)
		}
	}
}

func TestProtectionFollowsSymlinks(t *testing.T) {
	real := hostDir(t)
	wd := filepath.Join(hostDir(t), "link")
	if err := os.Symlink(real, wd); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(hostDir(t), "perms.json")
	writeFile(t, target, "{}")
	writeFile(t, filepath.Join(real, ".acme", "hooks.json"), "{}")
	if err := os.Symlink(target, filepath.Join(real, ".acme", "permissions.json")); err != nil {
		t.Fatal(err)
	}
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{
		Workdir: wd, Storage: storage.Options{Namespace: "acme", Home: filepath.Join(hostDir(t), "h")},
	})
	if err != nil {
		t.Fatal(err)
	}
	sb := sandboxtest.Bubblewrap(t, sandbox.ProjectOptions(paths, hostDir(t)))
	for _, script := range []string{
		"echo x > " + wd + "/.acme/hooks.json",
		"echo x > " + real + "/.acme/hooks.json",
		"rm -f .acme/permissions.json && echo x > .acme/permissions.json",
		"ln -sfn /etc/passwd .acme/permissions.json",
	} {
		if out, err := run(t, sb, wd, script); err == nil {
			t.Errorf("%q succeeded: %s", script, out)
		}
	}
	if got := readFile(t, filepath.Join(real, ".acme", "hooks.json")); got != "{}" {
		t.Errorf("hooks.json = %q", got)
	}
	if got, err := os.Readlink(filepath.Join(real, ".acme", "permissions.json")); err != nil || got != target {
		t.Errorf("permissions.json link = %q, %v", got, err)
	}
	mustRun(t, sb, wd, "echo ok > "+wd+"/free.txt")
}
