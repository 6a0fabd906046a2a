//go:build unix

package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// oldFile writes path (making its directory) and dates it a year back, old
// enough for any cleanup age.
func oldFile(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-365 * 24 * time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

// TestCleanupRefusesALayoutItDoesNotUnderstand gives cleanup a data home
// with something where the layout has no place for it, beside an old
// session log that cleanup would remove, and wants a non-zero exit with one
// line naming the entry and what to do, and nothing removed.
func TestCleanupRefusesALayoutItDoesNotUnderstand(t *testing.T) {
	const project = "0123456789abcdef"
	for _, tt := range []struct {
		name   string
		plant  func(t *testing.T, home string) string // returns the path the error must name
		reason string
	}{
		{"ProjectsIsAFile", func(t *testing.T, home string) string {
			p := filepath.Join(home, "projects")
			if err := os.RemoveAll(p); err != nil {
				t.Fatal(err)
			}
			oldFile(t, p)
			return p
		}, "a file where a directory should be"},
		{"StrayFileInProjects", func(t *testing.T, home string) string {
			p := filepath.Join(home, "projects", "README")
			oldFile(t, p)
			return p
		}, "not a project directory"},
		{"StrayDirectoryInProjects", func(t *testing.T, home string) string {
			p := filepath.Join(home, "projects", "backup")
			oldFile(t, filepath.Join(p, "sessions", "old.jsonl"))
			return p
		}, "not a project directory"},
		{"SymlinkedProject", func(t *testing.T, home string) string {
			p := filepath.Join(home, "projects", "fedcba9876543210")
			target := t.TempDir()
			oldFile(t, filepath.Join(target, "sessions", "old.jsonl"))
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			return p
		}, "symbolic link"},
		{"SessionsIsAFile", func(t *testing.T, home string) string {
			p := filepath.Join(home, "projects", "fedcba9876543210", "sessions")
			oldFile(t, p)
			return p
		}, "a file where a directory should be"},
		{"StrayEntryInProject", func(t *testing.T, home string) string {
			p := filepath.Join(home, "projects", project, "notes")
			oldFile(t, p)
			return p
		}, "not part of a project"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			isolateEnv(t)
			home := t.TempDir()
			log := filepath.Join(home, "projects", project, "sessions", "s1.jsonl")
			oldFile(t, log)
			bad := tt.plant(t, home)
			before := tree(t, home)
			for _, extra := range [][]string{nil, {"--json"}, {"--dry-run"}} {
				r := runCLI(t, append([]string{"--home", home, "cleanup"}, extra...)...)
				wantOneErrorLine(t, r)
				if r.code != exitFailure {
					t.Errorf("cleanup %v: exit %d, want %d", extra, r.code, exitFailure)
				}
				for _, want := range []string{bad, tt.reason, "removed nothing"} {
					if !strings.Contains(r.stderr, want) {
						t.Errorf("cleanup %v: stderr %q does not say %q", extra, r.stderr, want)
					}
				}
			}
			if after := tree(t, home); !slices.Equal(before, after) {
				t.Errorf("cleanup changed the home:\nbefore %q\nafter  %q", before, after)
			}
		})
	}
}

// TestCleanupOfAHomeThatIsAFileFails covers the default home
// (~/.lite-agent) being a file.
func TestCleanupOfAHomeThatIsAFileFails(t *testing.T) {
	user := isolateEnv(t)
	oldFile(t, filepath.Join(user, ".lite-agent"))
	r := runCLI(t, "--workdir", t.TempDir(), "cleanup")
	wantOneErrorLine(t, r)
	if r.code != exitFailure || !strings.Contains(r.stderr, "is not a directory") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestCleanupReportsWhatItLeftAsStrange puts a FIFO, which no store makes,
// among old session logs: cleanup removes the logs, leaves the FIFO, names
// it and exits 1; with --json the report is still printed.
func TestCleanupReportsWhatItLeftAsStrange(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		isolateEnv(t)
		home := t.TempDir()
		sessions := filepath.Join(home, "projects", "0123456789abcdef", "sessions")
		log := filepath.Join(sessions, "s1.jsonl")
		oldFile(t, log)
		fifo := filepath.Join(sessions, "pipe")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		args := []string{"--home", home, "cleanup"}
		if asJSON {
			args = append(args, "--json")
		}
		r := runCLI(t, args...)
		if r.code != exitFailure {
			t.Errorf("json %v: exit %d, want %d (stderr %q)", asJSON, r.code, exitFailure, r.stderr)
		}
		if !strings.Contains(r.stderr, fifo) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("json %v: stderr %q, want one line naming %s", asJSON, r.stderr, fifo)
		}
		if _, err := os.Lstat(log); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("json %v: the old log is still there (%v)", asJSON, err)
		}
		if _, err := os.Lstat(fifo); err != nil {
			t.Errorf("json %v: the FIFO went: %v", asJSON, err)
		}
		if asJSON {
			var rep struct{ Removed []any }
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || len(rep.Removed) != 1 {
				t.Errorf("stdout %q is not the report (%v)", r.stdout, err)
			}
		}
	}
}
