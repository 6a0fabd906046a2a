package migrate_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
)

// What the lock protocol leaves in a sessions or tasks directory (the
// parked lock directory the session store's appends leave, and after a
// kill a claim or a lock set aside) neither stops a migration nor is
// copied or listed.
func TestLockLeftoversDoNotStopAMigration(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	if _, err := os.Lstat(filepath.Join(src.paths.SessionsDir, filelock.IdleName)); err != nil {
		t.Logf("no parked directory after the appends: %v", err)
	}
	for _, d := range []string{src.paths.SessionsDir, src.paths.TasksDir} {
		for _, n := range []string{".claim-0123456789ab.lock", ".stale-0123456789ab.lock", filelock.IdleName} {
			if err := os.Mkdir(filepath.Join(d, n), 0o700); err != nil && !os.IsExist(err) {
				t.Fatal(err)
			}
		}
	}
	for _, f := range migrateAll(t, src) {
		if strings.Contains(f, "claim") || strings.Contains(f, "stale") || strings.Contains(f, "idle") {
			t.Errorf("copied %s", f)
		}
	}
}

// The spill directory holds locks too (a body's, <ref>.txt.lock, taken by
// a sweep removing it or a Put waiting for one), and, since every lock is
// made and released under a hidden name, what a process killed meanwhile
// leaves: neither stops a migration nor is copied.
func TestSpillLocksDoNotStopAMigration(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	if len(src.spillRefs) == 0 {
		t.Fatal("no spill file in the fixture")
	}
	for _, n := range []string{src.spillRefs[0] + ".txt" + filelock.Suffix, ".stale-0123456789ab.lock", ".claim-0123456789ab.lock"} {
		if err := os.Mkdir(filepath.Join(src.paths.SpillDir, n), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range migrateAll(t, src) {
		if strings.Contains(f, ".lock") {
			t.Errorf("copied %s", f)
		}
	}
}

// A migration killed while it took or released the destination's lock
// leaves that lock's directory under a hidden leftover name
// (.stale-<hex>.lock) in the destination: a rerun takes the destination
// as empty (or as the interrupted migration it is) all the same.
func TestDestinationLockLeftoverDoesNotStopARerun(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	for _, withData := range []bool{false, true} {
		t.Run(fmt.Sprintf("interrupted=%v", withData), func(t *testing.T) {
			dstHome := t.TempDir()
			to := migrate.Endpoint{Storage: storage.Options{Home: dstHome}}
			root := resolve(t, workdir, to.Storage).ProjectDir()
			if err := os.MkdirAll(filepath.Join(root, ".stale-0123456789ab.lock"), 0o700); err != nil {
				t.Fatal(err)
			}
			if withData {
				marker := fmt.Sprintf(`{"liteAgentMigration":1,"source":%q,"destination":%q,"startedAt":"2026-01-01T00:00:00Z"}`, src.paths.ProjectDir(), root)
				if err := os.WriteFile(filepath.Join(root, migrate.MarkerName), []byte(marker), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := migrate.Run(t.Context(), migrate.Options{From: migrate.Endpoint{Workdir: workdir, Storage: src.opts}, To: to}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// migrateAll migrates the project src to a new home, failing the test on
// an error or a skipped entry, and returns the files of the new home.
func migrateAll(t *testing.T, src fixture) []string {
	t.Helper()
	dstHome := t.TempDir()
	rep, err := migrate.Run(t.Context(), migrate.Options{
		From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:   migrate.Endpoint{Storage: storage.Options{Home: dstHome}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Skipped) != 0 {
		t.Errorf("skipped %v", rep.Skipped)
	}
	return files(t, dstHome)
}
