package postgres_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/lite-agent/lite-agent-go/task"
)

// A task list a fork killed part-way left in a data home carries
// task.ForkMarker and has no session log: the file sweeper removes it once
// old, and verify reports it. Copied into the database (migrate
// --to-store) and back (--from-store), it must stay marked as a fork's:
// without the mark it passes for a real list, which no sweep ever
// removes. The real lists stay unmarked.
func TestForkLeftoverListKeepsItsMarkThroughTheDatabase(t *testing.T) {
	ctx := t.Context()
	paths, workdir := importSource(t)
	enc := storage.Encoding{Namespace: paths.Namespace, ProjectID: paths.Hash}
	left, err := task.NewFileStore(paths.TasksDir, "f1", enc)
	if err != nil {
		t.Fatal(err)
	}
	if err := left.MarkForking(); err != nil {
		t.Fatal(err)
	}
	if _, err := left.Create(ctx, task.CreateInput{Subject: "copied by a fork"}); err != nil {
		t.Fatal(err)
	}
	schema := freshSchema(t)
	st := openStore(t, postgres.Options{Schema: schema})
	p, err := st.Project(enc)
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := p.ImportFiles(ctx, paths); err != nil || !rep.Verified {
		t.Fatalf("ImportFiles = %+v, %v", rep, err)
	}
	back, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: workdir, Storage: storage.Options{Home: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := p.ExportFiles(ctx, back); err != nil || !rep.Verified {
		t.Fatalf("ExportFiles = %+v, %v", rep, err)
	}
	for list, want := range map[string]bool{"f1": true, "s1": false} {
		_, err := os.Lstat(filepath.Join(back.TaskListDir(list), task.ForkMarker))
		if got := err == nil; got != want {
			t.Errorf("task list %s after the round trip: marked %v, want %v (%v)", list, got, want, err)
		}
	}

	// In the database, the leftover is swept once old, as in files.
	conn, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for _, stmt := range []string{
		`UPDATE ` + schema + `.task_lists SET modified = modified - interval '40 days'`,
		`UPDATE ` + schema + `.leases SET expires = expires - interval '40 days' WHERE expires <> 'infinity'`,
	} {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.Sweep(ctx, postgres.SweepOptions{Namespace: paths.Namespace, MaxAge: 30 * 24 * time.Hour}); err != nil {
		t.Fatal(err)
	}
	ids, err := st.TaskListIDs(ctx, enc)
	if err != nil || !slices.Equal(ids, []string{"s1"}) {
		t.Errorf("task lists after the sweep: %v, %v (want only s1)", ids, err)
	}
}
