package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A task list or a context archive replaced by a symlink is refused by
// the stores ("must not be a symlink"): the agent cannot read that list
// or the session's archived results. verify must report it, not skip it.
func TestVerifyReportsASymlinkedTaskListOrArchive(t *testing.T) {
	isolateEnv(t)
	for _, rel := range []string{"tasks/shared", "sessions/s1.context"} {
		t.Run(rel, func(t *testing.T) {
			home, p := referenceHome(t)
			path := filepath.Join(p.ProjectDir(), rel)
			moved := filepath.Join(t.TempDir(), "elsewhere")
			if err := os.Rename(path, moved); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(moved, path); err != nil {
				t.Fatal(err)
			}
			r := runCLI(t, "--home", home, "--workdir", "/srv/app", "verify")
			if r.code != exitFailure || !strings.Contains(r.stdout, path) {
				t.Errorf("verify with %s a symlink: %d %q %q", rel, r.code, r.stdout, r.stderr)
			}
		})
	}
}
