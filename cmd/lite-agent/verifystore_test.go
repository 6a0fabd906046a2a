package main

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/verify"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/lite-agent/lite-agent-go/task"
)

// verify --store must read what an agent reads back later: a context
// archive note or a spilled body whose row was damaged (here: replaced by
// other bytes, which no codec stops without one) is a problem, not a pass.
func TestVerifyStoreReadsArchivesAndSpilledOutput(t *testing.T) {
	u, home, work, p, pr := storeWithSession(t)
	ctx := context.Background()
	ar, err := pr.Archive("s1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ar.Put(ctx, "an archived tool result", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := pr.Spill().Put(ctx, "a spilled body"); err != nil {
		t.Fatal(err)
	}
	store := []string{"--home", home, "--workdir", work, "--store", u}
	if r := runCLI(t, append(store, "verify")...); r.code != 0 {
		t.Fatalf("verify --store before the damage: %d %q %q", r.code, r.stdout, r.stderr)
	}
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, c := range []struct{ name, sql, want string }{
		{"archive note", `UPDATE lite_agent.archive_notes SET data = 'another result' WHERE namespace = $1 AND project = $2`, "archive"},
		{"spilled body", `UPDATE lite_agent.spill SET data = 'another body' WHERE namespace = $1 AND project = $2`, "spill"},
	} {
		if _, err := conn.Exec(ctx, c.sql, storage.DefaultNamespace, p.Hash); err != nil {
			t.Fatal(err)
		}
		r := runCLI(t, append(store, "verify")...)
		if r.code != exitFailure || !strings.Contains(r.stdout, c.want) {
			t.Errorf("verify --store with a damaged %s: %d %q %q", c.name, r.code, r.stdout, r.stderr)
		}
	}
}

// A fork through the PostgreSQL store copies the archive and the private
// task list before the log; killed between (the root package's
// TestAKilledForkThroughPostgresLeavesNoHalfMadeSession kills real ones),
// it leaves an archive and a task list no session has, marked as a fork's
// (Store.MarkForking). verify --store warns of both, and, as verify of a
// data home warns only of a list holding task.ForkMarker, never of a list
// without the mark: a shared list, or one an agent used through
// --task-list without marking it shared, has no session.
func TestVerifyStoreWarnsOfWhatAKilledForkLeft(t *testing.T) {
	u, home, work, p, pr := storeWithSession(t)
	ctx := context.Background()
	st, err := postgres.Open(ctx, u, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.MarkForking(ctx, storage.Encoding{Namespace: storage.DefaultNamespace, ProjectID: p.Hash}, "f1"); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"s1", "f1"} {
		ar, err := pr.Archive(id, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ar.Put(ctx, "archived in "+id, nil); err != nil {
			t.Fatal(err)
		}
		tl, err := pr.TaskList(id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tl.Create(ctx, task.CreateInput{Subject: "work of " + id}); err != nil {
			t.Fatal(err)
		}
	}
	shared, err := pr.TaskList("team")
	if err != nil {
		t.Fatal(err)
	}
	if err := shared.MarkShared(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := shared.Create(ctx, task.CreateInput{Subject: "shared work"}); err != nil {
		t.Fatal(err)
	}
	unmarked, err := pr.TaskList("g1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := unmarked.Create(ctx, task.CreateInput{Subject: "work of no session"}); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "--home", home, "--workdir", work, "--store", u, "verify", "--json")
	var rep verify.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); r.code != 0 || err != nil {
		t.Fatalf("verify --store: %d %v %q %q", r.code, err, r.stdout, r.stderr)
	}
	var got []string
	for _, w := range rep.Warnings {
		if w.Kind == "leftover" {
			got = append(got, w.File)
		}
	}
	slices.Sort(got)
	if want := []string{"archive f1", "task list f1"}; !slices.Equal(got, want) {
		t.Errorf("leftover warnings %q, want %q (all: %+v)", got, want, rep.Warnings)
	}
}

// storeWithSession opens the test database for a new project of a new
// workdir and home, whose session s1 holds one event, and returns the
// database's URL, the home, the workdir, their paths and the project.
func storeWithSession(t *testing.T) (u, home, work string, p storage.ProjectPaths, pr *postgres.Project) {
	t.Helper()
	u = pgtest.URL(t)
	isolateEnv(t)
	home, work = t.TempDir(), t.TempDir()
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: work, Storage: storage.Options{Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := postgres.Open(ctx, u, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	pr, err = st.Project(storage.Encoding{Namespace: storage.DefaultNamespace, ProjectID: p.Hash})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pr.Checkpointer().Append(ctx, "s1", []session.Event{session.UserEvent{Message: model.UserText("hi")}}, session.AnyHead); err != nil {
		t.Fatal(err)
	}
	return u, home, work, p, pr
}
