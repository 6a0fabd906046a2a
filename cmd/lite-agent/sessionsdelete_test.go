package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestUnknownSessionIsAnErrorThatRemovesNothing(t *testing.T) {
	for _, args := range [][]string{
		{"sessions", "delete", "nope"},
		{"sessions", "delete", "--dry-run", "nope"},
		{"sessions", "show", "nope"},
		{"sessions", "show", "--json", "nope"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			isolateEnv(t)
			home, p := referenceHome(t)
			project := p.ProjectDir()
			// A shared list named like the unknown session.
			if err := os.MkdirAll(filepath.Join(p.TasksDir, "nope"), 0o700); err != nil {
				t.Fatal(err)
			}
			before := paths(t, project)
			r := runCLI(t, append([]string{"--home", home, "--workdir", "/srv/app"}, args...)...)
			if r.code != 1 || r.stderr != "lite-agent: no session nope\n" {
				t.Errorf("exit %d, stderr %q; want 1 and \"no session nope\"", r.code, r.stderr)
			}
			wantOneErrorLine(t, r)
			if after := paths(t, project); !slices.Equal(before, after) {
				t.Errorf("the project changed:\n before %v\n after  %v", before, after)
			}
		})
	}
}

func TestSessionsDeleteDryRunListsWhatWouldGo(t *testing.T) {
	isolateEnv(t)
	home, p := referenceHome(t)
	project := p.ProjectDir()
	for _, name := range []string{"s1.jsonl.broken-1753185600000", "s1.jsonl.torn-1753185600001", "s2.jsonl.torn-1"} {
		if err := os.WriteFile(filepath.Join(p.SessionsDir, name), []byte("{"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	before := paths(t, project)
	base := []string{"--home", home, "--workdir", "/srv/app", "sessions", "delete"}
	r := runCLI(t, append(base, "--dry-run", "s1")...)
	if r.code != 0 {
		t.Fatalf("dry run: %d %s", r.code, r.stderr)
	}
	want := []string{"s1.jsonl", "s1.jsonl.broken-1753185600000", "s1.jsonl.torn-1753185600001", "s1.context"}
	var lines []string
	for _, name := range want {
		lines = append(lines, "would remove "+filepath.Join(p.SessionsDir, name))
	}
	lines = append(lines, "would remove "+filepath.Join(p.TasksDir, "s1"))
	if got := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n"); !slices.Equal(got, lines) {
		t.Errorf("dry run printed\n%q\nwant\n%q", got, lines)
	}
	if after := paths(t, project); !slices.Equal(before, after) {
		t.Fatalf("a dry run changed the project:\n before %v\n after  %v", before, paths(t, project))
	}
	if r := runCLI(t, append(base, "s1")...); r.code != 0 || r.stdout != "deleted session s1\n" {
		t.Fatalf("delete: %d %q %s", r.code, r.stdout, r.stderr)
	}
	wantRemoved(t, before, paths(t, project), func(rel string) bool {
		return strings.HasPrefix(rel, "sessions/s1.") || strings.HasPrefix(rel, "tasks/s1")
	})
}
