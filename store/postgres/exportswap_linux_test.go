package postgres_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/safefs/safefstest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// TestSwappedProjectsNeverLeadsAnExportOutside races ExportFiles (the
// files of migrate --from-store) against another local user who exchanges
// the destination home's projects/ with a symlink to a directory outside
// holding an empty directory named as the project (renameat2
// RENAME_EXCHANGE, in a tight loop), each attempt into a home of its own.
// Nothing outside may change: no directory made, no file written,
// stamped or removed there. The export that made its directories with
// os.MkdirAll and wrote, stamped and removed its files by path wrote
// there within a few attempts. An export that fails under the swaps may
// leave files in the home it could not remove (ErrExportLeftFiles): they
// are in the home, not outside, and the error names them.
func TestSwappedProjectsNeverLeadsAnExportOutside(t *testing.T) {
	workdir := t.TempDir()
	first, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: workdir, Storage: storage.Options{Home: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	p := project(t, storage.Encoding{Namespace: first.Namespace, ProjectID: first.Hash})
	if _, err := p.Checkpointer().Append(t.Context(), "s1", []session.Event{session.UserEvent{Message: model.UserText("hello")}}, session.AnyHead); err != nil {
		t.Fatal(err)
	}
	importTasks(t, p, "l1", []string{"1", "2"})

	outside := t.TempDir()
	if err := os.Mkdir(filepath.Join(outside, first.Hash), 0o700); err != nil {
		t.Fatal(err)
	}
	want := safefstest.TreeHash(t, outside, false)
	base := t.TempDir()
	// Most attempts are refused before anything is written (the swapped
	// directory seen); the test goes on past its 8 s, for up to 20 s more,
	// until one has written.
	const attempts = 5000
	start := time.Now()
	done, exported, wrote := 0, 0, 0
	for i := 0; i < attempts && (time.Since(start) < 8*time.Second || wrote == 0 && time.Since(start) < 28*time.Second); i++ {
		done++
		home := filepath.Join(base, fmt.Sprint(i))
		projects := filepath.Join(home, storage.ProjectsDirName)
		if err := os.MkdirAll(projects, 0o700); err != nil {
			t.Fatal(err)
		}
		paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: workdir, Storage: storage.Options{Home: home}})
		if err != nil {
			t.Fatal(err)
		}
		stop := safefstest.SwapWithLink(t, projects, outside)
		_, err = p.ExportFiles(t.Context(), paths)
		stop()
		switch {
		case err == nil:
			exported++
			wrote++
		case errors.Is(err, postgres.ErrExportLeftFiles):
			wrote++ // it wrote, in the home, and could not clear it while the swaps went on
		}
		if got := safefstest.TreeHash(t, outside, false); got != want {
			t.Fatalf("attempt %d (%d exported): the directory outside the destination home changed (last error: %v)", i+1, exported, err)
		}
	}
	if wrote == 0 {
		t.Fatalf("no export of %d attempts wrote a file: the test proved nothing", done)
	}
	t.Logf("%d attempts, %d wrote, %d exported whole; nothing outside changed", done, wrote, exported)
}
