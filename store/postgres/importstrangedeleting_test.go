//go:build unix

package postgres_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
)

// Something other than a regular file at the name a delete sets a log
// aside under (a directory, a symlink, a named pipe) is refused by
// ImportFiles with the session's *session.DeletingError, whose Type says
// what it is and whose text says to remove it by hand (it said to run the
// delete again, which cannot remove a directory): nothing is copied, and
// the link is not followed nor the pipe opened.
func TestImportRefusesAStrangeSetAsideLog(t *testing.T) {
	for _, tc := range []struct {
		name string
		typ  fs.FileMode
		make func(t *testing.T, path string)
	}{
		{"directory", fs.ModeDir, func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Fatal(err)
			}
		}},
		{"symlink", fs.ModeSymlink, func(t *testing.T, path string) {
			if err := os.Symlink(filepath.Join(t.TempDir(), "elsewhere"), path); err != nil {
				t.Fatal(err)
			}
		}},
		{"named pipe", fs.ModeNamedPipe, func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			paths, enc, files := filesProject(t)
			if _, err := files.Append(ctx, "a", []session.Event{session.UserEvent{Message: model.UserText("hello")}}, session.AnyHead); err != nil {
				t.Fatal(err)
			}
			tc.make(t, filepath.Join(paths.SessionsDir, session.DeletingName("gone")))
			p := project(t, enc)
			_, err := p.ImportFiles(ctx, paths)
			var de *session.DeletingError
			if !errors.As(err, &de) || de.SessionID != "gone" || de.Type != tc.typ || !strings.Contains(err.Error(), "by hand") {
				t.Fatalf("ImportFiles = %v; want gone's *session.DeletingError of type %v saying to remove it by hand", err, tc.typ)
			}
			if empty, err := p.Empty(ctx); err != nil || !empty {
				t.Errorf("the refused import left records in the project: empty %v, %v", empty, err)
			}
		})
	}
}
