package liteagent_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/session"
)

// A session deleted by another process (a real child, lite-agent
// sessions delete's DeleteSessionData) while a fork of it copies its data
// must not leave a fork whose events refer to an archive, and whose tasks
// come from a list, that the delete removed before the fork copied them.
// The fork fails with a *ForkError (Part ForkPartSource) and leaves no
// session, whether the delete was killed part-way (the source refused as
// being deleted) or finished (the source gone).
func TestForkOfASessionDeletedMeanwhileFails(t *testing.T) {
	for _, tc := range []struct {
		name, step string
		want       error
		noArchive  bool // the session has tasks and no archive
	}{
		{"delete killed after the archive", "archive", session.ErrDeleting, false},
		{"delete finished", "none", session.ErrNotFound, false},
		// The fork copies the task list alone, and removes it again.
		{"delete killed after setting the log aside", "set-aside", session.ErrDeleting, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			f, opts, a := agentWithSessionData(t)
			id := a.SessionID()
			paths := a.Paths()
			if tc.noArchive {
				if err := os.RemoveAll(paths.ArchiveDir(id)); err != nil {
					t.Fatal(err)
				}
			}
			// The fork runs in a new agent, as lite-agent sessions fork
			// does: nothing of the session is open in it yet.
			a.Close()
			a = f.agent(t, opts)
			// Between the read of the session's events and the copy of
			// its data, another process deletes the session.
			liteagent.SetForkRead(a, func() {
				cmd := childtest.Command(ctx, deleteChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id+"\n"+tc.step)
				out, err := cmd.CombinedOutput()
				var ee *exec.ExitError
				if tc.step == "none" && !(errors.As(err, &ee) && ee.ExitCode() == 3) || tc.step != "none" && !childtest.Killed(err) {
					t.Errorf("the deleting child: %v\n%s", err, out)
				}
				if tc.step != "none" {
					// The killed child's lock is stale at once here.
					staleLock(t, filepath.Join(paths.SessionsDir, id+session.LogSuffix))
				}
			})
			newID, err := a.Fork(ctx, id, liteagent.ForkAtHead)
			var fe *liteagent.ForkError
			if !errors.As(err, &fe) || fe.Part != liteagent.ForkPartSource || fe.CleanupErr != nil || !errors.Is(err, tc.want) {
				t.Fatalf("Fork = %q, %v; want a *ForkError of its source matching %v", newID, err, tc.want)
			}
			infos, err := a.ListSessions(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if slices.ContainsFunc(infos, func(in session.Info) bool { return in.ID != id }) {
				t.Errorf("a fork is listed: %v", infos)
			}
			for _, dir := range []string{paths.SessionsDir, paths.TasksDir} {
				ents, _ := os.ReadDir(dir)
				for _, e := range ents {
					if fe != nil && strings.HasPrefix(e.Name(), fe.NewID) {
						t.Errorf("the failed fork left %s", filepath.Join(dir, e.Name()))
					}
				}
			}
		})
	}
}

// staleLock makes the lock of the file at path, left by a killed process,
// as old as a kill long ago: stale, so that nobody waits out its stale
// period.
func staleLock(t *testing.T, path string) {
	t.Helper()
	stale := time.Now().Add(-filelock.DefaultStale - time.Minute)
	if err := os.Chtimes(path+filelock.Suffix, stale, stale); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
}
