package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/lite-agent/lite-agent-go/task"
)

// importHelper runs ImportFiles of the file home named by arg
// ("home|workdir|point") into st and, at point, says "at" and waits to be
// killed.
func importHelper(ctx context.Context, st *postgres.Store, arg string) error {
	parts := strings.Split(arg, "|")
	if len(parts) != 3 {
		return fmt.Errorf("bad arg %q", arg)
	}
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: parts[1], Storage: storage.Options{Home: parts[0]}})
	if err != nil {
		return err
	}
	p, err := st.Project(storage.Encoding{Namespace: paths.Namespace, ProjectID: paths.Hash})
	if err != nil {
		return err
	}
	wait := func(at string) {
		if at == parts[2] {
			fmt.Println("at")
			time.Sleep(time.Minute)
		}
	}
	postgres.SetImportChecked(p, func() { wait("checked") })
	postgres.SetImportSession(p, func(id string) { wait("session " + id) })
	postgres.SetImportCopied(p, func() { wait("copied") })
	_, err = p.ImportFiles(ctx, paths)
	return err
}

// importSource writes three sessions (one with an archive), a task list
// and a spilled body into a new file home and returns its paths and
// workdir.
func importSource(t *testing.T) (storage.ProjectPaths, string) {
	t.Helper()
	ctx := t.Context()
	workdir := t.TempDir()
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: workdir, Storage: storage.Options{Home: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	enc := storage.Encoding{Namespace: paths.Namespace, ProjectID: paths.Hash}
	cp, err := session.NewFileCheckpointer(paths.SessionsDir, session.FileOptions{Encoding: enc})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"s1", "s2", "s3"} {
		for i := range 3 {
			if _, err := cp.Append(ctx, id, []session.Event{session.UserEvent{Message: model.UserText(fmt.Sprintf("%s %d", id, i))}}, session.AnyHead); err != nil {
				t.Fatal(err)
			}
		}
	}
	ar, err := archive.NewFileArchive(storage.SessionContextDir(paths.SessionsDir, "s2"), archive.Options{Encoding: enc, SessionID: "s2"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ar.Put(ctx, "a note", nil); err != nil {
		t.Fatal(err)
	}
	ts, err := task.NewFileStore(paths.TasksDir, "s1", enc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ts.Create(ctx, task.CreateInput{Subject: "one"}); err != nil {
		t.Fatal(err)
	}
	sp, err := spill.NewFileStore(paths.SpillDir, enc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sp.Put(ctx, "spilled output"); err != nil {
		t.Fatal(err)
	}
	return paths, workdir
}

// An import killed (SIGKILL, a real child process) at a point inside the
// copy leaves a partial project. It must say so: Project.ImportIncomplete
// reports it (lite-agent verify --store reports that), and a rerun removes
// the partial copy and completes, leaving exactly the source's records.
func TestKilledImportIsMarkedAndARerunCompletes(t *testing.T) {
	for _, point := range []string{"checked", "session s1", "session s2", "copied"} {
		t.Run(point, func(t *testing.T) {
			paths, workdir := importSource(t)
			p := killedImport(t, paths, workdir, point)

			ctx := t.Context()
			incomplete, err := p.ImportIncomplete(ctx)
			if err != nil {
				t.Fatal(err)
			}
			empty, err := p.Empty(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !incomplete {
				t.Fatalf("after the import was killed at %s: ImportIncomplete = false (project empty: %v)", point, empty)
			}
			// The rerun waits for the server to notice the dead client.
			rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			var rep postgres.FilesReport
			for {
				rep, err = p.ImportFiles(rctx, paths)
				if running := (*postgres.ImportRunningError)(nil); !errors.As(err, &running) || rctx.Err() != nil {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			if err != nil {
				t.Fatalf("rerun: %v", err)
			}
			if !rep.Verified || rep.Sessions != 3 || rep.Records != 9 || rep.Archives != 1 || rep.TaskLists != 1 || rep.Spilled != 1 {
				t.Errorf("rerun report %+v", rep)
			}
			if incomplete, err := p.ImportIncomplete(ctx); err != nil || incomplete {
				t.Errorf("after the rerun: ImportIncomplete = %v, %v", incomplete, err)
			}
			infos, err := p.Checkpointer().List(ctx)
			if err != nil || len(infos) != 3 {
				t.Errorf("sessions after the rerun: %v, %v", infos, err)
			}
		})
	}
}

// killedImport runs an import of paths in a child killed at point and
// returns the project it was copying into, on schema.
func killedImport(t *testing.T, paths storage.ProjectPaths, workdir, point string) *postgres.Project {
	t.Helper()
	p, _ := killedImportStore(t, paths, workdir, point)
	return p
}

// killedImportStore is killedImport that also returns the store of the
// project.
func killedImportStore(t *testing.T, paths storage.ProjectPaths, workdir, point string) (*postgres.Project, *postgres.Store) {
	t.Helper()
	schema := freshSchema(t)
	st := openStore(t, postgres.Options{Schema: schema})
	p, err := st.Project(storage.Encoding{Namespace: paths.Namespace, ProjectID: paths.Hash})
	if err != nil {
		t.Fatal(err)
	}
	if err := childtest.Start(t, "at", helperEnvs(schema, "import", paths.Home+"|"+workdir+"|"+point)...).Kill(); err != nil {
		t.Fatal(err)
	}
	return p, st
}

// Exporting (migrate --from-store) a project an import did not finish
// would write its partial copy into a new home and report it verified:
// ExportFiles refuses it, with ErrImportIncomplete, and writes nothing.
func TestExportRefusesAProjectAnImportDidNotFinish(t *testing.T) {
	paths, workdir := importSource(t)
	p := killedImport(t, paths, workdir, "session s2")
	dst, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: workdir, Storage: storage.Options{Home: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := p.ExportFiles(t.Context(), dst)
	if !errors.Is(err, postgres.ErrImportIncomplete) {
		t.Fatalf("ExportFiles of a partial import = %+v, %v; want ErrImportIncomplete", rep, err)
	}
	if files := treeFiles(t, dst.Home); len(files) != 0 {
		t.Errorf("the refused export wrote %v", files)
	}
}

// The import's lock must not take one of the pool's connections for the
// whole import: with a pool of one, the copy would wait for it for ever.
func TestImportWithAPoolOfOneConnection(t *testing.T) {
	paths, _ := importSource(t)
	st := openStore(t, postgres.Options{MaxConns: 1})
	p, err := st.Project(storage.Encoding{Namespace: paths.Namespace, ProjectID: paths.Hash})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	rep, err := p.ImportFiles(ctx, paths)
	if err != nil || !rep.Verified {
		t.Fatalf("ImportFiles with MaxConns 1 = %+v, %v", rep, err)
	}
}

// A second import into a project while one runs fails at once with an
// *ImportRunningError and changes nothing: the first completes with
// exactly the files' records.
func TestASecondImportWhileOneRunsIsAnImportRunningError(t *testing.T) {
	paths, _ := importSource(t)
	st := openStore(t, postgres.Options{Schema: freshSchema(t)})
	p, err := st.Project(storage.Encoding{Namespace: paths.Namespace, ProjectID: paths.Hash})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	var second error
	postgres.SetImportChecked(p, func() { _, second = p.ImportFiles(ctx, paths) })
	rep, err := p.ImportFiles(ctx, paths)
	if err != nil {
		t.Fatal(err)
	}
	var running *postgres.ImportRunningError
	if !errors.As(second, &running) || running.Project != paths.Hash || running.Namespace != paths.Namespace {
		t.Fatalf("an import while one runs = %v (%T), want an *ImportRunningError naming the project", second, second)
	}
	if !rep.Verified || rep.Sessions != 3 || rep.Records != 9 {
		t.Errorf("the first import's report %+v", rep)
	}
}
