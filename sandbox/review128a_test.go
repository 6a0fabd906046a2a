//go:build linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A git directory a command assembles by renaming a directory that was
// in the workdir before the sandbox was made keeps the status change
// times of the files in it: its configuration (a fixture the project
// ships, named config) and its hooks look unchanged. Renaming the
// directory changes its own status change time, which the check reads:
// the repository is moved aside and nothing runs outside.
func TestRenamedOldGitDirectoryIsMovedAside(t *testing.T) {
	tests := []struct {
		name    string
		fixture func(p *rt127, dir string)
		// line is the sandboxed line; "" renames testdata/fx to sub/.git.
		line string
		dir  string // where the user runs git; "" is sub
		git  []string
		env  []string
		path string // what the check moves; "" is sub/.git
	}{
		{
			name: "config with core.fsmonitor, git status",
			fixture: func(p *rt127, dir string) {
				writeFile(t, filepath.Join(dir, "config"), p.fsmonitor())
			},
			git: []string{"status", "--short"},
		},
		{
			name: "pre-commit hook, git commit",
			fixture: func(p *rt127, dir string) {
				writeFile(t, filepath.Join(dir, "hooks", "pre-commit"), "#!/bin/sh\n"+p.pwned()+"\n")
				if err := os.Chmod(filepath.Join(dir, "hooks", "pre-commit"), 0o755); err != nil {
					t.Fatal(err)
				}
			},
			git: []string{"commit", "-q", "--allow-empty", "-m", "x"},
		},
		{
			name: "a bare repository made in place, ssh command, git fetch",
			fixture: func(p *rt127, dir string) {
				writeFile(t, filepath.Join(dir, "config"), "[core]\n\tsshCommand = \""+p.pwned()+"; false\"\n[remote \"o\"]\n\turl = ssh://h/r\n")
			},
			line: "cd testdata/fx && mkdir -p objects refs/heads && echo 'ref: refs/heads/main' > HEAD && echo planted",
			dir:  "testdata/fx", git: []string{"fetch", "o"}, env: []string{"GIT_ALLOW_PROTOCOL=ssh"}, path: "testdata/fx/HEAD",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newRT127(t)
			tt.fixture(p, filepath.Join(p.wd, "testdata", "fx"))
			time.Sleep(100 * time.Millisecond) // older than the sandbox by more than the coarse clock's lag
			sb := p.sandbox(t)
			line, dir, path := tt.line, tt.dir, tt.path
			if line == "" {
				line = "cd testdata/fx && mkdir -p objects refs/heads && echo 'ref: refs/heads/main' > HEAD && " +
					"cd ../.. && mkdir sub && mv testdata/fx sub/.git && echo planted"
				dir, path = "sub", "sub/.git"
			}
			out := p.bash(t, sb, line)
			if !strings.Contains(out, "planted") {
				t.Fatalf("planting: %s", out)
			}
			rce := afterRun(t, sb)
			if rce == nil || len(rce.Moved) != 1 || rce.Moved[0].Path != path {
				t.Errorf("AfterRun = %v, want %s moved aside", rce, path)
			}
			p.gitAnyway(filepath.Join(p.wd, dir), tt.env, tt.git...)
			p.checkHome(t, "git "+strings.Join(tt.git, " ")+" in "+dir)
		})
	}
}

