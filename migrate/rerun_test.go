package migrate_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// A rerun over a migration killed part way clears what that migration
// wrote, but the destination's sessions/, tasks/ and spill/ may also hold
// what a writer of the destination put there after the marker was written
// (an agent started before it, or a host using the file stores directly,
// which do not look for the marker): a session, a task list and a spilled
// output that exist nowhere else. The rerun must not delete them.
func TestRerunKeepsWhatNoMigrationOfTheSourceWrote(t *testing.T) {
	for _, all := range []bool{false, true} {
		name := "one project"
		if all {
			name = "all projects"
		}
		t.Run(name, func(t *testing.T) { testRerunKeeps(t, all) })
	}
}

func testRerunKeeps(t *testing.T, all bool) {
	src := buildProject(t, t.TempDir(), workdir, aead(t, "k1", 1), "")
	dstHome := t.TempDir()
	killMidMigration(t, src.home, dstHome, all)

	to := aead(t, "k2", 2)
	dst := resolve(t, workdir, storage.Options{Home: dstHome})
	enc := storage.Encoding{Codec: to, ProjectID: dst.Hash}
	ctx := context.Background()

	// The destination's own writer, after the kill.
	cp, err := session.NewFileCheckpointer(dst.SessionsDir, session.FileOptions{Encoding: enc})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cp.Append(ctx, "agent-own", []session.Event{session.UserEvent{Message: model.UserText("only here")}}, session.AnyHead); err != nil {
		t.Fatal(err)
	}
	ts, err := task.NewFileStore(dst.TasksDir, "agent-list", enc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ts.Create(ctx, task.CreateInput{Subject: "only here"}); err != nil {
		t.Fatal(err)
	}
	sp, err := spill.NewFileStore(dst.SpillDir, enc)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := sp.Put(ctx, "only here")
	if err != nil {
		t.Fatal(err)
	}
	own := []string{
		filepath.Join(dst.SessionsDir, "agent-own.jsonl"),
		filepath.Join(dst.TasksDir, "agent-list", "1.json"),
	}
	for _, p := range own {
		if _, err := os.Stat(p); err != nil {
			t.Fatal(err)
		}
	}

	_, err = migrate.Run(t.Context(), migrate.Options{
		From:        migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:          migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: to}},
		AllProjects: all,
	})
	if !errors.Is(err, migrate.ErrDestinationNotEmpty) {
		t.Errorf("rerun over the destination's own records: %v, want ErrDestinationNotEmpty", err)
	}
	for _, p := range own {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("the rerun removed %s, which exists nowhere else: %v", p, err)
		}
	}
	if got, ok, err := sp.Get(ctx, ref); err != nil || !ok || got != "only here" {
		t.Errorf("the destination's spilled output after the rerun: %q, %v, %v", got, ok, err)
	}
	root := dst.ProjectDir()
	if all {
		root = dstHome
	}
	if err := migrate.CheckComplete(root); !errors.Is(err, migrate.ErrIncomplete) {
		t.Errorf("CheckComplete after the refused rerun = %v, want ErrIncomplete", err)
	}
}
