package liteagent_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/retention"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// A fork killed (SIGKILL, a real child) while it copies the session's task
// list, or while it writes the new log, leaves a copied archive and task
// list that no session lists. They must be told apart from real data and
// removable: the list carries task.ForkMarker, and the cleanup sweep
// removes such a list, and the archive, once old, while the forked
// session's own task list (never swept) stays.
func TestAKilledForksLeftoversAreMarkedAndSwept(t *testing.T) {
	for _, kind := range []storage.Kind{storage.KindTask, storage.KindCheckpoint} {
		t.Run(string(kind), func(t *testing.T) {
			f := newFixture(t)
			opts := f.options(aeadCodec(t, "k1"))
			opts.ContextWindow = 4000
			a := f.agent(t, opts)
			sessionWithData(t, f, a)
			orig := a.SessionID()
			paths := a.Paths()
			a.Close()

			out, err := childtest.Command(t.Context(), forkChildEnv+"="+f.home+"\n"+f.workdir+"\n"+orig+"\n"+string(kind)).CombinedOutput()
			if !childtest.Killed(err) {
				t.Fatalf("the child was not killed at its first %s encode: %v\n%s", kind, err, out)
			}

			var orphans []string
			for _, name := range dirNames(t, paths.TasksDir) {
				if name != orig && storage.ValidateID(name) == nil {
					orphans = append(orphans, name)
				}
			}
			if len(orphans) != 1 {
				t.Fatalf("task lists besides %s after the killed fork: %v", orig, orphans)
			}
			newID := orphans[0]
			if _, err := os.Stat(filepath.Join(paths.SessionsDir, newID+".jsonl")); !os.IsNotExist(err) {
				t.Fatalf("the killed fork wrote its log: %v", err)
			}
			if _, err := os.Lstat(filepath.Join(paths.TasksDir, newID, task.ForkMarker)); err != nil {
				t.Errorf("the killed fork's task list has no %s: %v", task.ForkMarker, err)
			}

			// A month later, everything is old (the killed child's locks
			// too): the fork's leftovers go, the session's own task list
			// stays.
			backdate(t, f.home, 31*24*time.Hour)
			rep, err := retention.Sweep(t.Context(), retention.Options{Home: f.home})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Lstat(filepath.Join(paths.TasksDir, newID)); !os.IsNotExist(err) {
				t.Errorf("the killed fork's task list survived the sweep (%v); removed: %v", err, rep.Removed)
			}
			if _, err := os.Lstat(paths.ArchiveDir(newID)); !os.IsNotExist(err) {
				t.Errorf("the killed fork's archive survived the sweep: %v", err)
			}
			if got := dirNames(t, filepath.Join(paths.TasksDir, orig)); !slices.ContainsFunc(got, func(n string) bool { return n == "1.json" }) {
				t.Errorf("the session's own task list after the sweep: %v", got)
			}
		})
	}
}

// backdate sets the times of everything under root back by d.
func backdate(t *testing.T, root string, d time.Duration) {
	t.Helper()
	old := time.Now().Add(-d)
	err := filepath.WalkDir(root, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}