// A core.hooksPath names a hooks directory outside the git directory: a
// relative one in the user's configuration (.githooks) names one in every
// worktree, so that a plain git init sub, with a hook put in
// sub/.githooks, ran at the user's next git commit in sub; and a nested
// repository of the user's whose own configuration names one (husky's
// .husky/_) ran the hook a command put there. The check looks in those
// directories too: a hook a command put there counts as a change, and the
// repository is moved aside.
func TestHooksPathDirectoryOfANestedRepositoryIsChecked(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, p *rt127) // before the sandbox is made
		line  string                       // {plant} stands for the line that plants a pre-commit hook in dir/hooks
		dir   string
		hooks string // "" is .githooks
	}{
		{
			name: "the user's relative core.hooksPath, a new repository",
			setup: func(t *testing.T, p *rt127) {
				p.git(t, p.wd, "config", "--global", "core.hooksPath", ".githooks")
			},
			line: "git init -q sub && mkdir sub/.githooks && {plant}", dir: "sub",
		},
		{
			name: "the user's relative core.hooksPath, the user's repository",
			setup: func(t *testing.T, p *rt127) {
				p.git(t, p.wd, "config", "--global", "core.hooksPath", ".githooks")
				p.git(t, p.wd, "init", "-q", "sub")
				writeFile(t, filepath.Join(p.wd, "sub", ".githooks", "README"), "hooks\n")
			},
			line: "{plant}", dir: "sub",
		},
		{
			name: "husky's core.hooksPath in the user's repository",
			setup: func(t *testing.T, p *rt127) {
				p.git(t, p.wd, "init", "-q", "sub")
				p.git(t, filepath.Join(p.wd, "sub"), "config", "core.hooksPath", ".husky/_")
				writeFile(t, filepath.Join(p.wd, "sub", ".husky", "_", ".gitignore"), "*\n")
			},
			line: "{plant}", dir: "sub", hooks: ".husky/_",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newRT127(t)
			tt.setup(t, p)
			time.Sleep(100 * time.Millisecond) // older than the sandbox by more than the coarse clock's lag
			sb := p.sandbox(t)
			hooks := tt.hooks
			if hooks == "" {
				hooks = ".githooks"
			}
			line := strings.ReplaceAll(tt.line, "{plant}", p.plantHook(tt.dir+"/"+hooks))
			if out := p.bash(t, sb, line+" && echo planted"); !strings.Contains(out, "planted") {
				t.Fatalf("planting: %s", out)
			}
			rce := afterRun(t, sb)
			if rce == nil || len(rce.Moved) != 1 || rce.Moved[0].Path != tt.dir+"/.git" {
				t.Errorf("AfterRun = %v, want %s/.git moved aside", rce, tt.dir)
			}
			p.gitAnyway(filepath.Join(p.wd, tt.dir), nil, "commit", "-q", "--allow-empty", "-m", "x")
			p.checkHome(t, "git commit in "+tt.dir)
		})
	}
}

// A .git file or a commondir naming the project's own git directory
// makes the directory holding it a worktree of the project's repository,
// whose relative core.hooksPath (husky's .husky/_ in the project's
// configuration, or .githooks in the user's) then names a directory
// there, which commands write: a hook put in sub/.husky/_ beside a .git
// file "gitdir: ../.git", or in a linked worktree git worktree add made,
// ran at the user's next git commit there. The check looks in that
// directory too, and moves the .git aside.
func TestWorktreeOfTheProjectsGitDirectoryIsChecked(t *testing.T) {
	tests := []struct {
		name   string
		global bool   // core.hooksPath in the user's configuration, not the project's
		line   string // {plant} plants a pre-commit hook in dir/{hooks}
		dir    string
	}{
		{name: "a .git file naming .git, the project's core.hooksPath", line: "mkdir -p sub/{hooks} && echo 'gitdir: ../.git' > sub/.git && {plant}", dir: "sub"},
		{name: "a .git file naming .git, the user's core.hooksPath", global: true, line: "mkdir -p sub/{hooks} && echo 'gitdir: ../.git' > sub/.git && {plant}", dir: "sub"},
		{
			name: "a git directory whose commondir names .git",
			line: "mkdir -p gd sub/{hooks} && echo 'ref: refs/heads/main' > gd/HEAD && echo ../.git > gd/commondir && echo 'gitdir: ../gd' > sub/.git && {plant}",
			dir:  "sub",
		},
		{
			name: "a .git file of two lines whose path, as git reads it, reaches .git",
			line: "mkdir -p sub/{hooks} $'d\\n' && printf 'gitdir: ../d\\n/../.git\\n' > sub/.git && {plant}",
			dir:  "sub",
		},
		{
			name: "a .git file whose path goes back up through a link, which git follows before the ..",
			line: "mkdir -p sub/{hooks} q z && ln -s ../z q/l && echo 'gitdir: ../q/l/../.git' > sub/.git && {plant}",
			dir:  "sub",
		},
		{name: "git worktree add", line: "git worktree add -q wt 2>/dev/null && mkdir -p wt/{hooks} && {plant}", dir: "wt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newRT127(t)
			hooks := ".husky/_"
			if tt.global {
				hooks = ".githooks"
				p.git(t, p.wd, "config", "--global", "core.hooksPath", hooks)
			} else {
				p.git(t, p.wd, "config", "core.hooksPath", hooks)
			}
			sb := p.sandbox(t)
			line := strings.NewReplacer("{plant}", p.plantHook(tt.dir+"/"+hooks), "{hooks}", hooks).Replace(tt.line)
			if out := p.bash(t, sb, line+" && echo planted"); !strings.Contains(out, "planted") {
				t.Fatalf("planting: %s", out)
			}
			rce := afterRun(t, sb)
			if rce == nil || len(rce.Moved) != 1 || rce.Moved[0].Path != tt.dir+"/.git" {
				t.Errorf("AfterRun = %v, want %s/.git moved aside", rce, tt.dir)
			}
			p.gitAnyway(filepath.Join(p.wd, tt.dir), nil, "commit", "-q", "--allow-empty", "-m", "x")
			p.checkHome(t, "git commit in "+tt.dir)
		})
	}
}
