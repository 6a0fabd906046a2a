package retention_test

import (
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/retention"
)

// A log set aside for a delete (<id>.jsonl.deleting) is the only record
// that the session's archive and task list are being deleted: neither the
// size budget nor the age rule removes it, only the delete's rerun does.
func TestSweepKeepsDeletingLog(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts retention.Options
		age  int
	}{
		{"size budget", retention.Options{LimitBytes: true}, 0},
		{"age", retention.Options{}, 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTree(t)
			const rel = "projects/p/sessions/s1.jsonl.deleting"
			tr.file(rel, 100, day*time.Duration(tc.age))
			tr.dir("projects/p/tasks/s1", 0)
			rep := tr.sweep(tc.opts)
			tr.mustExist(rel, "projects/p/tasks/s1")
			equal(t, "removed", tr.removed(rep), nil)
			var found bool
			for _, s := range rep.Skipped {
				if s.Path == tr.path(rel) && s.Reason == retention.SkipDeleting {
					found = true
				}
			}
			if !found {
				t.Fatalf("skipped = %v, want %s as deleting", rep.Skipped, rel)
			}
			if rep.BytesKept != 0 {
				t.Fatalf("BytesKept = %d, want 0: a set-aside log does not count", rep.BytesKept)
			}
		})
	}
}

// A directory at the name a delete sets a log aside under is no delete's,
// but the session stores refuse the session as being deleted (see
// session.DeletingError's Type) until the user removes it by hand: the age
// rule does not remove it, nor the old file inside it (it removed the
// whole directory), and it does not count against MaxBytes.
func TestSweepKeepsADeletingDirectory(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts retention.Options
	}{
		{"size budget", retention.Options{LimitBytes: true}},
		{"age", retention.Options{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTree(t)
			const rel = "projects/p/sessions/s1.jsonl.deleting"
			tr.file(rel+"/mine", 100, 40*day)
			tr.dir(rel, 40*day)
			rep := tr.sweep(tc.opts)
			tr.mustExist(rel + "/mine")
			equal(t, "removed", tr.removed(rep), nil)
			var found bool
			for _, s := range rep.Skipped {
				if s.Path == tr.path(rel) && s.Reason == retention.SkipDeleting {
					found = true
				}
			}
			if !found {
				t.Fatalf("skipped = %v, want %s as deleting", rep.Skipped, rel)
			}
			if rep.BytesKept != 0 {
				t.Fatalf("BytesKept = %d, want 0", rep.BytesKept)
			}
		})
	}
}
