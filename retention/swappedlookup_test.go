package retention_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/safefs/safefstest"
	"github.com/lite-agent/lite-agent-go/retention"
)

// swapProject moves the project rel aside (to rel+".moved") and puts in
// its place a link to a decoy directory outside the home, with the files
// decoys (relative to the decoy) in it: what another local user could do
// between the sweep's scan and its removal. It returns the relative path
// of the moved project, which the sweep's open directories still are.
func (tr *tree) swapProject(rel string, decoys ...string) string {
	tr.t.Helper()
	moved := rel + ".moved"
	if err := os.Rename(tr.path(rel), tr.path(moved)); err != nil {
		tr.t.Fatal(err)
	}
	decoy := "out/decoy"
	if err := os.MkdirAll(tr.path(decoy), 0o700); err != nil {
		tr.t.Fatal(err)
	}
	for _, d := range decoys {
		tr.file(filepath.Join(decoy, d), 0, 0)
	}
	tr.symlink(rel, decoy)
	return moved
}

// A migration into a project that began after the scan keeps what the
// sweep found, even when the project was swapped for a link since (to a
// directory without the marker): the sweep looks for the marker in the
// project it opened, not by the project's path. Looked up by path, the
// marker was missed and the migration's copies removed.
func TestSweepFindsTheMarkerOfASwappedProject(t *testing.T) {
	tr := newTree(t)
	tr.file(p1+"/sessions/old.jsonl", 10, 40*day)
	tr.file(p1+"/spill/0123456789abcdef.txt", 10, 1*day)
	var moved string
	rep, err := retention.SweepCallingBeforeRemove(t.Context(), retention.Options{Home: tr.home, LimitBytes: true}, func(string) {
		if moved == "" {
			moved = tr.swapProject(p1, "sessions/.keep", "spill/.keep")
			tr.file(filepath.Join(moved, retention.MigrationMarker), 0, 0)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if moved == "" {
		t.Fatal("the sweep removed nothing: the test did not run")
	}
	tr.mustExist(moved+"/sessions/old.jsonl", moved+"/spill/0123456789abcdef.txt")
	equal(t, "removed", tr.removed(rep), nil)
	if !safefstest.LocksByPath {
		equal(t, "skipped", tr.skipped(rep), []string{"migrating " + p1 + "/sessions/old.jsonl", "migrating " + p1 + "/spill/0123456789abcdef.txt"})
	}
}

// A dead fork's task list whose fork finished after the scan (its session
// log appeared) is a real list and stays, even when the project was
// swapped since for a link to a directory where the log is missing and
// the list still has its mark. Looked up by path, the real list was
// removed.
func TestSweepSeesTheLogOfAForkInASwappedProject(t *testing.T) {
	tr := newTree(t)
	tr.file(p1+"/tasks/fork/1.json", 10, 40*day)
	tr.file(p1+"/tasks/fork/"+retention.ForkMarker, 0, 40*day)
	tr.dir(p1+"/tasks/fork", 40*day)
	var moved string
	rep, err := retention.SweepCallingBeforeRemove(t.Context(), retention.Options{Home: tr.home}, func(string) {
		if moved == "" {
			moved = tr.swapProject(p1, "sessions/.keep", "tasks/fork/"+retention.ForkMarker)
			tr.file(filepath.Join(moved, "sessions/fork.jsonl"), 10, 0)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if moved == "" {
		t.Fatal("the sweep removed nothing: the test did not run")
	}
	tr.mustExist(moved+"/tasks/fork/1.json", moved+"/tasks/fork/"+retention.ForkMarker)
	equal(t, "removed", tr.removed(rep), nil)
	if !safefstest.LocksByPath {
		equal(t, "skipped", tr.skipped(rep), []string{"changed " + p1 + "/tasks/fork", "tasks " + p1 + "/tasks"})
	}
}
