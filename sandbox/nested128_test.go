//go:build linux

package sandbox_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/sandbox"
)

// gitAnyway runs git in dir outside the sandbox, as the user would later,
// and returns its output whether or not it failed: once a planted
// repository is moved aside, git there finds the project's instead.
func (p *rt127) gitAnyway(dir string, env []string, args ...string) string {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), p.env...), env...)
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// afterRun runs the sandbox's check as the bash tool does once a command
// has ended, and returns its error as a *RepoCheckError (nil if none).
func afterRun(t *testing.T, sb sandbox.Sandbox) *sandbox.RepoCheckError {
	t.Helper()
	ar, ok := sb.(sandbox.AfterRunner)
	if !ok {
		t.Fatalf("%T is not a sandbox.AfterRunner", sb)
	}
	err := ar.AfterRun(t.Context())
	if err == nil {
		return nil
	}
	var rce *sandbox.RepoCheckError
	if !errors.As(err, &rce) {
		t.Fatalf("AfterRun: %v, want a *sandbox.RepoCheckError", err)
	}
	return rce
}

// A command the gate allows can make a git repository in a subdirectory
// whose configuration, or hooks, run a program: git run outside the
// sandbox in that directory ran it, and so did the project's own git
// status once the command added the repository to the index as a
// gitlink. The check after the command moves its .git aside, names it in
// its error with the way back, and nothing runs.
func TestPlantedRepositoriesAreMovedAside(t *testing.T) {
	tests := []struct {
		name string
		// plant is the sandboxed line; {pwned} stands for the command
		// that writes ../home/pwned, {fsmonitor} for a configuration whose
		// core.fsmonitor runs it.
		plant string
		// dir and git are where and what the user runs later.
		dir  string
		git  []string
		env  []string // more of the user's environment
		path string   // what the check moves
	}{
		{
			name:  "fsmonitor, git status in the subdirectory",
			plant: "git init -q sub && printf '{fsmonitor}' >> sub/.git/config",
			dir:   "sub", git: []string{"status", "--short"}, path: "sub/.git",
		},
		{
			name:  "fsmonitor, git add makes a gitlink, git status in the project",
			plant: "git init -q sub && git -C sub commit -q --allow-empty -m s && printf '{fsmonitor}' >> sub/.git/config && git add sub 2>/dev/null",
			dir:   ".", git: []string{"status", "--short"}, path: "sub/.git",
		},
		{
			name: "fsmonitor, update-index writes a gitlink, git status in the project",
			plant: "mkdir -p deep/er && git init -q deep/er/sub && printf '{fsmonitor}' >> deep/er/sub/.git/config && " +
				"git update-index --add --cacheinfo 160000,0123456789012345678901234567890123456789,deep/er/sub",
			dir: ".", git: []string{"status", "--short"}, path: "deep/er/sub/.git",
		},
		{
			name: "post-checkout hook, git checkout in the subdirectory",
			plant: "git init -q sub && cd sub && git commit -q --allow-empty -m a && git branch b && " +
				"printf '#!/bin/sh\\n{pwned}\\n' > .git/hooks/post-checkout && chmod +x .git/hooks/post-checkout",
			dir: "sub", git: []string{"checkout", "-q", "b"}, path: "sub/.git",
		},
		{
			name:  "include.path names a file with a core.fsmonitor, git status in the subdirectory",
			plant: "git init -q sub && printf '{fsmonitor}' > inc.cfg && printf '[include]\\n\\tpath = ../../inc.cfg\\n' >> sub/.git/config",
			dir:   "sub", git: []string{"status", "--short"}, path: "sub/.git",
		},
		{
			// git's C strings end at the NUL: the name is core.fsmonitor.
			name:  "a NUL ends the subsection naming core.fsmonitor, git status in the subdirectory",
			plant: "git init -q sub && printf '[core \"fsmonitor\\000\"]\\n\\tx = \"{pwned}; false\"\\n' >> sub/.git/config",
			dir:   "sub", git: []string{"status", "--short"}, path: "sub/.git",
		},
		{
			name: "a .git file naming a git directory elsewhere in the workdir",
			plant: "git init -q --bare store/x.git && git -C store/x.git config core.bare false && printf '{fsmonitor}' >> store/x.git/config && " +
				"mkdir sub && echo 'gitdir: ../store/x.git' > sub/.git",
			dir: "sub", git: []string{"status", "--short"}, path: "sub/.git",
		},
		{
			name:  "a bare repository with an ssh command, git fetch in it",
			plant: "git init -q --bare bare && printf '[core]\\n\\tsshCommand = {pwned}; false\\n[remote \"o\"]\\n\\turl = ssh://h/r\\n' >> bare/config",
			dir:   "bare", git: []string{"fetch", "o"}, env: []string{"GIT_ALLOW_PROTOCOL=ssh"}, path: "bare/HEAD",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newRT127(t)
			sb := p.sandbox(t)
			fsmon := strings.ReplaceAll(strings.ReplaceAll(p.fsmonitor(), "\n", `\n`), "\t", `\t`)
			line := strings.NewReplacer("{fsmonitor}", fsmon, "{pwned}", p.pwned()).Replace(tt.plant)
			out := p.bash(t, sb, line+" && echo planted")
			if !strings.Contains(out, "planted") {
				t.Fatalf("planting: %s", out)
			}
			rce := afterRun(t, sb)
			var moved sandbox.QuarantinedRepo
			if rce != nil {
				for _, q := range rce.Moved {
					if q.Path == tt.path {
						moved = q
					}
				}
			}
			if moved.Path == "" || len(rce.Failed) != 0 || rce.Incomplete != "" {
				t.Fatalf("AfterRun = %v, want %s moved aside", rce, tt.path)
			}
			if _, err := os.Lstat(filepath.Join(p.wd, moved.MovedTo)); err != nil {
				t.Errorf("%s is gone: %v", moved.MovedTo, err)
			}
			if msg := rce.Error(); !strings.Contains(msg, "mv "+moved.MovedTo+" "+tt.path) {
				t.Errorf("error %q does not say how to restore %s", msg, tt.path)
			}
			// Still moved aside after a second check, which finds nothing new.
			if again := afterRun(t, sb); again != nil {
				t.Errorf("second AfterRun = %v, want nil", again)
			}
			p.gitAnyway(filepath.Join(p.wd, tt.dir), tt.env, tt.git...)
			p.checkHome(t, "git "+strings.Join(tt.git, " ")+" in "+tt.dir)
		})
	}
}

