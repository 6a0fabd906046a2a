package migrate_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// A task list holding a fork's mark (task.ForkMarker: a fork that did not
// finish, or one killed after its log, before removing the mark) is
// migrated with its tasks; the mark is listed as skipped, not refused as
// an unknown file.
func TestMigrationCopiesAListWithAForkMark(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	mark := filepath.Join(src.paths.TaskListDir("s1"), task.ForkMarker)
	if err := os.WriteFile(mark, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	dstHome := t.TempDir()
	rep, err := migrate.Run(t.Context(), migrate.Options{
		From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:   migrate.Endpoint{Storage: storage.Options{Home: dstHome}},
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	skipped := false
	for _, s := range rep.Skipped {
		skipped = skipped || s.File == mark
	}
	if !skipped {
		t.Errorf("the fork's mark is not listed as skipped: %+v", rep.Skipped)
	}
	dst := resolve(t, workdir, storage.Options{Home: dstHome})
	equalContents(t, read(t, src, dst, storage.Encoding{Namespace: dst.Namespace, ProjectID: dst.Hash}), read(t, src, src.paths, src.enc()))
}
