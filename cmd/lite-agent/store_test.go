package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/verify"
	"github.com/lite-agent/lite-agent-go/storage"
)

// referenceHome writes, by hand, a data home in the reference
// implementation's on-disk format: a session log of two records, its
// context archive, its private task list, a shared task list and another
// session. It returns the home and the project layout.
func referenceHome(t *testing.T) (string, storage.ProjectPaths) {
	t.Helper()
	home, p := appHome(t)
	files := map[string]string{
		"sessions/s1.jsonl": `{"seq":1,"sessionId":"s1","parentSeq":null,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"hi"}}}` + "\n" +
			`{"seq":2,"sessionId":"s1","parentSeq":1,"ts":"2026-07-22T12:00:01.000Z","event":{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"hello"},{"type":"tool_call","id":"c1","name":"bash","input":{"command":"ls"}}]}}}` + "\n",
		"sessions/s2.jsonl":               `{"seq":1,"sessionId":"s2","parentSeq":null,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"other"}}}` + "\n",
		"sessions/s1.context/index.jsonl": `{"ref":"2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824","preview":"hello"}` + "\n",
		"sessions/s1.context/notes/2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824.md": "hello",
		"tasks/s1/1.json":     "{\n  \"id\": \"1\",\n  \"subject\": \"Write tests\",\n  \"description\": \"\",\n  \"status\": \"in_progress\",\n  \"blockedBy\": [],\n  \"blocks\": [],\n  \"createdAt\": 1753185600000,\n  \"updatedAt\": 1753185600000\n}",
		"tasks/shared/1.json": "{\n  \"id\": \"1\",\n  \"subject\": \"Shared work\",\n  \"description\": \"d\",\n  \"status\": \"pending\",\n  \"blockedBy\": [],\n  \"blocks\": [],\n  \"createdAt\": 1753185600000,\n  \"updatedAt\": 1753185600000\n}",
	}
	project := p.ProjectDir()
	for rel, content := range files {
		path := filepath.Join(project, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home, p
}

func TestReferenceSessionsAreListedAndShown(t *testing.T) {
	isolateEnv(t)
	home, _ := referenceHome(t)
	base := []string{"--home", home, "--workdir", "/srv/app"}

	r := runCLI(t, append(base, "sessions", "list", "--json")...)
	if r.code != 0 {
		t.Fatalf("list: %d %s", r.code, r.stderr)
	}
	var rows []sessionRow
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, row := range rows {
		got[row.ID] = row.Records
	}
	if len(got) != 2 || got["s1"] != 2 || got["s2"] != 1 {
		t.Errorf("sessions %+v", rows)
	}

	r = runCLI(t, append(base, "sessions", "show", "s1")...)
	if r.code != 0 || !strings.Contains(r.stdout, "hello [call bash c1]") || !strings.Contains(r.stdout, "1\t2026-07-22T12:00:00.000Z\tuser\thi") {
		t.Errorf("show: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, append(base, "sessions", "show", "s1", "--json")...)
	var recs []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &recs); err != nil || len(recs) != 2 || recs[1]["parentSeq"] != 1.0 {
		t.Errorf("show --json: %v %s", err, r.stdout)
	}
}

func TestShowListsWhatIsReadableThenFails(t *testing.T) {
	isolateEnv(t)
	home, p := referenceHome(t)
	log := filepath.Join(p.SessionsDir, "s1.jsonl")
	f, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"seq":3,"sessionId":"s1","parentSeq":2,"ts":` + "\n")
	f.Close()
	before, _ := os.ReadFile(log)
	r := runCLI(t, "--home", home, "--workdir", "/srv/app", "sessions", "show", "s1")
	if r.code != 1 || strings.Count(r.stdout, "\n") != 2 || !strings.Contains(r.stderr, "record 3") {
		t.Errorf("code %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	if strings.Count(r.stderr, "\n") != 1 || !strings.HasPrefix(r.stderr, "lite-agent: ") {
		t.Errorf("stderr %q, want one error line", r.stderr)
	}
	if after, _ := os.ReadFile(log); string(after) != string(before) {
		t.Error("show changed the log")
	}
}

func TestReferenceTaskListsAreListed(t *testing.T) {
	isolateEnv(t)
	home, _ := referenceHome(t)
	r := runCLI(t, "--home", home, "--workdir", "/srv/app", "tasks", "list")
	want := "list s1:\n  [>] #1 Write tests (in_progress)\n\nlist shared:\n  [ ] #1 Shared work (pending)\n"
	if r.code != 0 || r.stdout != want {
		t.Errorf("code %d stderr %s\ngot  %q\nwant %q", r.code, r.stderr, r.stdout, want)
	}
	r = runCLI(t, "--home", home, "--workdir", "/srv/app", "tasks", "list", "--list", "shared", "--json")
	var lists []taskList
	if err := json.Unmarshal([]byte(r.stdout), &lists); err != nil || len(lists) != 1 || lists[0].Tasks[0].Subject != "Shared work" {
		t.Errorf("json: %v %s", err, r.stdout)
	}
	if r := runCLI(t, "--home", home, "tasks", "list", "--list", "../x"); r.code != 2 {
		t.Errorf("invalid list id: code %d", r.code)
	}
}

func TestSessionsDeleteRemovesExactlyWhatTheSpecSays(t *testing.T) {
	isolateEnv(t)
	home, p := referenceHome(t)
	project := p.ProjectDir()
	before := paths(t, project)
	r := runCLI(t, "--home", home, "--workdir", "/srv/app", "sessions", "delete", "s1")
	if r.code != 0 {
		t.Fatalf("delete: %d %s", r.code, r.stderr)
	}
	after := paths(t, project)
	wantRemoved(t, before, after, func(rel string) bool {
		return strings.HasPrefix(rel, "sessions/s1.") || strings.HasPrefix(rel, "tasks/s1")
	})
	if len(after) != len(before)-7 {
		t.Errorf("%d entries left of %d, want 7 removed: %v", len(after), len(before), after)
	}
}

// wantRemoved checks that exactly the entries of before that removed
// reports true for are missing from after.
func wantRemoved(t *testing.T, before, after []string, removed func(rel string) bool) {
	t.Helper()
	for _, rel := range before {
		gone := !slices.Contains(after, rel)
		if want := removed(rel); gone != want {
			t.Errorf("%s: removed=%v, want removed=%v", rel, gone, want)
		}
	}
}

// TestSessionsDeleteKeepsTheListNamedByTheEnvironment deletes session s1
// while LITE_AGENT_TASK_LIST_ID names s1 as the shared list, as agents of
// the default namespace use it: the list stays, and only the log and the
// archive go. An invalid value is refused before anything is removed.
func TestSessionsDeleteKeepsTheListNamedByTheEnvironment(t *testing.T) {
	isolateEnv(t)
	home, p := referenceHome(t)
	project := p.ProjectDir()
	t.Setenv(liteagent.TaskListEnv, "../s1")
	before := paths(t, project)
	if r := runCLI(t, "--home", home, "--workdir", "/srv/app", "sessions", "delete", "s1"); r.code == 0 || !strings.Contains(r.stderr, liteagent.TaskListEnv) {
		t.Errorf("invalid %s: code %d, stderr %q", liteagent.TaskListEnv, r.code, r.stderr)
	}
	if got := paths(t, project); !slices.Equal(got, before) {
		t.Fatalf("a refused delete changed the project: %v", got)
	}
	t.Setenv(liteagent.TaskListEnv, "s1")
	if r := runCLI(t, "--home", home, "--workdir", "/srv/app", "sessions", "delete", "s1"); r.code != 0 {
		t.Fatalf("delete: %d %s", r.code, r.stderr)
	}
	wantRemoved(t, before, paths(t, project), func(rel string) bool { return strings.HasPrefix(rel, "sessions/s1.") })
}

// paths lists the paths under root, relative to it.
func paths(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if rel, _ := filepath.Rel(root, path); rel != "." {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestStoreCommandsCreateNothingOnAnEmptyHome(t *testing.T) {
	isolateEnv(t)
	home := t.TempDir()
	for _, args := range [][]string{
		{"sessions", "list"}, {"sessions", "delete", "x"}, {"sessions", "show", "x"}, {"tasks", "list"}, {"tasks", "list", "--list", "a"}, {"cleanup"},
	} {
		r := runCLI(t, append([]string{"--home", home, "--workdir", "/srv/app"}, args...)...)
		want := 0
		if args[0] == "sessions" && args[1] != "list" || len(args) > 2 && args[2] == "--list" {
			want = 1 // no session x, no task list a
		}
		if r.code != want {
			t.Errorf("%v: code %d %s", args, r.code, r.stderr)
		}
	}
	if ents, _ := os.ReadDir(home); len(ents) != 0 {
		t.Errorf("created %v", ents)
	}
}

func TestCleanupHonorsAgeAndDryRun(t *testing.T) {
	isolateEnv(t)
	home, p := referenceHome(t)
	old := filepath.Join(p.SessionsDir, "s2.jsonl")
	past := mustTime(t, "2020-01-01T00:00:00Z")
	if err := os.Chtimes(old, past, past); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "--home", home, "cleanup", "--dry-run", "--max-age", "30d")
	if r.code != 0 || !strings.Contains(r.stdout, "would remove "+old) {
		t.Errorf("dry run: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(old); err != nil {
		t.Fatal("dry run removed the file")
	}
	r = runCLI(t, "--home", home, "cleanup", "--json")
	var rep struct{ Removed []struct{ Path string } }
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || len(rep.Removed) != 1 || rep.Removed[0].Path != old {
		t.Errorf("cleanup: %v %s", err, r.stdout)
	}
	if _, err := os.Stat(filepath.Join(p.TasksDir, "s1", "1.json")); err != nil {
		t.Error("cleanup touched tasks")
	}
	if r := runCLI(t, "--home", home, "cleanup", "--max-age", "soon"); r.code != 2 {
		t.Errorf("bad --max-age: code %d", r.code)
	}
}

func mustTime(t *testing.T, s string) (tm time.Time) {
	t.Helper()
	tm, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

func TestVerifyCountsInTheSingular(t *testing.T) {
	isolateEnv(t)
	home, p := referenceHome(t)
	os.WriteFile(filepath.Join(p.TasksDir, "shared", "1.json"), []byte(`{"id":"1"`), 0o600)
	r := runCLI(t, "--home", home, "--workdir", "/srv/app", "verify")
	if r.code != 1 || !strings.HasSuffix(r.stdout, " in 1 project: 1 problem\n") || r.stderr != "lite-agent: verify found 1 problem\n" {
		t.Errorf("code %d\nstdout %s\nstderr %q", r.code, r.stdout, r.stderr)
	}
}

func TestVerifyReportsEveryProblemAndChangesNothing(t *testing.T) {
	isolateEnv(t)
	home, p := referenceHome(t)
	base := []string{"--home", home, "--workdir", "/srv/app"}
	r := runCLI(t, append(base, "verify")...)
	if r.code != 0 || !strings.Contains(r.stdout, ": 0 problems") {
		t.Fatalf("clean home: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}

	// Damage a log in the middle, a task record and an archive note.
	log := filepath.Join(p.SessionsDir, "s1.jsonl")
	b, _ := os.ReadFile(log)
	os.WriteFile(log, append([]byte("{\"seq\":1,\"garbage\n"), b...), 0o600)
	os.WriteFile(filepath.Join(p.TasksDir, "shared", "1.json"), []byte(`{"id":"1"`), 0o600)
	note := filepath.Join(p.SessionsDir, "s1.context", "notes", "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824.md")
	os.WriteFile(note, []byte("tampered"), 0o600)
	before := paths(t, home)
	sums := map[string]string{}
	for _, rel := range before {
		c, _ := os.ReadFile(filepath.Join(home, rel))
		sums[rel] = string(c)
	}

	r = runCLI(t, append(base, "verify", "--json")...)
	if r.code != 1 {
		t.Fatalf("code %d, stderr %s", r.code, r.stderr)
	}
	var rep verify.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, pr := range rep.Problems {
		found[filepath.Base(pr.File)+"#"+pr.Record] = true
		if strings.Contains(pr.Message, "tampered") {
			t.Errorf("problem leaks content: %s", pr.Message)
		}
	}
	for _, want := range []string{"s1.jsonl#1", "s1.jsonl#2", "s1.jsonl#3", "1.json#1", "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824.md#2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"} {
		if !found[want] {
			t.Errorf("problem %s not reported; got %v", want, found)
		}
	}
	for _, rel := range paths(t, home) {
		c, _ := os.ReadFile(filepath.Join(home, rel))
		if sums[rel] != string(c) {
			t.Errorf("verify changed %s", rel)
		}
	}
	if len(paths(t, home)) != len(before) {
		t.Error("verify created or removed files")
	}
}

func TestVerifyUnderTheWrongCodecReportsDecodeProblems(t *testing.T) {
	isolateEnv(t)
	home, _ := referenceHome(t)
	r := runCLI(t, "--home", home, "--workdir", "/srv/app", "--codec", "gzip", "verify", "--all", "--json")
	var rep verify.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != 1 {
		t.Fatalf("%d %v %s", r.code, err, r.stderr)
	}
	decode := 0
	for _, pr := range rep.Problems {
		if pr.Kind == "decode" {
			decode++
		}
		if !strings.Contains(pr.Message, "migration") && !strings.Contains(pr.Message, "codec") {
			t.Errorf("problem %+v", pr)
		}
	}
	if decode < 5 || rep.Projects != 1 {
		t.Errorf("report %+v", rep)
	}
}
