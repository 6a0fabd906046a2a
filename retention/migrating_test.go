package retention_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/retention"
)

func TestMigrationMarkerNameIsMigrates(t *testing.T) {
	if retention.MigrationMarker != migrate.MarkerName {
		t.Fatalf("the sweep looks for %q, migrations write %q", retention.MigrationMarker, migrate.MarkerName)
	}
}

// A migration's destination holds copies with their sources' (old)
// modification times until the migration has verified them and removed
// its marker: the sweep leaves a project, or a home, with the marker alone.
func TestSweepLeavesAMigrationsDestinationAlone(t *testing.T) {
	for _, tc := range []struct {
		name    string
		marker  string // where the marker is, relative to the home
		kept    []string
		removed []string
		skipped []string
	}{
		{
			name: "project", marker: p1,
			kept:    []string{p1 + "/sessions/old.jsonl", p1 + "/spill/0123456789abcdef.txt", p1 + "/sessions/old.context/index.jsonl"},
			removed: []string{"age " + p2 + "/sessions/old.jsonl", "size " + p2 + "/sessions/new.jsonl"},
			skipped: []string{"migrating " + p1, "tasks " + p2 + "/tasks"},
		},
		{
			name: "home", marker: ".",
			kept:    []string{p1 + "/sessions/old.jsonl", p2 + "/sessions/old.jsonl", p2 + "/sessions/new.jsonl"},
			skipped: []string{"migrating ."},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTree(t)
			tr.file(p1+"/sessions/old.jsonl", 10, 40*day)
			tr.file(p1+"/sessions/old.context/index.jsonl", 10, 40*day)
			tr.dir(p1+"/sessions/old.context", 40*day)
			tr.file(p1+"/spill/0123456789abcdef.txt", 10, 40*day)
			tr.file(p2+"/sessions/old.jsonl", 10, 40*day)
			tr.file(p2+"/sessions/new.jsonl", 10, 1*day)
			tr.dir(p2+"/tasks", 0)
			tr.file(filepath.Join(tc.marker, retention.MigrationMarker), 0, 0)

			rep := tr.sweep(retention.Options{LimitBytes: true})

			tr.mustExist(tc.kept...)
			equal(t, "removed", tr.removed(rep), tc.removed)
			equal(t, "skipped", tr.skipped(rep), tc.skipped)
		})
	}
}

// A migration that starts into a project after the sweep scanned it: the
// entries the sweep had found old are left for it.
func TestSweepLeavesAProjectWhoseMigrationBeganSinceTheScan(t *testing.T) {
	tr := newTree(t)
	tr.file(p1+"/sessions/old.jsonl", 10, 40*day)
	tr.file(p1+"/spill/0123456789abcdef.txt", 10, 1*day)
	rep, err := retention.SweepCallingBeforeRemove(t.Context(), retention.Options{Home: tr.home, LimitBytes: true}, func(string) {
		marker := tr.path(filepath.Join(p1, retention.MigrationMarker))
		if err := os.WriteFile(marker, nil, 0o600); err != nil {
			t.Error(err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	tr.mustExist(p1+"/sessions/old.jsonl", p1+"/spill/0123456789abcdef.txt")
	equal(t, "removed", tr.removed(rep), nil)
	equal(t, "skipped", tr.skipped(rep), []string{"migrating " + p1 + "/sessions/old.jsonl", "migrating " + p1 + "/spill/0123456789abcdef.txt"})
}
