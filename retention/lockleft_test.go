package retention_test

import (
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/retention"
)

// What the lock protocol leaves in a sessions directory does not stop a
// sweep: the parked lock directory, however old, is skipped as a lock; a
// claim or a lock set aside, which only a process killed at that moment
// leaves, goes by the age rule like any other entry.
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
	young := []string{
		"projects/p1/sessions/.claim-ba9876543210.lock",
		"projects/p1/sessions/.stale-ba9876543210.lock",
	}
	for _, rel := range young {
		tr.dir(rel, time.Hour)
	}
	rep := tr.sweep(retention.Options{})
	equal(t, "removed", tr.removed(rep), []string{
		"age " + leftovers[1],
		"age " + leftovers[2],
		"age projects/p1/sessions/old.jsonl",
	})
	equal(t, "skipped", tr.skipped(rep), []string{string(retention.SkipLock) + " " + leftovers[0]})
	tr.mustExist(leftovers[0])
	tr.mustExist(young...)
}
