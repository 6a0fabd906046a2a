package verify

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// What the lock protocol leaves beside the records (the parked lock
// directory, and after a kill a claim or a lock set aside) is neither
// counted nor reported.
func TestLockLeftoversAreNotReported(t *testing.T) {
	home := t.TempDir()
	project := filepath.Join(storage.ProjectsDir(home), "p1")
	sessions := filepath.Join(project, storage.SessionsDirName)
	tasks := filepath.Join(project, storage.TasksDirName)
	mkdir(t, sessions)
	cp, err := session.NewFileCheckpointer(sessions, session.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cp.Append(context.Background(), "s1", []session.Event{session.UserEvent{Message: model.UserText("hi")}}, session.AnyHead); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{sessions, tasks} {
		for _, n := range []string{filelock.IdleName, ".claim-0123456789ab.lock", ".stale-0123456789ab.lock"} {
			mkdir(t, filepath.Join(d, n))
		}
	}
	rep := Report{Problems: []Problem{}}
	if err := Files(context.Background(), home, []string{project}, nil, storage.DefaultNamespace, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Projects != 1 || rep.Files != 1 || rep.ProblemCount != 0 || len(rep.Warnings) != 0 {
		t.Errorf("report %+v; want 1 project, 1 file, no problem or warning", rep)
	}
}
