package liteagent_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// deleteChildEnv makes the test binary a child that deletes a session
// with DeleteSessionData (as lite-agent sessions delete does) and kills
// itself (SIGKILL) after the named step. Its value is
// "<home>\n<workdir>\n<session>\n<step>".
const deleteChildEnv = "LITE_AGENT_DELETE_CHILD"

func runDeleteChild(v string) int {
	parts := strings.Split(v, "\n")
	if len(parts) != 4 {
		fmt.Fprintln(os.Stderr, "bad", deleteChildEnv)
		return 2
	}
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: parts[1], Storage: storage.Options{Namespace: "acme", Home: parts[0]}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	cp, err := session.NewFileCheckpointer(paths.SessionsDir, session.FileOptions{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var opts liteagent.DeleteDataOptions
	liteagent.SetDeleteStep(&opts, func(name string) {
		if name == parts[3] {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
	})
	_, err = liteagent.DeleteSessionData(context.Background(), paths, cp, parts[2], opts)
	fmt.Fprintln(os.Stderr, "the delete was not killed:", err)
	return 3
}

// A delete killed (SIGKILL, a real child) after any of its steps leaves a
// session that is no longer listed and that an agent refuses to resume as
// being deleted (session.ErrDeleting): never one that lists and resumes
// without its archive or its tasks. A rerun of the delete
// finishes the job and leaves nothing of the session.
//
// So too for an id of storage.MaxIDLength characters, whose log set aside
// (<id>.deleting), archive lock (<id>.c.lock) and copies (<id>.torn-<n>)
// take their short names.
func TestAKilledDeleteLeavesTheSessionWholeOrRefused(t *testing.T) {
	for _, long := range []bool{false, true} {
		for _, step := range []string{"set-aside", "tasks", "archive", "copies"} {
			name := step
			if long {
				name = "long id " + step
			}
			t.Run(name, func(t *testing.T) { killedDelete(t, step, long) })
		}
	}
}

func killedDelete(t *testing.T, step string, long bool) {
	ctx := t.Context()
	var (
		f    *fixture
		opts liteagent.Options
		a    *liteagent.Agent
	)
	copyName := ".jsonl.torn-1"
	if long {
		f = newFixture(t)
		opts = f.options(nil)
		opts.ContextWindow = 4000
		a = f.agent(t, opts)
		if err := a.StartSession(ctx, strings.Repeat("d", storage.MaxIDLength)); err != nil {
			t.Fatal(err)
		}
		sessionWithData(t, f, a)
		copyName = ".torn-1"
	} else {
		f, opts, a = agentWithSessionData(t)
	}
	id := a.SessionID()
	paths := a.Paths()
	copyPath := filepath.Join(paths.SessionsDir, id+copyName)
	if err := os.WriteFile(copyPath, []byte("{\"seq\":"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{paths.ArchiveDir(id), paths.TaskListDir(id)} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("the session has no data to lose: %v", err)
		}
	}
	a.Close()

	cmd := childtest.Command(ctx, deleteChildEnv+"="+f.home+"\n"+f.workdir+"\n"+id+"\n"+step)
	out, err := cmd.CombinedOutput()
	if !childtest.Killed(err) {
		t.Fatalf("the child was not killed after step %s: %v\n%s", step, err, out)
	}

	if long {
		// The short name of the log set aside, which no usual name fits.
		if _, err := os.Lstat(filepath.Join(paths.SessionsDir, id+".deleting")); err != nil {
			t.Errorf("the log set aside as %s.deleting: %v", id[:8], err)
		}
	}
	// The killed child's session lock, as old as a kill long ago:
	// stale, so that nobody waits out its stale period here.
	stale := time.Now().Add(-filelock.DefaultStale - time.Minute)
	if err := os.Chtimes(filepath.Join(paths.SessionsDir, id+session.LogSuffix+filelock.Suffix), stale, stale); err != nil {
		t.Fatal(err)
	}
	b := f.agent(t, opts)
	infos, err := b.ListSessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(infos, func(in session.Info) bool { return in.ID == id }) {
		t.Errorf("the half-deleted session is listed")
	}
	if err := b.Resume(id); err != nil && !errors.Is(err, session.ErrDeleting) {
		t.Fatal(err)
	}
	if _, err := b.Send(ctx, "go on"); !errors.Is(err, session.ErrDeleting) {
		t.Errorf("a prompt to the half-deleted session = %v, want an error matching session.ErrDeleting", err)
	}
	if _, err := os.Stat(filepath.Join(paths.SessionsDir, id+session.LogSuffix)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused prompt wrote a log: %v", err)
	}

	// The rerun finishes the delete: nothing of the session stays.
	if err := b.DeleteSession(ctx, id); err != nil {
		t.Fatalf("the rerun of the delete: %v", err)
	}
	ents, err := os.ReadDir(paths.SessionsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), id) {
			t.Errorf("the rerun left %s", e.Name())
		}
	}
	if _, err := os.Stat(paths.TaskListDir(id)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the rerun left the task list: %v", err)
	}
	if err := b.DeleteSession(ctx, id); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("a third delete = %v, want session.ErrNotFound", err)
	}
}
