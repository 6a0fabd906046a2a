package migrate_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/retention"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A migration keeps its source's modification times, so the files it has
// copied look as old as their sources. A sweep of the destination home
// while the migration runs (the startup sweep of an agent of another
// project there, or lite-agent cleanup) must not remove them: the
// migration then removes its marker, and a destination that lacks what it
// reported copied and verified passes for complete.
func TestSweepDuringMigrationLeavesTheCopyAlone(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	old := time.Now().Add(-40 * 24 * time.Hour)
	if err := filepath.WalkDir(src.paths.ProjectDir(), func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, old, old)
	}); err != nil {
		t.Fatal(err)
	}
	for _, all := range []bool{false, true} {
		name := "one project"
		if all {
			name = "all projects"
		}
		t.Run(name, func(t *testing.T) {
			dstHome := t.TempDir()
			var removed []string
			var sweepErr error
			rep, err := migrate.Run(t.Context(), migrate.Options{
				From:             migrate.Endpoint{Workdir: workdir, Storage: src.opts},
				To:               migrate.Endpoint{Storage: storage.Options{Home: dstHome}},
				AllProjects:      all,
				Workers:          1,
				ProgressInterval: -1,
				Progress: func(p migrate.Progress) {
					if p.Files == 0 || p.Files >= p.TotalFiles || sweepErr != nil {
						return
					}
					r, err := retention.Sweep(t.Context(), retention.Options{Home: dstHome})
					if err != nil {
						sweepErr = err
					}
					for _, e := range r.Removed {
						removed = append(removed, e.Path)
					}
				},
			})
			if sweepErr != nil {
				t.Fatal(sweepErr)
			}
			if len(removed) > 0 {
				t.Errorf("the sweep removed, mid-migration, %q", removed)
			}
			if err != nil {
				if errors.Is(err, migrate.ErrVerification) {
					return // not passed for complete
				}
				t.Fatalf("migrate: %v", err)
			}
			if !rep.Verified {
				t.Fatal("not verified")
			}
			dst := resolve(t, workdir, storage.Options{Home: dstHome})
			equalContents(t, read(t, src, dst, storage.Encoding{ProjectID: dst.Hash}), read(t, src, src.paths, src.enc()))
		})
	}
}
