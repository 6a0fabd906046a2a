package migrate_test

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A migration checks that its destination is empty and marks it
// incomplete, which keeps agents started later out; an agent of the
// destination project started before may still write its files there
// while the copy runs (here: a session log, written as the copy's first
// write happens). When the copy then fails (a full disk), its clean-up
// must remove what the migration wrote, not the agent's log with it.
func TestFailedMigrationKeepsAWritersFiles(t *testing.T) {
	opts, dst := toNewHome(t)
	log := filepath.Join(dst.SessionsDir, "writer"+session.LogSuffix)
	var once sync.Once
	var want []byte
	migrate.OnWrite(&opts, func(rel string) error {
		var werr error
		once.Do(func() {
			cp, err := session.NewFileCheckpointer(dst.SessionsDir, session.FileOptions{})
			if err != nil {
				werr = err
				return
			}
			if _, err := cp.Append(t.Context(), "writer", []session.Event{session.UserEvent{Message: model.UserText("the agent's")}}, session.AnyHead); err != nil {
				werr = err
				return
			}
			want, werr = os.ReadFile(log)
		})
		if werr != nil {
			t.Errorf("the writer: %v", werr)
		}
		return syscall.ENOSPC
	})
	_, err := migrate.Run(t.Context(), opts)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Run: %v, want ENOSPC", err)
	}
	if want == nil {
		t.Fatal("the writer did not run")
	}
	if got, err := os.ReadFile(log); err != nil || string(got) != string(want) {
		t.Errorf("the agent's log after the failed migration: %q %v, want %q", got, err, want)
	}
	if _, err := os.Lstat(filepath.Join(dst.ProjectDir(), migrate.MarkerName)); err == nil {
		t.Error("the failed migration left its marker")
	}
}

// toNewHome returns the options of a migration of a new project, encoded
// with k1 (aead(t, "k1", 1)), to a new home with the same codec, and the
// destination's paths: the setup of the tests whose agent of the
// destination writes while the copy runs.
func toNewHome(t *testing.T) (migrate.Options, storage.ProjectPaths) {
	t.Helper()
	k1 := aead(t, "k1", 1)
	src := buildProject(t, t.TempDir(), workdir, k1, "")
	opts := migrate.Options{
		From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:   migrate.Endpoint{Storage: storage.Options{Home: filepath.Join(t.TempDir(), "dst"), Codec: k1}},
	}
	return opts, resolve(t, workdir, opts.To.Storage)
}
