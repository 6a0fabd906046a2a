//go:build unix

package migrate_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/nonregular"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Something other than a regular file where a delete sets a session's log
// aside (s1.jsonl.deleting: a directory, a symlink, a named pipe) marks the
// session as being deleted all the same. A migration refuses it with the
// session's *session.DeletingError, whose Type says what it is and whose
// text says to remove it by hand, also with SkipUnreadable, which left it
// out before and copied the session's archive and task list as the
// leftovers of no session; it was ErrSymlink or ErrUnrecognized without.
// Nothing is written, and the link is not followed nor the pipe opened.
func TestMigrationRefusesAStrangeSetAsideLog(t *testing.T) {
	for _, tc := range nonregular.Kinds() {
		for _, skip := range []bool{false, true} {
			name := tc.Name
			if skip {
				name += ", skipping unreadable"
			}
			t.Run(name, func(t *testing.T) {
				src := buildProject(t, t.TempDir(), workdir, aead(t, "k1", 1), "")
				log := filepath.Join(src.paths.SessionsDir, "s1.jsonl")
				if err := os.Remove(log); err != nil {
					t.Fatal(err)
				}
				tc.Make(t, log+".deleting")
				dstHome := t.TempDir()
				_, err := migrate.Run(t.Context(), migrate.Options{
					From:           migrate.Endpoint{Workdir: workdir, Storage: src.opts},
					To:             migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: aead(t, "k2", 2)}},
					SkipUnreadable: skip,
				})
				var de *session.DeletingError
				if !errors.As(err, &de) || de.SessionID != "s1" || de.Type != tc.Type || !strings.Contains(err.Error(), "by hand") {
					t.Fatalf("Run = %v; want s1's *session.DeletingError of type %v saying to remove it by hand", err, tc.Type)
				}
				oneLine(t, err)
				if left := files(t, dstHome); len(left) != 0 {
					t.Errorf("the refused migration wrote %v", left)
				}
			})
		}
	}
}
