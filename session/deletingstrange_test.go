//go:build unix

package session_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/nonregular"
	"github.com/lite-agent/lite-agent-go/session"
)

// Something other than a regular file where a delete sets a session's log
// aside (<id>.jsonl.deleting: a directory, a symlink, a named pipe) was
// not put there by a delete. The session is refused with a
// *DeletingError whose Type says what the entry is and whose text says to
// remove it by hand; BeginDelete and Delete refuse it too, changing
// nothing (a directory was a bare rename error before, a symlink or pipe
// was replaced or removed), and nothing follows the link or opens the pipe.
func TestAStrangeSetAsideLogIsRefusedAndLeftAlone(t *testing.T) {
	kinds := append(nonregular.Kinds(), nonregular.Kind{Name: "empty directory", Word: "a directory", Type: fs.ModeDir, Make: func(t testing.TB, path string) {
		if err := os.Mkdir(path, 0o700); err != nil {
			t.Fatal(err)
		}
	}})
	for _, tc := range kinds {
		t.Run(tc.Name, func(t *testing.T) {
			ctx := t.Context()
			dir := t.TempDir()
			cp := newCP(t, dir, session.FileOptions{})
			appendTexts(t, cp, "d", "one")
			set, _ := cp.DeletingPath("d")
			tc.Make(t, set)
			check := func(what string, err error) {
				t.Helper()
				var de *session.DeletingError
				if !errors.As(err, &de) || de.SessionID != "d" || de.File != set || de.Type != tc.Type {
					t.Fatalf("%s = %v; want a *DeletingError for d at %s of type %v", what, err, set, tc.Type)
				}
				if !errors.Is(err, session.ErrDeleting) || !strings.Contains(err.Error(), tc.Word) || !strings.Contains(err.Error(), "by hand") {
					t.Errorf("%s: %q does not say it is %s to remove by hand", what, err, tc.Word)
				}
			}
			before := dirSnapshot(t, dir)
			check("BeginDelete", cp.BeginDelete(ctx, "d"))
			check("Delete", cp.Delete(ctx, "d"))
			sameSnapshot(t, "after the refused deletes", before, dirSnapshot(t, dir))
			if got := readTexts(t, cp, "d"); len(got) != 1 || got[0] != "one" {
				t.Errorf("the session's log reads %q after the refused deletes", got)
			}

			// Without its log the session is being deleted: refused, not
			// read as empty.
			if err := os.Remove(filepath.Join(dir, "d.jsonl")); err != nil {
				t.Fatal(err)
			}
			_, err := cp.Read(ctx, "d", 0)
			check("Read", err)
			check("Delete without a log", cp.Delete(ctx, "d"))
			if _, err := os.Lstat(set); err != nil {
				t.Errorf("the entry is gone: %v", err)
			}
		})
	}
}
