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
// migrated with its tasks and its mark, so that the copy is told apart
// from a real list as the source is, instead of being refused as an
// unknown file.
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
	if len(rep.Skipped) != 0 {
		t.Errorf("skipped %+v", rep.Skipped)
	}
	dst := resolve(t, workdir, storage.Options{Home: dstHome})
	if st, err := os.Lstat(filepath.Join(dst.TaskListDir("s1"), task.ForkMarker)); err != nil || st.Size() != 0 {
		t.Errorf("the fork's mark in the copy: %v", err)
	}
	equalContents(t, read(t, src, dst, storage.Encoding{Namespace: dst.Namespace, ProjectID: dst.Hash}), read(t, src, src.paths, src.enc()))
}
