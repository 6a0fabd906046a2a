package postgres_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/internal/safefs/safefstest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/lite-agent/lite-agent-go/task"
)

// TestSwappedProjectsNeverLeadsAnImportOutside races ImportFiles (the
// PostgreSQL import of a file home) against another local user who
// exchanges the source home's projects/ with a symlink to a directory
// outside (renameat2 RENAME_EXCHANGE, in a tight loop) that holds a
// project of the same hash, with a session, an archive, a task list and
// a spilled body of the same names whose records say "outside". Each
// attempt imports a project of its own, from a home of its own. No
// record from outside may be copied into the database, not even for the
// moment before the verification: the test looks at what the import
// inserted once it has copied the session (with its archive), once it
// has copied everything, and at the end. Nothing
// outside may change either. The import that listed and read the files
// by path copied records from outside within a few attempts.
func TestSwappedProjectsNeverLeadsAnImportOutside(t *testing.T) {
	st := openStore(t, postgres.Options{})
	base, decoys := t.TempDir(), t.TempDir()
	const marker = "outside"
	fill := func(t *testing.T, home, workdir, text string) storage.ProjectPaths {
		t.Helper()
		ctx := t.Context()
		paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: workdir, Storage: storage.Options{Home: home}})
		if err != nil {
			t.Fatal(err)
		}
		enc := storage.Encoding{Namespace: paths.Namespace, ProjectID: paths.Hash}
		cp, err := session.NewFileCheckpointer(paths.SessionsDir, session.FileOptions{Encoding: enc})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cp.Append(ctx, "s1", []session.Event{session.UserEvent{Message: model.UserText(text)}}, session.AnyHead); err != nil {
			t.Fatal(err)
		}
		ar, err := archive.NewFileArchive(storage.SessionContextDir(paths.SessionsDir, "s1"), archive.Options{Encoding: enc, SessionID: "s1"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ar.Put(ctx, "a note "+text, nil); err != nil {
			t.Fatal(err)
		}
		ts, err := task.NewFileStore(paths.TasksDir, "l1", enc)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ts.Create(ctx, task.CreateInput{Subject: "task " + text}); err != nil {
			t.Fatal(err)
		}
		sp, err := spill.NewFileStore(paths.SpillDir, enc)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sp.Put(ctx, "spilled "+text); err != nil {
			t.Fatal(err)
		}
		return paths
	}
	// leaked reports whether any record of p holds the marker of the
	// records outside.
	leaked := func(ctx context.Context, p *postgres.Project) bool {
		var all [][]byte
		recs, _, _ := p.ExportSession(ctx, "s1")
		all = append(all, recs...)
		index, notes, _ := p.ExportArchive(ctx, "s1")
		all = append(all, index...)
		for _, n := range notes {
			all = append(all, n)
		}
		tasks, _, _ := p.ExportTaskList(ctx, "l1")
		for _, r := range tasks {
			all = append(all, r)
		}
		_ = p.ExportSpill(ctx, func(_ string, body []byte, _ time.Time) error {
			all = append(all, body)
			return nil
		})
		for _, r := range all {
			if bytes.Contains(r, []byte(marker)) {
				return true
			}
		}
		return false
	}

	// The decoys of every attempt's project lie in one home's projects/,
	// which the link leads to.
	outside := filepath.Join(decoys, storage.ProjectsDirName)
	const attempts = 5000
	start := time.Now()
	var want string
	// Most attempts are refused before they have read much (the swapped
	// directory seen); the test goes on past its 8 s, for up to 12 s
	// more, until one has copied the session, its log and its archive.
	done, sessions, read, imported := 0, 0, 0, 0
	for i := 0; i < attempts && (time.Since(start) < 8*time.Second || sessions == 0 && time.Since(start) < 20*time.Second); i++ {
		done++
		workdir := fmt.Sprintf("/srv/app%d", i)
		home := filepath.Join(base, fmt.Sprint(i))
		paths := fill(t, home, workdir, "inside")
		fill(t, decoys, workdir, marker)
		want = safefstest.TreeHash(t, outside, false)
		p, err := st.Project(storage.Encoding{Namespace: paths.Namespace, ProjectID: paths.Hash})
		if err != nil {
			t.Fatal(err)
		}
		copiedSession, copied, leak := false, false, false
		postgres.SetImportSession(p, func(string) { copiedSession, leak = true, leak || leaked(t.Context(), p) })
		postgres.SetImportCopied(p, func() { copied, leak = true, leak || leaked(t.Context(), p) })
		stop := safefstest.SwapWithLink(t, storage.ProjectsDir(home), outside)
		_, err = p.ImportFiles(t.Context(), paths)
		stop()
		if copiedSession {
			sessions++
		}
		if copied {
			read++
		}
		if err == nil {
			imported++
		}
		if leak || leaked(t.Context(), p) {
			t.Fatalf("attempt %d (%d imported): a record from outside the home was copied into the database (import error: %v)", i+1, imported, err)
		}
		if got := safefstest.TreeHash(t, outside, false); got != want {
			t.Fatalf("attempt %d (%d imported): the directory outside the home changed (import error: %v)", i+1, imported, err)
		}
	}
	if sessions == 0 {
		t.Fatalf("no import of %d attempts copied the session: the test proved nothing", done)
	}
	t.Logf("%d attempts, %d copied the session, %d read every file, %d imported whole; nothing from outside copied", done, sessions, read, imported)
}
