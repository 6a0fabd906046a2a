package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
)

// The tests in this file put a file where the data home, or a directory of
// its layout, should be: the mistyped --home (a key file, say) or a stray
// file a user made. Each command must fail with one line that names the file
// and says what to do, and change nothing.

// TestHomeThatIsAFileIsNamed: every command that reads or writes the data
// home refuses a home that is a file, naming it, rather than report a
// system call on a path below it (or find nothing and exit 0).
func TestHomeThatIsAFileIsNamed(t *testing.T) {
	isolateEnv(t)
	root, work := t.TempDir(), t.TempDir()
	home := filepath.Join(root, "home")
	if err := os.WriteFile(home, []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"sessions", "list"},
		{"sessions", "show", "s1"},
		{"sessions", "delete", "s1"},
		{"tasks", "list"},
		{"verify"},
		{"verify", "--all"},
		{"cleanup"},
		{"mcp", "list"},
		{"permissions", "check", "bash", `{"command":"ls"}`},
		{"run", "--provider", "openai", "--base-url", "http://127.0.0.1:1/v1", "hi"},
		{"migrate", "--to-home", filepath.Join(root, "dest")},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			before := tree(t, root)
			r := runCLI(t, append([]string{"--home", home, "--workdir", work}, args...)...)
			if r.code != exitFailure {
				t.Errorf("code = %d, want %d", r.code, exitFailure)
			}
			wantOneErrorLine(t, r)
			want := "lite-agent: data home " + home + " is not a directory: give --home (or " + storage.HomeEnv + ") a directory, or move the file away\n"
			if r.stderr != want {
				t.Errorf("stderr = %q\nwant     %q", r.stderr, want)
			}
			if after := tree(t, root); !slices.Equal(before, after) {
				t.Errorf("the command changed the disk:\nbefore %q\nafter  %q", before, after)
			}
		})
	}
}

// TestFileInTheLayoutIsNamed: a file standing where the home keeps a
// directory (projects/, a project's sessions/) is named in the error line,
// with what to do, whichever path the failing call was given.
func TestFileInTheLayoutIsNamed(t *testing.T) {
	isolateEnv(t)
	home, work := t.TempDir(), t.TempDir()
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: work, Storage: storage.Options{Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		file string // the file planted in place of a directory
		args []string
	}{
		{"projects list", filepath.Join(home, "projects"), []string{"sessions", "list"}},
		{"projects show", filepath.Join(home, "projects"), []string{"sessions", "show", "s1"}},
		{"projects verify all", filepath.Join(home, "projects"), []string{"verify", "--all"}},
		{"sessions list", p.SessionsDir, []string{"sessions", "list"}},
		{"sessions show", p.SessionsDir, []string{"sessions", "show", "s1"}},
		{"tasks list", p.TasksDir, []string{"tasks", "list"}},
		{"tasks list --list", p.TasksDir, []string{"tasks", "list", "--list", "s1"}},
		{"sessions delete", p.SessionsDir, []string{"sessions", "delete", "s1"}},
		{"sessions list --json", p.SessionsDir, []string{"sessions", "list", "--json"}},
		{"project sessions list", filepath.Dir(p.SessionsDir), []string{"sessions", "list"}},
		{"sessions checkpoints", p.SessionsDir, []string{"sessions", "checkpoints", "s1", "--json"}},
		{"sessions restore", p.SessionsDir, []string{"sessions", "restore", "s1", "--to", "1"}},
		{"sessions fork", p.SessionsDir, []string{"sessions", "fork", "s1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.RemoveAll(filepath.Join(home, "projects")); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Dir(tt.file), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(tt.file, []byte("x\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			before := tree(t, home)
			r := runCLI(t, append([]string{"--home", home, "--workdir", work}, tt.args...)...)
			if r.code != exitFailure {
				t.Errorf("code = %d, want %d", r.code, exitFailure)
			}
			if tt.args[0] == "verify" {
				wantOneErrorLine(t, r)
				want := "(" + tt.file + " is a file where a directory should be: move it away)\n"
				if !strings.HasSuffix(r.stderr, want) {
					t.Errorf("stderr = %q, want it to end with %q", r.stderr, want)
				}
			} else {
				wantLayoutFile(t, r, tt.file)
			}
			if after := tree(t, home); !slices.Equal(before, after) {
				t.Errorf("the command changed the disk:\nbefore %q\nafter  %q", before, after)
			}
		})
	}
}

// TestVersionCommandSuggestsTheFlag: "lite-agent version", which many
// tools have, points at --version.
func TestVersionCommandSuggestsTheFlag(t *testing.T) {
	isolateEnv(t)
	r := runCLI(t, "version")
	if r.code != exitUsage {
		t.Errorf("code = %d, want %d", r.code, exitUsage)
	}
	wantOneErrorLine(t, r)
	if want := `unknown command "version" (did you mean "--version"?)`; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr = %q, want it to contain %q", r.stderr, want)
	}
}
