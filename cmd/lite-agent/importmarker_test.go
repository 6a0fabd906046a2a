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
)

// An import (migrate --to-store) killed part-way leaves its marker row in
// the project (store/postgres's TestKilledImportIsMarkedAndARerunCompletes
// kills a real one). verify --store must report such a project, and the
// same migrate run again completes the copy, after which verify passes.
func TestVerifyStoreReportsAnUnfinishedImport(t *testing.T) {
	u := pgtest.URL(t)
	isolateEnv(t)
	home, work := t.TempDir(), t.TempDir()
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: work, Storage: storage.Options{Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	enc := storage.Encoding{Namespace: storage.DefaultNamespace, ProjectID: p.Hash}
	cp, err := session.NewFileCheckpointer(p.SessionsDir, session.FileOptions{Encoding: enc})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"s1", "s2"} {
		if _, err := cp.Append(t.Context(), id, []session.Event{session.UserEvent{Message: model.UserText("hello " + id)}}, session.AnyHead); err != nil {
			t.Fatal(err)
		}
	}
	base := []string{"--home", home, "--workdir", work}
	if r := runCLI(t, append(base, "migrate", "--to-store", u)...); r.code != 0 {
		t.Fatalf("migrate: %d %s", r.code, r.stderr)
	}
	// What a killed import leaves: its copy so far (here s2 went missing)
	// and its marker.
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range []string{
		`DELETE FROM lite_agent.events WHERE namespace = $1 AND project = $2 AND session = 's2'`,
		`DELETE FROM lite_agent.sessions WHERE namespace = $1 AND project = $2 AND session = 's2'`,
		`INSERT INTO lite_agent.leases (namespace, project, session, holder, token, expires) VALUES ($1, $2, '.import-incomplete', 'lite-agent import', 0, 'infinity')`,
	} {
		if _, err := conn.Exec(ctx, q, storage.DefaultNamespace, p.Hash); err != nil {
			t.Fatal(err)
		}
	}
	store := append(base, "--store", u)
	r := runCLI(t, append(store, "verify")...)
	if r.code != exitFailure || !strings.Contains(r.stdout+r.stderr, "did not finish") {
		t.Fatalf("verify --store of a partial import: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, append(base, "migrate", "--to-store", u)...); r.code != 0 {
		t.Fatalf("migrate again: %d %s", r.code, r.stderr)
	}
	if r := runCLI(t, append(store, "verify")...); r.code != 0 {
		t.Fatalf("verify after the rerun: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, append(store, "sessions", "show", "s2")...); r.code != 0 || !strings.Contains(r.stdout, "hello s2") {
		t.Errorf("s2 after the rerun: %d %q %q", r.code, r.stdout, r.stderr)
	}
}
