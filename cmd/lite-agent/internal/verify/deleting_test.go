package verify

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A session whose delete did not finish (its log set aside as
// <id>.jsonl.deleting, its archive still there) is a problem naming the
// session and how to finish, not a leftover archive nor nothing at all.
func TestFilesReportsAHalfDeletedSession(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	project := filepath.Join(home, "projects", "p")
	dir := filepath.Join(project, storage.SessionsDirName)
	cp, err := session.NewFileCheckpointer(dir, session.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ev := session.UserEvent{Message: model.Message{Role: model.RoleUser, Text: "hello"}}
	for _, id := range []string{"gone", "kept"} {
		if _, err := cp.Append(ctx, id, []session.Event{ev}, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(storage.SessionContextDir(dir, "gone"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := cp.BeginDelete(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := Files(ctx, home, []string{project}, nil, "", &rep); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, session.DeletingName("gone"))
	if len(rep.Problems) != 1 || rep.Problems[0].File != want || rep.Problems[0].Kind != deleting {
		t.Fatalf("problems %+v; want one of kind %q for %s", rep.Problems, deleting, want)
	}
	if len(rep.Warnings) != 0 {
		t.Errorf("warnings %+v; the archive of a session being deleted is no leftover", rep.Warnings)
	}
	if rep.Files != 3 {
		t.Errorf("Files = %d, want 3 (a log, the set-aside log, an archive)", rep.Files)
	}
	if err := cp.Delete(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(want); !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
}
