package migrate_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A rerun tells what a migration wrote by reading it with the destination
// configuration, whatever the codecs on either side: a destination marked
// incomplete again, whose files no longer carry their sources' times (so
// only their contents can show they are the migration's), is cleared and
// copied again, and one whose session log got an event more is kept.
func TestRerunReadsTheCopiesWithEveryCodec(t *testing.T) {
	codecs := codecMatrix(t)
	for i, from := range codecs {
		to := codecs[(i+1)%len(codecs)]
		for _, appended := range []bool{false, true} {
			name := from.name + " to " + to.name
			if appended {
				name += ", an event appended to the copy"
			}
			t.Run(name, func(t *testing.T) {
				src := buildProject(t, t.TempDir(), workdir, from.codec, "")
				dstHome := t.TempDir()
				opts := migrate.Options{
					From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
					To:   migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: to.codec}},
				}
				rep, err := migrate.Run(t.Context(), opts)
				if err != nil {
					t.Fatal(err)
				}
				root := rep.Destination.Root
				dst := resolve(t, workdir, storage.Options{Home: dstHome})
				if appended {
					cp, err := session.NewFileCheckpointer(dst.SessionsDir, session.FileOptions{Encoding: storage.Encoding{Codec: to.codec, ProjectID: dst.Hash}})
					if err != nil {
						t.Fatal(err)
					}
					if _, err := cp.Append(t.Context(), "s1", []session.Event{session.UserEvent{Message: model.UserText("only in the copy")}}, session.AnyHead); err != nil {
						t.Fatal(err)
					}
				}
				// Every file gets another time than its source's.
				later := time.Now().Add(time.Hour)
				err = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
					if err == nil && !e.IsDir() {
						err = os.Chtimes(p, later, later)
					}
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
				mk, err := json.Marshal(map[string]any{"liteAgentMigration": 1, "source": rep.Source.Root, "destination": root, "startedAt": time.Now().UTC()})
				if err != nil {
					t.Fatal(err)
				}
				write(t, filepath.Join(root, migrate.MarkerName), string(mk))

				_, err = migrate.Run(t.Context(), opts)
				log := filepath.Join(dst.SessionsDir, "s1"+session.LogSuffix)
				if appended {
					if !errors.Is(err, migrate.ErrDestinationNotEmpty) || !strings.Contains(err.Error(), log) {
						t.Fatalf("rerun over a copy written to since: %v, want ErrDestinationNotEmpty naming %s", err, log)
					}
					if _, err := os.Stat(log); err != nil {
						t.Error(err)
					}
					return
				}
				if err != nil {
					t.Fatalf("rerun over what the migration wrote: %v", err)
				}
				if err := migrate.CheckComplete(root); err != nil {
					t.Error(err)
				}
				equalContents(t, read(t, src, dst, storage.Encoding{Codec: to.codec, ProjectID: dst.Hash}), read(t, src, src.paths, src.enc()))
			})
		}
	}
}
