package postgres_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// A row of the spill or archive_notes table whose ref is not a ref (a
// database written by something else than this package, or tampered
// with) named a file outside the destination of ExportFiles
// (migrate --from-store): "<spill dir>/<ref>.txt" with ref
// "../../../../x" is a file beside the data home. The export wrote it
// there (verification reads only the spill directory, so it passed) and
// reported success. It must refuse the row with a *storage.Error naming
// it, write nothing, and leave no file anywhere.
func TestExportRefusesRefsThatAreNotRefs(t *testing.T) {
	for _, table := range []string{"spill", "archive_notes"} {
		t.Run(table, func(t *testing.T) {
			ctx := t.Context()
			root := t.TempDir()
			home := filepath.Join(root, "home")
			paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: "/srv/app", Storage: storage.Options{Home: home}})
			if err != nil {
				t.Fatal(err)
			}
			schema := freshSchema(t)
			st := openStore(t, postgres.Options{Schema: schema})
			p, err := st.Project(storage.Encoding{Namespace: paths.Namespace, ProjectID: paths.Hash})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Checkpointer().Append(ctx, "s1", []session.Event{session.UserEvent{}}, session.AnyHead); err != nil {
				t.Fatal(err)
			}
			dir := paths.SpillDir
			suffix := spill.FileSuffix
			if table == "archive_notes" {
				ar, err := st.Archive(ctx, storage.Encoding{Namespace: paths.Namespace, ProjectID: paths.Hash}, "s1")
				if err != nil {
					t.Fatal(err)
				}
				if _, err := ar.Put(ctx, "a note", nil); err != nil {
					t.Fatal(err)
				}
				dir = filepath.Join(storage.SessionContextDir(paths.SessionsDir, "s1"), archive.NotesDir)
				suffix = archive.NoteSuffix
			}
			// Enough ".." to leave the project directory, not the test's.
			rel, err := filepath.Rel(root, dir)
			if err != nil {
				t.Fatal(err)
			}
			ref := strings.Repeat("../", strings.Count(rel, string(filepath.Separator))+1) + "escaped"
			escaped := filepath.Join(dir, ref+suffix)
			if escaped != filepath.Join(root, "escaped"+suffix) {
				t.Fatalf("the test's ref would name %s, outside %s", escaped, root)
			}
			conn, err := pgx.Connect(ctx, pgtest.URL(t))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(context.Background())
			q := `INSERT INTO ` + schema + `.spill (namespace, project, ref, data, created) VALUES ($1, $2, $3, 'planted', now())`
			if table == "archive_notes" {
				q = `INSERT INTO ` + schema + `.archive_notes (namespace, project, session, ref, data) VALUES ($1, $2, 's1', $3, 'planted')`
			}
			if _, err := conn.Exec(ctx, q, paths.Namespace, paths.Hash, ref); err != nil {
				t.Fatal(err)
			}

			rep, err := p.ExportFiles(ctx, paths)
			var se *storage.Error
			if !errors.As(err, &se) {
				t.Errorf("ExportFiles with the %s ref %q = %+v, %v; want a *storage.Error", table, ref, rep, err)
			}
			if _, err := os.Lstat(escaped); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the export wrote %s, outside its destination (%v)", escaped, err)
			}
			if _, err := os.Lstat(home); err == nil {
				if files := treeFiles(t, home); len(files) != 0 {
					t.Errorf("the refused export left %v", files)
				}
			}
		})
	}
}
