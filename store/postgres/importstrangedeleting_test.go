//go:build unix

package postgres_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/nonregular"
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
	for _, tc := range nonregular.Kinds() {
		t.Run(tc.Name, func(t *testing.T) {
			ctx := t.Context()
			paths, enc, files := filesProject(t)
			if _, err := files.Append(ctx, "a", []session.Event{session.UserEvent{Message: model.UserText("hello")}}, session.AnyHead); err != nil {
				t.Fatal(err)
			}
			tc.Make(t, filepath.Join(paths.SessionsDir, session.DeletingName("gone")))
			p := project(t, enc)
			_, err := p.ImportFiles(ctx, paths)
			var de *session.DeletingError
			if !errors.As(err, &de) || de.SessionID != "gone" || de.Type != tc.Type || !strings.Contains(err.Error(), "by hand") {
				t.Fatalf("ImportFiles = %v; want gone's *session.DeletingError of type %v saying to remove it by hand", err, tc.Type)
			}
			if empty, err := p.Empty(ctx); err != nil || !empty {
				t.Errorf("the refused import left records in the project: empty %v, %v", empty, err)
			}
		})
	}
}
