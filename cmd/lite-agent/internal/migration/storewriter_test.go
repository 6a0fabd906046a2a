package migration

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
)

// FromStore checks that the project directory is empty and then exports
// into it; an agent of the same project may write its files there
// meanwhile (here: right after the check, its session log "z" and a
// spilled body). The export then fails (the database's session "z" is
// there already: nothing is ever overwritten), and its clean-up must
// remove what the export wrote, not the writer's files with it.
func TestFromStoreFailureKeepsAWritersFiles(t *testing.T) {
	ctx := t.Context()
	url, paths, p := dbProject(t)
	var err error
	// "a" is modified last, so it is exported first, then "z" fails.
	for _, id := range []string{"z", "a"} {
		if _, err := p.Checkpointer().Append(ctx, id, []session.Event{session.UserEvent{Message: model.UserText("from the database " + id)}}, session.AnyHead); err != nil {
			t.Fatal(err)
		}
	}

	var writerFiles map[string][]byte
	writer := func() {
		cp, err := session.NewFileCheckpointer(paths.SessionsDir, session.FileOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cp.Append(ctx, "z", []session.Event{session.UserEvent{Message: model.UserText("the writer's")}}, session.AnyHead); err != nil {
			t.Fatal(err)
		}
		sp, err := spill.NewFileStore(paths.SpillDir, storage.Encoding{})
		if err != nil {
			t.Fatal(err)
		}
		ref, err := sp.Put(ctx, "the writer's body")
		if err != nil {
			t.Fatal(err)
		}
		writerFiles = map[string][]byte{}
		for _, f := range []string{filepath.Join(paths.SessionsDir, "z"+session.LogSuffix), filepath.Join(paths.SpillDir, ref+spill.FileSuffix)} {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			writerFiles[f] = b
		}
	}

	_, err = fromStore(ctx, url, nil, paths, writer, nil, nil)
	if err == nil {
		t.Fatal("the export over the writer's session succeeded")
	}
	t.Logf("FromStore: %v", err)
	if writerFiles == nil {
		t.Fatal("the writer did not run")
	}
	for f, want := range writerFiles {
		if got, err := os.ReadFile(f); err != nil || string(got) != string(want) {
			t.Errorf("the writer's %s after the failed export: %q %v, want %q", f, got, err, want)
		}
	}
	for _, f := range []string{filepath.Join(paths.SessionsDir, "a"+session.LogSuffix), filepath.Join(paths.ProjectDir(), migrate.MarkerName)} {
		if _, err := os.Lstat(f); err == nil {
			t.Errorf("the failed export left %s", f)
		}
	}
}
