package retention_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/retention"
	"github.com/lite-agent/lite-agent-go/task"
)

func TestForkMarkerNameIsTasks(t *testing.T) {
	if retention.ForkMarker != task.ForkMarker {
		t.Fatalf("the sweep looks for %q, forks write %q", retention.ForkMarker, task.ForkMarker)
	}
}

// Of the task lists, only the old one a dead fork left (its mark, no
// session log) goes: a real list never does, however old and whether or
// not a log of its id exists, nor a marked list whose session has a log
// (a fork killed after writing it), nor a young marked one (a fork in
// progress). A dry run reports the same and removes nothing.
func TestSweepRemovesOnlyOldTaskListsOfDeadForks(t *testing.T) {
	for _, dry := range []bool{false, true} {
		home := t.TempDir()
		proj := filepath.Join(home, "projects", "0123456789abcdef")
		old := time.Now().Add(-40 * 24 * time.Hour)
		write := func(rel string, mtime time.Time) {
			p := filepath.Join(proj, rel)
			if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(p, mtime, mtime); err != nil {
				t.Fatal(err)
			}
		}
		write("tasks/real/1.json", old)
		write("tasks/orphan/1.json", old)
		write("tasks/orphan/"+task.ForkMarker, old)
		write("tasks/forked/1.json", old)
		write("tasks/forked/"+task.ForkMarker, old)
		write("sessions/forked.jsonl", old)
		write("tasks/young/1.json", time.Now())
		write("tasks/young/"+task.ForkMarker, old)
		for _, d := range []string{"tasks/real", "tasks/orphan", "tasks/forked", "tasks/young"} {
			if err := os.Chtimes(filepath.Join(proj, d), old, old); err != nil {
				t.Fatal(err)
			}
		}
		rep, err := retention.Sweep(t.Context(), retention.Options{Home: home, DryRun: dry})
		if err != nil {
			t.Fatal(err)
		}
		var gone []string
		for _, e := range rep.Removed {
			if e.Reason == retention.ReasonForkLeftover {
				gone = append(gone, e.Path)
			}
		}
		orphan := filepath.Join(proj, "tasks", "orphan")
		if len(gone) != 1 || gone[0] != orphan {
			t.Errorf("dry run %v: removed as fork leftovers %v, want only %s", dry, gone, orphan)
		}
		for _, list := range []string{"real", "forked", "young"} {
			if _, err := os.Stat(filepath.Join(proj, "tasks", list, "1.json")); err != nil {
				t.Errorf("dry run %v: list %s lost its record: %v", dry, list, err)
			}
		}
		_, err = os.Stat(orphan)
		if dry != (err == nil) {
			t.Errorf("dry run %v: the dead fork's list after the sweep: %v", dry, err)
		}
	}
}
