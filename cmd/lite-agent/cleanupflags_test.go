package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/migration"
	"github.com/lite-agent/lite-agent-go/storage"
)

func TestRunCleanupFlags(t *testing.T) {
	const day = 24 * time.Hour
	tests := []struct {
		name      string
		flags     []string
		env       string
		namespace string // "" means the default namespace
		code      int
		removed   []string // of old100 and old40
		line      bool     // the one-line stderr report
	}{
		{name: "default", removed: []string{"old100", "old40"}, line: true},
		{name: "no-cleanup", flags: []string{"--no-cleanup"}},
		{name: "cleanup-days 60", flags: []string{"--cleanup-days", "60"}, removed: []string{"old100"}, line: true},
		{name: "cleanup-days 0", flags: []string{"--cleanup-days", "0"}},
		{name: "cleanup-days 200 removes nothing", flags: []string{"--cleanup-days", "200"}},
		{name: "env 60", env: "60", removed: []string{"old100"}, line: true},
		{name: "flag wins over env", env: "0", flags: []string{"--cleanup-days", "60"}, removed: []string{"old100"}, line: true},
		{name: "env ignored in a custom namespace", env: "0", namespace: "acme", removed: []string{"old100", "old40"}, line: true},
		{name: "both flags", flags: []string{"--no-cleanup", "--cleanup-days", "3"}, code: 2},
		{name: "negative days", flags: []string{"--cleanup-days", "-1"}, code: 2},
		{name: "env invalid", env: "x", code: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolateEnv(t)
			t.Setenv(liteagent.CleanupDaysEnv, tt.env)
			srv := &anthropicServer{replies: []string{textReply("ok")}}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			t.Setenv("ANTHROPIC_API_KEY", "test-key")
			t.Setenv("ANTHROPIC_BASE_URL", ts.URL)
			home, work := t.TempDir(), t.TempDir()
			sessions := filepath.Join(home, "projects", "0123456789abcdef", "sessions")
			if err := os.MkdirAll(sessions, 0o700); err != nil {
				t.Fatal(err)
			}
			for name, age := range map[string]time.Duration{"old100": 100 * day, "old40": 40 * day} {
				p := filepath.Join(sessions, name+".jsonl")
				if err := os.WriteFile(p, make([]byte, 1000), 0o600); err != nil {
					t.Fatal(err)
				}
				when := time.Now().Add(-age)
				if err := os.Chtimes(p, when, when); err != nil {
					t.Fatal(err)
				}
			}
			args := []string{"--home", home, "--workdir", work}
			if tt.namespace != "" {
				args = append(args, "--namespace", tt.namespace)
			}
			args = append(append(append(args, "run"), tt.flags...), "hello")
			r := runCLI(t, args...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d; stderr %q", r.code, tt.code, r.stderr)
			}
			var gone []string
			for _, name := range []string{"old100", "old40"} {
				if _, err := os.Stat(filepath.Join(sessions, name+".jsonl")); err != nil {
					gone = append(gone, name)
				}
			}
			if strings.Join(gone, ",") != strings.Join(tt.removed, ",") {
				t.Errorf("removed %v, want %v", gone, tt.removed)
			}
			var lines []string
			for _, l := range strings.Split(r.stderr, "\n") {
				if strings.HasPrefix(l, "cleanup: ") {
					lines = append(lines, l)
				}
			}
			if !tt.line {
				if len(lines) != 0 {
					t.Errorf("cleanup lines %q, want none", lines)
				}
				return
			}
			n := len(tt.removed)
			entries := " stale entries ("
			if n == 1 {
				entries = " stale entry ("
			}
			want := "cleanup: removed " + string(rune('0'+n)) + entries + migration.FormatBytes(int64(1000*n)) + ") from " + home
			if len(lines) != 1 || !strings.HasPrefix(lines[0], want) {
				t.Errorf("cleanup lines %q, want one starting %q", lines, want)
			}
		})
	}
}

// TestResumeKeepsAnOldSessionFromTheSweep resumes (-r) or continues (-c) a
// session unchanged for longer than the cleanup age: the startup sweep
// must not remove it (and the run then start an empty session under its
// id, or a new one), nor its context archive; the other old session still
// goes.
func TestResumeKeepsAnOldSessionFromTheSweep(t *testing.T) {
	for _, tt := range []struct {
		name       string
		flags      []string
		kept, gone string
	}{
		{"resume the older", []string{"-r", "s1"}, "s1", "s2"},
		{"continue the latest", []string{"-c"}, "s2", "s1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			isolateEnv(t)
			srv := &anthropicServer{replies: []string{textReply("one"), textReply("two"), textReply("three")}}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			t.Setenv("ANTHROPIC_API_KEY", "test-key")
			t.Setenv("ANTHROPIC_BASE_URL", ts.URL)
			home, work := t.TempDir(), t.TempDir()
			base := []string{"--home", home, "--workdir", work, "run", "--sandbox", "off"}
			for _, id := range []string{"s1", "s2"} {
				if r := runCLI(t, append(base, "--session-id", id, "hi")...); r.code != 0 {
					t.Fatalf("run --session-id %s: code %d\n%s", id, r.code, r.stderr)
				}
			}
			p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: work, Storage: storage.Options{Home: home}})
			if err != nil {
				t.Fatal(err)
			}
			note := filepath.Join(storage.SessionContextDir(p.SessionsDir, tt.kept), "note")
			if err := os.MkdirAll(filepath.Dir(note), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(note, []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
			old := time.Now().Add(-40 * 24 * time.Hour)
			for path, when := range map[string]time.Time{
				filepath.Join(p.SessionsDir, "s1.jsonl"): old.Add(-time.Hour), // s2 is the latest
				filepath.Join(p.SessionsDir, "s2.jsonl"): old,
				note:                                     old,
				filepath.Dir(note):                       old,
			} {
				if err := os.Chtimes(path, when, when); err != nil {
					t.Fatal(err)
				}
			}
			r := runCLI(t, append(append(base, tt.flags...), "again")...)
			if r.code != 0 || !strings.Contains(r.stderr, "session "+tt.kept) {
				t.Fatalf("run %v: code %d\n%s", tt.flags, r.code, r.stderr)
			}
			if msgs, _ := srv.bodies[2]["messages"].([]any); len(msgs) < 3 {
				t.Errorf("the model saw %d messages, want the stored history and the new prompt", len(msgs))
			}
			for path, want := range map[string]bool{filepath.Join(p.SessionsDir, tt.kept+".jsonl"): true, note: true, filepath.Join(p.SessionsDir, tt.gone+".jsonl"): false} {
				if _, err := os.Stat(path); (err == nil) != want {
					t.Errorf("%s: exists %v, want %v", path, err == nil, want)
				}
			}
		})
	}
}
