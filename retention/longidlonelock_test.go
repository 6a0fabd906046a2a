package retention_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/retention"
	"github.com/lite-agent/lite-agent-go/storage"
)

// The short lock of the context archive of an id of storage.MaxIDLength
// characters, <id>.c.lock, is the archive's: stale, with the archive
// there, it is the archive's business and stays, as <id>.context.lock of
// a shorter id does; it is no lone lock of an entry <id>.c that is gone.
// With the archive gone, it is a lone lock, and goes.
func TestTheShortLockOfAnArchiveIsNoLoneLock(t *testing.T) {
	tr := newTree(t)
	id := strings.Repeat("q", storage.MaxIDLength)
	s := p1 + "/sessions/"
	archive := s + id + ".context"
	lock := s + filelock.Name(id+".context")
	if !strings.HasSuffix(lock, ".c.lock") {
		t.Fatalf("lock %s: not the short form", lock)
	}
	stale := filelock.DefaultStale + time.Minute
	tr.file(s+id+".jsonl", 10, time.Hour)
	tr.file(archive+"/index.jsonl", 10, time.Hour)
	tr.dir(archive, time.Hour)
	tr.dir(lock, stale)

	rep := tr.sweep(retention.Options{})
	equal(t, "removed", tr.removed(rep), nil)
	tr.mustExist(s+id+".jsonl", archive, lock)

	if err := os.RemoveAll(tr.path(archive)); err != nil {
		t.Fatal(err)
	}
	rep = tr.sweep(retention.Options{})
	equal(t, "removed (archive gone)", tr.removed(rep), []string{string(retention.ReasonStaleLock) + " " + lock})
}

// Another process that holds the archive of an id of storage.MaxIDLength
// characters (filelock.Acquire of <id>.context, which makes <id>.c.lock)
// keeps an old archive whose log is gone from a sweep; released, the
// archive goes.
func TestAnArchiveOfALongIDLockedByAnotherProcessStays(t *testing.T) {
	tr := newTree(t)
	id := strings.Repeat("r", storage.MaxIDLength)
	archive := p1 + "/sessions/" + id + ".context"
	tr.file(archive+"/index.jsonl", 10, 40*day)
	tr.dir(archive, 40*day)
	release := lockInChild(t, tr.path(archive))
	tr.mustExist(p1 + "/sessions/" + id + ".c.lock")

	rep := tr.sweep(retention.Options{})
	equal(t, "removed (locked)", tr.removed(rep), nil)
	tr.mustExist(archive)

	if err := release(); err != nil {
		t.Fatal(err)
	}
	rep = tr.sweep(retention.Options{})
	equal(t, "removed (released)", tr.removed(rep), []string{string(retention.ReasonAge) + " " + archive})
}
