package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A migrate whose source project does not exist (a mistyped --workdir,
// --namespace or --home) has nothing to copy. migrate between homes says
// so and fails; --to-store and --from-store must too, instead of
// reporting "migrated ... verified" for an empty copy, after which an
// operator may delete the real source believing it copied. Nothing is
// created: no rows, no import marker, no project directory.
func TestMigrateStoreOfAMissingSourceFails(t *testing.T) {
	u := pgtest.URL(t)
	isolateEnv(t)
	home := t.TempDir()
	base := []string{"--home", home, "--workdir", "/srv/no-such-project"}
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: "/srv/no-such-project", Storage: storage.Options{Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	clearStoreProject(t, u, p)

	t.Run("to-store", func(t *testing.T) {
		r := runCLI(t, append(base, "migrate", "--to-store", u)...)
		if r.code != exitFailure || !strings.Contains(r.stderr, "nothing to migrate") || !strings.Contains(r.stderr, p.ProjectDir()) {
			t.Errorf("migrate --to-store of a missing project: %d %q %q", r.code, r.stdout, r.stderr)
		}
		r = runCLI(t, append(base, "--store", u, "verify")...)
		if r.code != 0 {
			t.Errorf("the database project after the refusal: %d %q %q", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("from-store", func(t *testing.T) {
		home2 := t.TempDir()
		r := runCLI(t, "--workdir", "/srv/no-such-project", "migrate", "--from-store", u, "--to-home", home2)
		if r.code != exitFailure || !strings.Contains(r.stderr, "nothing to migrate") {
			t.Errorf("migrate --from-store of a project the database does not hold: %d %q %q", r.code, r.stdout, r.stderr)
		}
		if ents, err := os.ReadDir(home2); err != nil || len(ents) != 0 {
			t.Errorf("the refused --from-store created %v (%v)", ents, err)
		}
	})
	if _, err := os.Lstat(p.ProjectDir()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the source project directory was created: %v", err)
	}
}

// A data home holding the marker of a migration between homes that did
// not finish is a partial copy: agents refuse it, and that migration's
// rerun clears it. migrate --from-store into it reported the project
// "migrated ... verified" into a home no agent opens; it must refuse it,
// naming the marker, and write nothing.
func TestMigrateFromStoreRefusesAHomeAMigrationDidNotFinish(t *testing.T) {
	u := pgtest.URL(t)
	isolateEnv(t)
	home, p := referenceHome(t)
	clearStoreProject(t, u, p)
	if r := runCLI(t, "--home", home, "--workdir", "/srv/app", "migrate", "--to-store", u); r.code != 0 {
		t.Fatalf("migrate --to-store: %d %s", r.code, r.stderr)
	}
	home2 := t.TempDir()
	marker := filepath.Join(home2, migrate.MarkerName)
	if err := os.WriteFile(marker, []byte(`{"liteAgentMigration":1,"source":"/elsewhere"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "--workdir", "/srv/app", "migrate", "--from-store", u, "--to-home", home2)
	if r.code != exitFailure || !strings.Contains(r.stderr, marker) {
		t.Errorf("migrate --from-store into a home a migration did not finish: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if ents, err := os.ReadDir(home2); err != nil || len(ents) != 1 {
		t.Errorf("the home after the refusal: %v (%v)", ents, err)
	}
}
