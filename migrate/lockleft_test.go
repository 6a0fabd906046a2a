package migrate_test

import (
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
	for _, f := range files(t, dstHome) {
		if strings.Contains(f, "claim") || strings.Contains(f, "stale") || strings.Contains(f, "idle") {
			t.Errorf("copied %s", f)
		}
	}
}
