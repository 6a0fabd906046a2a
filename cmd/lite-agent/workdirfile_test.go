package main

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWorkdirThatIsAFileIsNamed: --workdir naming a file is reported as
// such by every command that reads the project, exit 1, one line, rather
// than as a permissions.json or mcps.json below it, or with advice to move
// the file away (it may be anything, /etc/passwd say). Nothing is written.
func TestWorkdirThatIsAFileIsNamed(t *testing.T) {
	isolateEnv(t)
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	for _, args := range [][]string{
		{"run", "hi"},
		{"mcp", "list"},
		{"permissions", "check", "bash", `{"command":"ls"}`},
		{"sessions", "list"},
		{"tasks", "list"},
		{"verify"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			before := tree(t, dir)
			r := runCLI(t, append([]string{"--home", home, "--workdir", file}, args...)...)
			wantOneErrorLine(t, r)
			if r.code != exitFailure {
				t.Errorf("exit %d, want %d", r.code, exitFailure)
			}
			want := "lite-agent: workdir " + file + " is not a directory: give --workdir the project directory\n"
			if r.stderr != want {
				t.Errorf("stderr = %q\nwant     %q", r.stderr, want)
			}
			if after := tree(t, dir); !slices.Equal(before, after) {
				t.Errorf("the directory changed:\nbefore %q\nafter  %q", before, after)
			}
		})
	}
	_, err := (&globalFlags{codec: codecNone, workdir: optionalString{value: file, set: true}}).project()
	var we *WorkdirNotDirError
	if !errors.As(err, &we) || we.Workdir != file {
		t.Errorf("project() = %v, want a *WorkdirNotDirError for %s", err, file)
	}
}

// TestFileOutsideTheLayoutIsNotToBeMoved: a path the user gave (a key
// file, an audit log, a managed permission file) that runs through a file
// is named as such, without the advice to move the file away that a file
// planted in the data home's layout gets: that file may be anything, a
// private key say.
func TestFileOutsideTheLayoutIsNotToBeMoved(t *testing.T) {
	isolateEnv(t)
	dir, work := t.TempDir(), t.TempDir()
	file := filepath.Join(dir, "id_ed25519")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	for _, args := range [][]string{
		{"--codec", "aes256gcm", "--key-file", filepath.Join(file, "key"), "verify"},
		{"audit", "verify", filepath.Join(file, "audit.log")},
		{"--managed-permissions", filepath.Join(file, "managed.json"), "permissions", "check", "bash", `{"command":"ls"}`},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			r := runCLI(t, append([]string{"--home", home, "--workdir", work}, args...)...)
			wantOneErrorLine(t, r)
			if r.code != exitFailure {
				t.Errorf("exit %d, want %d", r.code, exitFailure)
			}
			if want := "(" + file + " is a file, not a directory)\n"; !strings.HasSuffix(r.stderr, want) || strings.Contains(r.stderr, "move it away") {
				t.Errorf("stderr = %q, want it to end with %q", r.stderr, want)
			}
		})
	}
	// The project config directory is in the layout.
	cfg := filepath.Join(work, ".lite-agent")
	if err := os.WriteFile(cfg, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "--home", home, "--workdir", work, "mcp", "list")
	if want := "(" + cfg + " is a file where a directory should be: move it away)\n"; r.code != exitFailure || !strings.HasSuffix(r.stderr, want) {
		t.Errorf("mcp list: exit %d, stderr %q, want it to end with %q", r.code, r.stderr, want)
	}
}
