package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// wantLayoutFile checks that r failed with one line naming file as a file
// where the layout has a directory, and saying what to do.
func wantLayoutFile(t *testing.T, r result, file string) {
	t.Helper()
	if r.code != exitFailure {
		t.Errorf("code = %d, want %d", r.code, exitFailure)
	}
	wantOneErrorLine(t, r)
	if !strings.Contains(r.stderr, "lite-agent: "+file+" is a file where ") || !strings.HasSuffix(r.stderr, "should be: move it out of the data home (or fix it)\n") {
		t.Errorf("stderr = %q, want it to name %s as a file where a directory should be, and say to move it out of the data home", r.stderr, file)
	}
}

// wantNothingSpent checks that srv took no model call (and forgets the
// calls) and that home is as before.
func wantNothingSpent(t *testing.T, srv *anthropicServer, home string, before []string) {
	t.Helper()
	srv.mu.Lock()
	calls := len(srv.bodies)
	srv.bodies = nil
	srv.mu.Unlock()
	if calls != 0 {
		t.Errorf("%d model calls, want none", calls)
	}
	if after := tree(t, home); !slices.Equal(before, after) {
		t.Errorf("the command changed the data home:\nbefore %q\nafter  %q", before, after)
	}
}

// layoutSetup isolates the environment, points the CLI at a model server
// that records its calls and returns it, with a home, a workdir and their
// project's paths.
func layoutSetup(t *testing.T) (srv *anthropicServer, home, work string, p storage.ProjectPaths) {
	t.Helper()
	isolateEnv(t)
	srv = fakeAPI(t)
	home, work = t.TempDir(), t.TempDir()
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: work, Storage: storage.Options{Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	return srv, home, work, p
}

// TestRunChecksTheLayoutBeforeTheModel: a file where the project keeps a
// directory (its sessions, tasks or spill directory, the project directory,
// projects/) makes run and chat fail before the first model call, naming
// it, with nothing spent and nothing written: before, a spill file was
// found after three model calls, a tasks file after the session's first
// record was written.
func TestRunChecksTheLayoutBeforeTheModel(t *testing.T) {
	srv, home, work, p := layoutSetup(t)
	for _, file := range []string{p.TasksDir, p.SpillDir, p.SessionsDir, filepath.Dir(p.SessionsDir), filepath.Join(home, "projects")} {
		for _, args := range [][]string{{"run", "--max-turns", "1", "hi"}, {"chat"}} {
			t.Run(filepath.Base(file)+" "+args[0], func(t *testing.T) {
				if err := os.RemoveAll(filepath.Join(home, "projects")); err != nil {
					t.Fatal(err)
				}
				oldFile(t, file)
				before := tree(t, home)
				var stdout, stderr strings.Builder
				code := runWithInput(t.Context(), append([]string{"--home", home, "--workdir", work}, args...), strings.NewReader("hi\n"), &stdout, &stderr)
				wantLayoutFile(t, result{code: code, stdout: stdout.String(), stderr: stderr.String()}, file)
				wantNothingSpent(t, srv, home, before)
			})
		}
	}
}

// TestResumeChecksTheSessionsDirsBeforeTheModel: a file where the session
// run continues keeps a directory (its task list, its context archive), or
// where the shared task list of LITE_AGENT_TASK_LIST_ID is kept, makes run
// fail before the first record and model call, naming it. Before, a file
// in place of tasks/<id> was found by the reminder after the prompt was
// written to the log, one in place of the archive after the model calls.
func TestResumeChecksTheSessionsDirsBeforeTheModel(t *testing.T) {
	srv, home, work, p := layoutSetup(t)
	for _, tt := range []struct {
		name, file, list string
		args             []string
	}{
		{"resume tasks", filepath.Join(p.TasksDir, "s1"), "", []string{"--resume", "s1"}},
		{"continue tasks", filepath.Join(p.TasksDir, "s1"), "", []string{"--continue"}},
		{"resume archive", storage.SessionContextDir(p.SessionsDir, "s1"), "", []string{"--resume", "s1"}},
		{"shared list", filepath.Join(p.TasksDir, "shared"), "shared", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(liteagent.TaskListEnv, tt.list)
			if err := os.RemoveAll(filepath.Join(home, "projects")); err != nil {
				t.Fatal(err)
			}
			cp, err := session.NewFileCheckpointer(p.SessionsDir, session.FileOptions{})
			if err != nil {
				t.Fatal(err)
			}
			seedTurns(t, cp, "s1", 1)
			oldFile(t, tt.file)
			before := tree(t, home)
			r := runCLI(t, append(append([]string{"--home", home, "--workdir", work, "run", "--max-turns", "1"}, tt.args...), "hi")...)
			if r.code != exitFailure || !strings.HasPrefix(r.stderr, "lite-agent: "+tt.file+" is a file where ") || !strings.HasSuffix(r.stderr, ": move it out of the data home (or fix it)\n") {
				t.Errorf("code %d stderr %q; want 1, naming %s", r.code, r.stderr, tt.file)
			}
			wantOneErrorLine(t, r)
			wantNothingSpent(t, srv, home, before)
		})
	}
}

// TestRunInAHomeThatIsAFileSpendsNothing: a --home that is a file fails
// the run before the first model call.
func TestRunInAHomeThatIsAFileSpendsNothing(t *testing.T) {
	srv, _, work, _ := layoutSetup(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	oldFile(t, home)
	before := tree(t, dir)
	r := runCLI(t, "--home", home, "--workdir", work, "run", "--max-turns", "1", "hi")
	if r.code != exitFailure {
		t.Errorf("code %d, stderr %q; want 1", r.code, r.stderr)
	}
	wantOneErrorLine(t, r)
	wantNothingSpent(t, srv, dir, before)
}
