package retention_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/retention"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A session older than MaxAge resumed while a sweep runs: its next append
// lands after the sweep scanned its log and archive as old. The log then
// stays (it changed since the scan); its archive, which the session's
// refs lead to, must stay with it, as it does for a log young at the scan.
func TestArchiveOfASessionResumedDuringTheSweepIsKept(t *testing.T) {
	tr, cp := oldSessionWithArchive(t)

	// The session is resumed just before the sweep removes the first of
	// its entries, whichever it takes first.
	resumed := ""
	rep, err := retention.SweepCallingBeforeRemove(t.Context(), retention.Options{Home: tr.home}, func(path string) {
		if resumed != "" {
			return
		}
		resumed = filepath.Base(path)
		if _, err := cp.Append(t.Context(), "s1", []session.Event{session.UserEvent{Message: model.UserText("back again")}}, 1); err != nil {
			t.Error(err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if resumed == "" {
		t.Fatal("the sweep removed nothing of the session")
	}
	tr.mustExist(p1+"/sessions/s1.jsonl", p1+"/sessions/s1.context/index.jsonl", p1+"/sessions/s1.context/notes/aa.md")
	equal(t, "removed", tr.removed(rep), nil)
}

// A session old enough to go whose log a reader holds locked while the
// sweep passes it: the log stays (it is locked), and its archive, which
// the log's refs lead to, must stay too, even when the reader has let go
// by the time the sweep reaches the archive.
func TestArchiveOfALogLockedAtItsTurnIsKept(t *testing.T) {
	tr, cp := oldSessionWithArchive(t)

	for _, dry := range []bool{true, false} {
		release, err := cp.Hold(t.Context(), "s1")
		if err != nil {
			t.Fatal(err)
		}
		let := func(string) {
			if release != nil {
				if err := release(); err != nil {
					t.Error(err)
				}
				release = nil
			}
		}
		rep, err := retention.SweepCallingBeforeRemove(t.Context(), retention.Options{Home: tr.home, DryRun: dry}, let)
		if err != nil {
			t.Fatal(err)
		}
		let("")
		tr.mustExist(p1+"/sessions/s1.jsonl", p1+"/sessions/s1.context/index.jsonl", p1+"/sessions/s1.context/notes/aa.md")
		equal(t, "removed (dry run "+strconv.FormatBool(dry)+")", tr.removed(rep), nil)
	}
}

// oldSessionWithArchive makes a home with session s1 of project p1, its
// log written through a checkpointer and its archive (an index and a
// note), all 40 days old; it returns the home and the checkpointer.
func oldSessionWithArchive(t *testing.T) (*tree, *session.FileCheckpointer) {
	t.Helper()
	tr := newTree(t)
	cp, err := session.NewFileCheckpointer(tr.path(p1+"/sessions"), session.FileOptions{Encoding: storage.Encoding{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cp.Append(t.Context(), "s1", []session.Event{session.UserEvent{Message: model.UserText("hello")}}, 0); err != nil {
		t.Fatal(err)
	}
	tr.file(p1+"/sessions/s1.context/index.jsonl", 10, 40*day)
	tr.file(p1+"/sessions/s1.context/notes/aa.md", 10, 40*day)
	tr.dir(p1+"/sessions/s1.context/notes", 40*day)
	tr.dir(p1+"/sessions/s1.context", 40*day)
	old := time.Now().Add(-40 * day)
	if err := os.Chtimes(tr.path(p1+"/sessions/s1.jsonl"), old, old); err != nil {
		t.Fatal(err)
	}
	return tr, cp
}