// A plain git init or git clone in the sandbox (sample hooks only, no
// setting that runs a program), a linked worktree, a submodule, and a
// repository with a hook that was there before the sandbox was made, in
// which the user commits meanwhile, stay as they are: the check returns
// nil and moves nothing.
func TestPlainRepositoriesStayUntouched(t *testing.T) {
	p := newRT127(t)
	p.addSubmodule(t) // a submodule: known, protected, not the check's
	lib := filepath.Join(p.dir, "libsrc")
	p.git(t, p.wd, "init", "-q", "mine")
	writeFile(t, filepath.Join(p.wd, "mine", ".git", "hooks", "pre-commit"), "#!/bin/sh\nexit 0\n")
	time.Sleep(100 * time.Millisecond) // older than the sandbox by more than the coarse clock's lag
	sb := p.sandbox(t)
	out := p.bash(t, sb, "git init -q fresh && git clone -q "+lib+" cloned && git -C cloned checkout -q -b topic && "+
		"git -C fresh commit -q --allow-empty -m x && git add fresh 2>/dev/null; git worktree add -q wt 2>&1 && echo done")
	if !strings.Contains(out, "done") {
		t.Fatalf("sandboxed git: %s", out)
	}
	// The user commits in their own repository with a hook meanwhile.
	p.git(t, filepath.Join(p.wd, "mine"), "commit", "-q", "--allow-empty", "-m", "mine")
	if rce := afterRun(t, sb); rce != nil {
		t.Fatalf("AfterRun = %v, want nil", rce)
	}
	for _, d := range []string{"fresh/.git", "cloned/.git", "mine/.git", "wt/.git", "lib/.git"} {
		if _, err := os.Lstat(filepath.Join(p.wd, d)); err != nil {
			t.Errorf("%s: %v", d, err)
		}
	}
}

// What the check reads cannot hold it: a config that is a named pipe
// (which would block a reader), and a hooks directory that is a link out
// of the workdir, are not opened; each makes its repository count as
// one that runs code.
func TestRepositoryCheckOpensNoFifoAndFollowsNoLink(t *testing.T) {
	p := newRT127(t)
	sb := p.sandbox(t)
	if out := p.bash(t, sb, "git init -q a && rm a/.git/config && mkfifo a/.git/config && git init -q b && rm -r b/.git/hooks && ln -s "+p.home+" b/.git/hooks && echo planted"); !strings.Contains(out, "planted") {
		t.Fatalf("planting: %s", out)
	}
	done := make(chan *sandbox.RepoCheckError, 1)
	go func() {
		ar := sb
		err := ar.AfterRun(t.Context())
		var rce *sandbox.RepoCheckError
		errors.As(err, &rce)
		done <- rce
	}()
	var rce *sandbox.RepoCheckError
	select {
	case rce = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("AfterRun blocked")
	}
	var paths []string
	if rce != nil {
		for _, q := range rce.Moved {
			paths = append(paths, q.Path)
		}
	}
	if strings.Join(paths, " ") != "a/.git b/.git" && strings.Join(paths, " ") != "b/.git a/.git" {
		t.Errorf("moved %v, want a/.git and b/.git", paths)
	}
}
