package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// clearStoreProject deletes the rows of project p from the CLI's schema
// of the database at u, now and when t ends: tests that share a workdir
// share its project there.
func clearStoreProject(t *testing.T, u string, p storage.ProjectPaths) {
	t.Helper()
	clear := func() {
		ctx := context.Background()
		st, err := postgres.Open(ctx, u, postgres.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		pr, err := st.Project(storage.Encoding{Namespace: p.Namespace, ProjectID: p.Hash})
		if err != nil {
			t.Fatal(err)
		}
		if err := pr.Clear(ctx); err != nil {
			t.Fatal(err)
		}
	}
	clear()
	t.Cleanup(clear)
}

// A data home (or project) holding the marker of a migration that did not
// finish holds part of a copy; agents refuse it. migrate --to-store must
// refuse it too instead of importing the partial copy and reporting it
// verified, and the database must stay empty.
func TestMigrateToStoreRefusesAnIncompleteSource(t *testing.T) {
	u := pgtest.URL(t)
	isolateEnv(t)
	for _, where := range []string{"home", "project"} {
		t.Run(where, func(t *testing.T) {
			home, p := referenceHome(t)
			clearStoreProject(t, u, p)
			dir := home
			if where == "project" {
				dir = p.ProjectDir()
			}
			if err := os.WriteFile(filepath.Join(dir, migrate.MarkerName), []byte("{}"), 0o600); err != nil {
				t.Fatal(err)
			}
			base := []string{"--home", home, "--workdir", "/srv/app"}
			r := runCLI(t, append(base, "migrate", "--to-store", u)...)
			if r.code == 0 || !strings.Contains(r.stderr, migrate.MarkerName) {
				t.Errorf("migrate --to-store of an incomplete source: %d %q %q", r.code, r.stdout, r.stderr)
			}
			r = runCLI(t, append(base, "--store", u, "sessions", "list", "--json")...)
			if r.code != 0 || strings.TrimSpace(r.stdout) != "[]" {
				t.Errorf("the database after the refusal: %d %q %q", r.code, r.stdout, r.stderr)
			}
		})
	}
}
