package main

import (
	"context"
	"slices"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/lite-agent/lite-agent-go/task"
)

// sessions delete --store honours --task-list (and, in the default
// namespace, LITE_AGENT_TASK_LIST_ID standing in for it) as the file form
// does: the session used that shared list and had no private list, so no
// task list is removed, not even one named after the session; the log and
// the archive go. Without either, the private list goes too.
func TestSessionsDeleteInAStoreKeepsTheTaskListsWithTaskList(t *testing.T) {
	u := pgtest.URL(t)
	for _, tc := range []struct {
		name     string
		args     []string
		env      string
		keptList bool
	}{
		{name: "--task-list names the session's list", args: []string{"--task-list", "s1"}, keptList: true},
		{name: "--task-list names another list", args: []string{"--task-list", "team"}, keptList: true},
		{name: "the environment names the list", env: "s1", keptList: true},
		{name: "no shared list", keptList: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isolateEnv(t)
			t.Setenv(liteagent.TaskListEnv, tc.env)
			ctx := t.Context()
			home, work := t.TempDir(), t.TempDir()
			p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: work, Storage: storage.Options{Home: home}})
			if err != nil {
				t.Fatal(err)
			}
			enc := storage.Encoding{Namespace: storage.DefaultNamespace, ProjectID: p.Hash}
			st, err := postgres.Open(ctx, u, postgres.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			defer func() { _ = st.DeleteSession(context.Background(), enc, "s1") }()
			cp, err := st.Checkpointer(ctx, enc)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cp.Append(ctx, "s1", []session.Event{session.UserEvent{Message: model.UserText("hello")}}, session.AnyHead); err != nil {
				t.Fatal(err)
			}
			ar, err := st.Archive(ctx, enc, "s1")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ar.Put(ctx, "archived", nil); err != nil {
				t.Fatal(err)
			}
			for _, list := range []string{"s1", "team"} {
				ts, err := st.TaskList(ctx, enc, list)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := ts.Create(ctx, task.CreateInput{Subject: "work of " + list}); err != nil {
					t.Fatal(err)
				}
			}

			r := runCLI(t, append([]string{"--home", home, "--workdir", work, "--store", u, "sessions", "delete"}, append(tc.args, "s1")...)...)
			if r.code != 0 || r.stdout != "deleted session s1\n" {
				t.Fatalf("delete: %d %q %s", r.code, r.stdout, r.stderr)
			}
			if head, err := cp.Head(ctx, "s1"); err != nil || head != 0 {
				t.Errorf("the log after the delete: head %d, %v", head, err)
			}
			lists, err := st.TaskListIDs(ctx, enc)
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{"s1", "team"}; tc.keptList && !slices.Equal(lists, want) || !tc.keptList && !slices.Equal(lists, want[1:]) {
				t.Errorf("task lists after sessions delete %s (%s=%q): %v", strings.Join(tc.args, " "), liteagent.TaskListEnv, tc.env, lists)
			}
		})
	}
}
