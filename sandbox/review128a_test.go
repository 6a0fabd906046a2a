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
