package migrate_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// A file that a killed migration copied to the destination has a
// counterpart in the source, but a writer of the destination may have
// written to it since: an agent appended to the session log, put a note
// in the archive (which appends to its index) or updated a task. The copy
// then holds data that exists nowhere else, and a rerun must not remove it:
// it stops with ErrDestinationNotEmpty naming the file, and keeps the
// marker. A copy that is still what the migration wrote (a prefix of the
// source's records, the source having grown since) is cleared and the
// rerun succeeds.
func TestRerunKeepsWhatWasWrittenToACopiedFile(t *testing.T) {
	const agentLog = "agent-general-0badc0de"
	ctx := context.Background()
	type env struct {
		src       fixture
		dst       storage.ProjectPaths
		dstEnc    storage.Encoding
		dstCP     *session.FileCheckpointer
		srcCP     *session.FileCheckpointer
		dstTasks  *task.FileStore
		dstArchiv *archive.FileArchive
	}
	cases := []struct {
		name  string
		after int // files the killed migration copied
		// write writes to the destination (or the source) after the kill.
		write func(t *testing.T, e env)
		// file is the destination file the rerun must name, relative to
		// the project directory; "" means the rerun must succeed.
		file string
		// check checks that what write wrote is still there.
		check func(t *testing.T, e env)
	}{
		{
			name: "an event appended to a copied session log", after: 2,
			write: func(t *testing.T, e env) {
				if _, err := e.dstCP.Append(ctx, agentLog, []session.Event{session.UserEvent{Message: model.UserText("only in the destination")}}, session.AnyHead); err != nil {
					t.Fatal(err)
				}
			},
			file: filepath.Join(storage.SessionsDirName, agentLog+session.LogSuffix),
			check: func(t *testing.T, e env) {
				evs, err := e.dstCP.Read(ctx, agentLog, 0)
				if err != nil {
					t.Fatal(err)
				}
				if len(evs) == 0 || !strings.Contains(string(mustJSON(t, evs[len(evs)-1])), "only in the destination") {
					t.Errorf("the event appended to the destination's log is gone: %d events left", len(evs))
				}
			},
		},
		{
			name: "a note put into a copied archive", after: 2,
			write: func(t *testing.T, e env) {
				if _, err := e.dstArchiv.Put(ctx, "a note put again", map[string]any{"kind": "again"}); err != nil {
					t.Fatal(err)
				}
			},
			file: filepath.Join(storage.SessionsDirName, "s1.context", archive.IndexFile),
			check: func(t *testing.T, e env) {
				res, err := e.dstArchiv.Search(ctx, archive.Query{Text: "put again", Limit: 10})
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(res, `"preview":"a note put again"`) {
					t.Errorf("the index line put into the destination's archive is gone: %s", res)
				}
			},
		},
		{
			name: "a copied task updated", after: 6,
			write: func(t *testing.T, e env) {
				subject := "renamed in the destination"
				if _, err := e.dstTasks.Update(ctx, "1", task.UpdateInput{Subject: &subject}); err != nil {
					t.Fatal(err)
				}
			},
			file: filepath.Join(storage.TasksDirName, "s1", "1.json"),
			check: func(t *testing.T, e env) {
				got, ok, err := e.dstTasks.Get(ctx, "1")
				if err != nil || !ok || got.Subject != "renamed in the destination" {
					t.Errorf("the task updated in the destination: %+v, %v, %v", got, ok, err)
				}
			},
		},
		{
			name: "the source's log grew since", after: 2,
			write: func(t *testing.T, e env) {
				if _, err := e.srcCP.Append(ctx, agentLog, []session.Event{session.UserEvent{Message: model.UserText("later in the source")}}, session.AnyHead); err != nil {
					t.Fatal(err)
				}
			},
			check: func(t *testing.T, e env) {
				evs, err := e.dstCP.Read(ctx, agentLog, 0)
				if err != nil {
					t.Fatal(err)
				}
				if len(evs) == 0 || !strings.Contains(string(mustJSON(t, evs[len(evs)-1])), "later in the source") {
					t.Errorf("the rerun did not copy the source's log as it is now: %d events", len(evs))
				}
			},
		},
	}
	for _, all := range []bool{false, true} {
		for _, tc := range cases {
			name := tc.name
			if all {
				name += " (all projects)"
			}
			t.Run(name, func(t *testing.T) {
				src := buildProject(t, t.TempDir(), workdir, aead(t, "k1", 1), "")
				dstHome := t.TempDir()
				killAfter(t, src.home, dstHome, all, tc.after)

				to := aead(t, "k2", 2)
				e := env{src: src, dst: resolve(t, workdir, storage.Options{Home: dstHome})}
				e.dstEnc = storage.Encoding{Codec: to, ProjectID: e.dst.Hash}
				open := func() {
					t.Helper()
					var err error
					if e.dstCP, err = session.NewFileCheckpointer(e.dst.SessionsDir, session.FileOptions{Encoding: e.dstEnc}); err != nil {
						t.Fatal(err)
					}
					if e.srcCP, err = session.NewFileCheckpointer(src.paths.SessionsDir, session.FileOptions{Encoding: src.enc()}); err != nil {
						t.Fatal(err)
					}
					if e.dstTasks, err = task.NewFileStore(e.dst.TasksDir, "s1", e.dstEnc); err != nil {
						t.Fatal(err)
					}
					if e.dstArchiv, err = archive.NewFileArchive(storage.SessionContextDir(e.dst.SessionsDir, "s1"), archive.Options{Encoding: e.dstEnc, SessionID: "s1"}); err != nil {
						t.Fatal(err)
					}
				}
				open()
				tc.write(t, e)

				_, err := migrate.Run(t.Context(), migrate.Options{
					From:        migrate.Endpoint{Workdir: workdir, Storage: src.opts},
					To:          migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: to}},
					AllProjects: all,
				})
				root := e.dst.ProjectDir()
				if all {
					root = dstHome
				}
				if tc.file == "" {
					if err != nil {
						t.Fatalf("rerun: %v", err)
					}
					if err := migrate.CheckComplete(root); err != nil {
						t.Error(err)
					}
				} else {
					want := filepath.Join(e.dst.ProjectDir(), tc.file)
					if !errors.Is(err, migrate.ErrDestinationNotEmpty) || !strings.Contains(err.Error(), want) {
						t.Errorf("rerun over %s: %v, want ErrDestinationNotEmpty naming %s", tc.name, err, want)
					}
					if err := migrate.CheckComplete(root); !errors.Is(err, migrate.ErrIncomplete) {
						t.Errorf("CheckComplete after the refused rerun = %v, want ErrIncomplete", err)
					}
				}
				open() // a cleared destination has new directories
				tc.check(t, e)
			})
		}
	}
}

func mustJSON(t *testing.T, ev session.StoredEvent) []byte {
	t.Helper()
	b, err := ev.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
