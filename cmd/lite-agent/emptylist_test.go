package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/task"
)

// A task-list directory with no task (a list made, then emptied, or only
// marked shared) is a list of the file home: tasks list shows it. migrate
// --to-store must copy it, verify the copy and keep it, and the database
// must show the same lists, the shared mark kept, as the files did; and
// migrate --from-store must bring it back.
func TestMigrateToStoreKeepsAnEmptyTaskList(t *testing.T) {
	u := pgtest.URL(t)
	isolateEnv(t)
	home, p := referenceHome(t)
	clearStoreProject(t, u, p)
	if err := os.MkdirAll(filepath.Join(p.TasksDir, "team"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(p.TasksDir, "board"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.TasksDir, "board", task.SharedMarker), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	base := []string{"--home", home, "--workdir", "/srv/app"}
	listIDs := func(args ...string) []string {
		t.Helper()
		r := runCLI(t, append(append(append([]string{}, base...), args...), "tasks", "list", "--json")...)
		if r.code != 0 {
			t.Fatalf("tasks list %v: %d %q", args, r.code, r.stderr)
		}
		var lists []taskList
		if err := json.Unmarshal([]byte(r.stdout), &lists); err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, l := range lists {
			ids = append(ids, l.ID)
		}
		return ids
	}
	want := listIDs()
	if len(want) != 4 {
		t.Fatalf("the file home lists %v, want board, s1, shared and team", want)
	}
	r := runCLI(t, append(base, "migrate", "--to-store", u)...)
	if r.code != 0 {
		t.Fatalf("migrate --to-store of a home with an empty task list: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if got := listIDs("--store", u); !slices.Equal(got, want) {
		t.Errorf("the database lists %v, the files %v", got, want)
	}
	back := filepath.Join(t.TempDir(), "back")
	r = runCLI(t, append(base, "migrate", "--from-store", u, "--to-home", back)...)
	if r.code != 0 {
		t.Fatalf("migrate --from-store: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if got := listIDs("--home", back); !slices.Equal(got, want) {
		t.Errorf("the home migrated back lists %v, the first %v", got, want)
	}
	rel, err := filepath.Rel(home, p.TasksDir)
	if err != nil {
		t.Fatal(err)
	}
	if !task.IsShared(filepath.Join(back, rel), "board") {
		t.Errorf("the shared mark of the empty list board is lost on the way back")
	}
}
