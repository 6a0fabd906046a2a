package postgres_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// ageFiles sets the modification time of every file under root to d ago.
func ageFiles(t *testing.T, root string, d time.Duration) {
	t.Helper()
	old := time.Now().Add(-d)
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A project an import did not finish copying into (killed, a real child
// process) holds part of the copy, marked (Project.ImportIncomplete) so
// that the rerun can remove exactly it. The imported records keep the
// times of their files, old here: the retention sweep must leave such a
// project alone, as the file sweeper skips a directory holding a
// migration's marker, instead of deleting part of the copy (and the
// spilled bodies) from under the import.
func TestSweepLeavesAProjectAnImportDidNotFinish(t *testing.T) {
	for _, dry := range []bool{false, true} {
		name := "sweep"
		if dry {
			name = "dry run"
		}
		t.Run(name, func(t *testing.T) {
			paths, workdir := importSource(t)
			ageFiles(t, paths.Home, 90*24*time.Hour)
			p, st := killedImportStore(t, paths, workdir, "copied")
			ctx := t.Context()
			if incomplete, err := p.ImportIncomplete(ctx); err != nil || !incomplete {
				t.Fatalf("ImportIncomplete = %v, %v", incomplete, err)
			}
			rep, err := st.Sweep(ctx, postgres.SweepOptions{Namespace: paths.Namespace, MaxAge: 30 * 24 * time.Hour, DryRun: dry})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Deleted) != 0 || rep.Spilled != 0 {
				t.Errorf("the sweep of a project an import did not finish: deleted %+v, %d spilled bodies", rep.Deleted, rep.Spilled)
			}
			infos, err := p.Checkpointer().List(ctx)
			if err != nil || len(infos) != 3 {
				t.Errorf("sessions after the sweep: %v, %v", infos, err)
			}
			body, err := os.ReadDir(paths.SpillDir)
			if err != nil || len(body) != 1 {
				t.Fatalf("spill source %v %v", body, err)
			}
			ref, _ := spill.FileRef(body[0].Name())
			if _, found, err := p.Spill().Get(ctx, ref); err != nil || !found {
				t.Errorf("the spilled body after the sweep: found %v, %v", found, err)
			}
			if incomplete, err := p.ImportIncomplete(ctx); err != nil || !incomplete {
				t.Errorf("ImportIncomplete after the sweep = %v, %v", incomplete, err)
			}
		})
	}
}
