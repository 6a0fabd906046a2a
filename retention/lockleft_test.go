package retention_test

import (
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/retention"
)

// What the lock protocol leaves in a sessions directory (the parked lock
// directory, and after a kill a claim or a lock set aside), however old, is
// skipped as a lock: the sweep does not fail on it, does not remove it,
// and removes the old log beside it.
func TestLockLeftoversAreSkippedAsLocks(t *testing.T) {
	tr := newTree(t)
	tr.file("projects/p1/sessions/old.jsonl", 10, 40*day)
	tr.file("projects/p1/sessions/new.jsonl", 10, time.Hour)
	leftovers := []string{
		"projects/p1/sessions/" + filelock.IdleName,
		"projects/p1/sessions/.claim-0123456789ab.lock",
		"projects/p1/sessions/.stale-0123456789ab.lock",
	}
	for _, rel := range leftovers {
		tr.dir(rel, 40*day)
	}
	rep := tr.sweep(retention.Options{})
	equal(t, "removed", tr.removed(rep), []string{"age projects/p1/sessions/old.jsonl"})
	var want []string
	for _, rel := range []string{leftovers[1], leftovers[0], leftovers[2]} {
		want = append(want, string(retention.SkipLock)+" "+rel)
	}
	equal(t, "skipped", tr.skipped(rep), want)
	tr.mustExist(leftovers...)
}
