package migrate_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestASourceDirectoryRemovedDuringThePlanIsNotMadeAgain removes each of
// the project's sessions/, tasks/ and spill/ directories after the plan
// listed it and before it opened it: the run fails (the source changed under
// it) and the source directory stays gone, as the package's rule "a source
// directory that does not exist is never created" says.
func TestASourceDirectoryRemovedDuringThePlanIsNotMadeAgain(t *testing.T) {
	for _, name := range []string{"sessions", "tasks", "spill"} {
		t.Run(name, func(t *testing.T) {
			src := buildProject(t, t.TempDir(), workdir, nil, "")
			target := filepath.Join(src.projectDir(), name)
			opts := migrate.Options{
				From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
				To:   migrate.Endpoint{Storage: storage.Options{Home: t.TempDir(), Codec: aead(t, "k1", 1)}},
			}
			removed := false
			migrate.BeforeAnchor(&opts, func(path string) {
				if path != target {
					return
				}
				if err := os.RemoveAll(path); err != nil {
					t.Error(err)
				}
				removed = true
			})
			_, err := migrate.Run(t.Context(), opts)
			if !removed {
				t.Fatalf("the plan never opened %s", target)
			}
			if err == nil {
				t.Fatal("a migration whose source lost a directory during the plan succeeded")
			}
			if _, serr := os.Lstat(target); !errors.Is(serr, fs.ErrNotExist) {
				t.Fatalf("the source directory %s is there again after the run (%v); run error: %v", target, serr, err)
			}
		})
	}
}
