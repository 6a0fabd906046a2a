package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A session whose delete did not finish (its log set aside as
// <id>.jsonl.deleting, its archive still there) is not "no session":
// sessions show, sessions checkpoints, sessions compact, run --resume
// and run --session-id (a new session of that id) say it is being
// deleted and how to finish the delete, and change nothing.
func TestShowOfASessionBeingDeletedSaysSo(t *testing.T) {
	for _, args := range [][]string{
		{"sessions", "show", "s1"},
		{"sessions", "show", "--json", "s1"},
		{"sessions", "checkpoints", "s1"},
		{"run", "--resume", "s1", "go on"},
		{"sessions", "compact", "s1"},
		{"run", "--session-id", "s1", "go on"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			isolateEnv(t)
			home, p := referenceHome(t)
			log := filepath.Join(p.SessionsDir, "s1.jsonl")
			if err := os.Rename(log, log+".deleting"); err != nil {
				t.Fatal(err)
			}
			before := paths(t, p.ProjectDir())
			r := runCLI(t, append([]string{"--home", home, "--workdir", "/srv/app"}, args...)...)
			if r.code != 1 || !strings.Contains(r.stderr, "session s1 is being deleted") || !strings.Contains(r.stderr, "delete it again") {
				t.Errorf("exit %d, stderr %q; want 1 and that session s1 is being deleted", r.code, r.stderr)
			}
			wantOneErrorLine(t, r)
			if after := paths(t, p.ProjectDir()); !slices.Equal(before, after) {
				t.Errorf("the project changed:\n before %v\n after  %v", before, after)
			}
		})
	}
}

// sessions list does not list a session whose delete did not finish, and
// notes it on stderr with the command that finishes it, so that its
// leftovers are not forgotten.
func TestListNotesASessionBeingDeleted(t *testing.T) {
	isolateEnv(t)
	home, p := referenceHome(t)
	log := filepath.Join(p.SessionsDir, "s1.jsonl")
	if err := os.Rename(log, log+".deleting"); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"sessions", "list"}, {"sessions", "list", "--json"}} {
		r := runCLI(t, append([]string{"--home", home, "--workdir", "/srv/app"}, args...)...)
		if r.code != 0 || strings.Contains(r.stdout, "s1") {
			t.Errorf("%v: exit %d, stdout %q; want 0 and no s1", args, r.code, r.stdout)
		}
		if !strings.Contains(r.stderr, "session s1 is being deleted") || !strings.Contains(r.stderr, "lite-agent sessions delete s1") {
			t.Errorf("%v: stderr %q; want a note that s1 is being deleted", args, r.stderr)
		}
	}
}
