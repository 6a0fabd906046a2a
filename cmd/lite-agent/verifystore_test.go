package main

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// verify --store must read what an agent reads back later: a context
// archive note or a spilled body whose row was damaged (here: replaced by
// other bytes, which no codec stops without one) is a problem, not a pass.
func TestVerifyStoreReadsArchivesAndSpilledOutput(t *testing.T) {
	u := pgtest.URL(t)
	isolateEnv(t)
	home, work := t.TempDir(), t.TempDir()
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: work, Storage: storage.Options{Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := postgres.Open(ctx, u, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	pr, err := st.Project(storage.Encoding{Namespace: storage.DefaultNamespace, ProjectID: p.Hash})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pr.Checkpointer().Append(ctx, "s1", []session.Event{session.UserEvent{Message: model.UserText("hi")}}, session.AnyHead); err != nil {
		t.Fatal(err)
	}
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
