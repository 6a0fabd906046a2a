package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCommandsRefuseALinkedProjectsOrProjectDir plants, in a data home
// copied from elsewhere or on a shared disk, a projects/ or projects/<hash>
// that is a symlink to a directory outside the home (round 128). An agent
// refused it, but the store of each command checks only its own directory:
// sessions delete removed the session log of the directory the link led
// to, and the reading commands read it. Each command now fails with the
// agent's "must not be a symlink" and leaves that directory as it was.
func TestCommandsRefuseALinkedProjectsOrProjectDir(t *testing.T) {
	isolateEnv(t)
	for _, link := range []string{"projects", "projects/HASH"} {
		for _, args := range [][]string{
			{"sessions", "delete", "s1"},
			{"sessions", "compact", "s1"},
			{"sessions", "fork", "s1", "--at", "1"},
			{"sessions", "restore", "s1", "--to", "1"},
			{"sessions", "list"},
			{"sessions", "show", "s1"},
			{"tasks", "list"},
			{"verify"},
		} {
			t.Run(link+" "+strings.Join(args, " "), func(t *testing.T) {
				home, p := referenceHome(t)
				path := filepath.Join(home, strings.Replace(link, "HASH", p.Hash, 1))
				moved := filepath.Join(t.TempDir(), "elsewhere")
				if err := os.Rename(path, moved); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(moved, path); err != nil {
					t.Fatal(err)
				}
				before := tree(t, moved)
				r := runCLI(t, append([]string{"--home", home, "--workdir", "/srv/app"}, args...)...)
				if r.code != exitFailure || !strings.Contains(r.stderr, "must not be a symlink: "+path) {
					t.Errorf("exit %d, stderr %q: want the link refused", r.code, r.stderr)
				}
				if after := tree(t, moved); !slices.Equal(before, after) {
					t.Errorf("the directory the link leads to changed:\nbefore %q\nafter  %q", before, after)
				}
			})
		}
	}
}
