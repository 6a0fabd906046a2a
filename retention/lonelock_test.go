package retention_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/retention"
)

// A sweep killed (SIGKILL) after removing an old archive and before
// releasing its lock leaves the lone lock directory <entry>.lock. While
// it is fresh it may be a store's about to create the entry, and stays;
// once it is stale by filelock's rule (unrefreshed for DefaultStale) and
// its entry is still gone, the next sweep takes it over and removes it,
// instead of skipping it as a lock for ever.
func TestLoneStaleLockOfAKilledSweepGoes(t *testing.T) {
	tr := newTree(t)
	const archive = p1 + "/sessions/s1.context"
	tr.file(archive+"/notes/a.md", 10, 40*day)
	tr.dir(archive+"/notes", 40*day)
	tr.dir(archive, 40*day)

	sweeper := childtest.Start(t, "removed "+tr.path(archive), stopSweepEnv+"="+tr.home)
	if err := sweeper.Kill(); err != nil {
		t.Fatal(err)
	}
	tr.mustNotExist(archive)
	tr.mustExist(archive + filelock.Suffix)

	// Fresh: the lock may be a live store's; it stays.
	rep := tr.sweep(retention.Options{})
	equal(t, "removed (fresh lock)", tr.removed(rep), nil)
	tr.mustExist(archive + filelock.Suffix)

	// Stale, as a store would find it after the stale period.
	tr.age(archive+filelock.Suffix, filelock.DefaultStale+time.Minute)
	rep = tr.sweep(retention.Options{DryRun: true})
	equal(t, "removed (dry run)", tr.removed(rep), []string{string(retention.ReasonStaleLock) + " " + archive + filelock.Suffix})
	tr.mustExist(archive + filelock.Suffix)
	rep = tr.sweep(retention.Options{})
	equal(t, "removed", tr.removed(rep), []string{string(retention.ReasonStaleLock) + " " + archive + filelock.Suffix})
	equal(t, "skipped", tr.skipped(rep), nil)
	left, err := os.ReadDir(tr.path(p1 + "/sessions"))
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("left in the sessions directory: %v", left)
	}
}

// Only a lone lock that is stale and whose entry is gone goes: a stale
// lock of an existing entry is the entry's business (taken over when the
// entry is removed, else left for the stores); a live lock of an entry
// not yet created, held by another process, stays; so does the parked
// lock directory, and a lock path that is not a directory.
func TestLoneLocksThatStay(t *testing.T) {
	tr := newTree(t)
	const s = p1 + "/sessions/"
	stale := filelock.DefaultStale + time.Minute
	tr.file(s+"young.jsonl", 10, time.Hour)
	tr.dir(s+"young.jsonl.lock", stale)
	tr.dir(s+filelock.IdleName, 40*day)
	tr.file(s+"file.jsonl.lock", 0, 40*day)

	// A live holder of the lock of a log it has not created yet.
	release := lockInChild(t, tr.path(s+"new.jsonl"))
	defer func() {
		if err := release(); err != nil {
			t.Errorf("lock holder: %v", err)
		}
	}()

	rep := tr.sweep(retention.Options{})
	equal(t, "removed", tr.removed(rep), nil)
	tr.mustExist(s+"young.jsonl", s+"young.jsonl.lock", s+filelock.IdleName, s+"file.jsonl.lock", s+"new.jsonl.lock")
	for _, sk := range rep.Skipped {
		if strings.HasSuffix(sk.Path, "new.jsonl.lock") && sk.Reason != retention.SkipLock {
			t.Errorf("live lone lock skipped as %s", sk.Reason)
		}
	}
}
