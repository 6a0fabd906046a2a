package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/storage"
)

// longIDHome writes, by hand as the TypeScript SDK lays them out
// (reference-behavior.md §1.5), a project whose one session has an id of
// n characters: its log, its context archive and its private task list,
// all last changed a year ago. The reference has no limit on ids but the
// file system's: <id>.jsonl.lock, the lock it takes for every append,
// must fit in 255 bytes.
func longIDHome(t *testing.T, n int) (home string, p storage.ProjectPaths, id string) {
	t.Helper()
	home, p = appHome(t)
	id = strings.Repeat("ab-_9", n/5+1)[:n]
	const ref = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"
	files := map[string]string{
		"sessions/" + id + ".jsonl": `{"seq":1,"sessionId":"` + id + `","parentSeq":null,"ts":"2025-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"long one"}}}` + "\n" +
			`{"seq":2,"sessionId":"` + id + `","parentSeq":1,"ts":"2025-07-22T12:00:01.000Z","event":{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"hello"}]}}}` + "\n",
		"sessions/" + id + ".context/index.jsonl":          `{"ref":"` + ref + `","preview":"hello"}` + "\n",
		"sessions/" + id + ".context/notes/" + ref + ".md": "hello",
		"tasks/" + id + "/1.json":                          "{\n  \"id\": \"1\",\n  \"subject\": \"Long work\",\n  \"description\": \"\",\n  \"status\": \"pending\",\n  \"blockedBy\": [],\n  \"blocks\": [],\n  \"createdAt\": 1753185600000,\n  \"updatedAt\": 1753185600000\n}",
	}
	old := time.Now().Add(-365 * 24 * time.Hour)
	for rel, content := range files {
		path := filepath.Join(p.ProjectDir(), rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, rel := range []string{"sessions/" + id + ".jsonl", "sessions/" + id + ".context/index.jsonl", "sessions/" + id + ".context/notes/" + ref + ".md", "sessions/" + id + ".context/notes", "sessions/" + id + ".context", "tasks/" + id + "/1.json", "tasks/" + id} {
		if err := os.Chtimes(filepath.Join(p.ProjectDir(), rel), old, old); err != nil {
			t.Fatal(err)
		}
	}
	return home, p, id
}

// TestACommandReadsASessionWithA200CharacterID (now with an id of
// storage.MaxIDLength, 244 characters, the longest the reference can
// write) checks that every command
// reading a data home sees a session the reference wrote with a
// 200-character id, as it sees any other: a data home must be readable by
// either implementation.
func TestACommandReadsASessionWithA200CharacterID(t *testing.T) {
	isolateEnv(t)
	home, p, id := longIDHome(t, storage.MaxIDLength)
	base := []string{"--home", home, "--workdir", "/srv/app"}

	r := runCLI(t, append(base, "sessions", "list", "--json")...)
	var rows []sessionRow
	if err := json.Unmarshal([]byte(r.stdout), &rows); r.code != 0 || err != nil || len(rows) != 1 || rows[0].ID != id || rows[0].Records != 2 {
		t.Errorf("sessions list: code %d %v rows %+v stderr %q", r.code, err, rows, r.stderr)
	}
	if r := runCLI(t, append(base, "sessions", "show", id)...); r.code != 0 || !strings.Contains(r.stdout, "hello") {
		t.Errorf("sessions show: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, append(base, "tasks", "list", "--list", id, "--json")...); r.code != 0 || !strings.Contains(r.stdout, "Long work") {
		t.Errorf("tasks list --list: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, append(base, "tasks", "list", "--json")...); r.code != 0 || !strings.Contains(r.stdout, "Long work") {
		t.Errorf("tasks list: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	// verify checks as many files as in the same home with a short id.
	shortHome, _, _ := longIDHome(t, 5)
	want := runCLI(t, "--home", shortHome, "--workdir", "/srv/app", "verify", "--json")
	if r := runCLI(t, append(base, "verify", "--json")...); r.code != 0 || want.code != 0 || r.stdout != strings.ReplaceAll(want.stdout, shortHome, home) {
		t.Errorf("verify: code %d stdout %q stderr %q\nwith a short id: %q", r.code, r.stdout, r.stderr, want.stdout)
	}
	// The copies a repair and an append set aside take their short forms
	// for an id this long (<id>.broken-<n>, <id>.torn-<n>): no listing
	// takes them for logs, and a migration leaves them out as copies.
	copies := []string{id + ".broken-123", id + ".torn-12345"}
	for _, c := range copies {
		if len(c) != storage.NameMax {
			t.Fatalf("%d-byte copy name, want the limit", len(c))
		}
		if err := os.WriteFile(filepath.Join(p.SessionsDir, c), []byte("{\"seq\":1"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r = runCLI(t, append(base, "sessions", "list", "--json")...)
	if err := json.Unmarshal([]byte(r.stdout), &rows); r.code != 0 || err != nil || len(rows) != 1 || rows[0].ID != id {
		t.Errorf("sessions list with the copies: code %d %v rows %+v stderr %q", r.code, err, rows, r.stderr)
	}
	to := filepath.Join(t.TempDir(), "to")
	r = runCLI(t, append(base, "migrate", "--to-home", to)...)
	if r.code != 0 || !strings.Contains(r.stdout+r.stderr, "tail repair") || !strings.Contains(r.stdout+r.stderr, "torn tail") {
		t.Errorf("migrate --to-home: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	rel := sessionsRel(t, home, p)
	for _, c := range copies {
		if _, err := os.Lstat(filepath.Join(to, rel, c)); err == nil {
			t.Errorf("the migration copied %s as data", c)
		}
	}
	if _, err := os.Stat(filepath.Join(to, rel, id+".jsonl")); err != nil {
		t.Errorf("the migrated home has no log of the session: %v", err)
	}
	if _, err := os.Stat(filepath.Join(to, rel, id+".context", "index.jsonl")); err != nil {
		t.Errorf("the migrated home has no archive of the session: %v", err)
	}
	r = runCLI(t, append(base, "cleanup", "--max-age", "30d")...)
	if r.code != 0 {
		t.Errorf("cleanup: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	for _, gone := range []string{filepath.Join(p.SessionsDir, id+".jsonl"), filepath.Join(p.SessionsDir, id+".context")} {
		if _, err := os.Lstat(gone); err == nil {
			t.Errorf("cleanup of a session a year old left %s\nstdout %q", gone, r.stdout)
		}
	}
	home, p, id = longIDHome(t, storage.MaxIDLength)
	if r := runCLI(t, "--home", home, "--workdir", "/srv/app", "sessions", "delete", id); r.code != 0 {
		t.Errorf("sessions delete: code %d stderr %q", r.code, r.stderr)
	}
	for _, gone := range []string{filepath.Join(p.SessionsDir, id+".jsonl"), filepath.Join(p.SessionsDir, id+".context"), filepath.Join(p.TasksDir, id)} {
		if _, err := os.Lstat(gone); err == nil {
			t.Errorf("sessions delete left %s", gone)
		}
	}
}

// TestAnIDTooLongForAFileNameIsATypedUsageError checks that an id whose
// derived file names cannot fit the file system's 255-byte name limit is
// refused up front, naming the limit, where it once failed on the first
// file name (or was refused at a limit the file system does not have).
func TestAnIDTooLongForAFileNameIsATypedUsageError(t *testing.T) {
	isolateEnv(t)
	home, _ := appHome(t)
	id := strings.Repeat("x", storage.MaxIDLength+1)
	r := runCLI(t, "--home", home, "--workdir", "/srv/app", "sessions", "show", id)
	if r.code != exitUsage || !strings.Contains(r.stderr, "at most "+strconv.Itoa(storage.MaxIDLength)) {
		t.Errorf("sessions show with a %d-character id: code %d stderr %q", len(id), r.code, r.stderr)
	}
}

// TestMigrateToAStoreKeepsASessionWithA200CharacterID checks that a
// session with a 200-character id goes into PostgreSQL and back.
func TestMigrateToAStoreKeepsASessionWithA200CharacterID(t *testing.T) {
	u := pgtest.URL(t)
	isolateEnv(t)
	home, p, id := longIDHome(t, storage.MaxIDLength)
	clearStoreProject(t, u, p)
	base := []string{"--home", home, "--workdir", "/srv/app"}
	if r := runCLI(t, append(base, "migrate", "--to-store", u)...); r.code != 0 {
		t.Fatalf("migrate --to-store: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	r := runCLI(t, append(base, "--store", u, "sessions", "list", "--json")...)
	var rows []sessionRow
	if err := json.Unmarshal([]byte(r.stdout), &rows); r.code != 0 || err != nil || len(rows) != 1 || rows[0].ID != id || rows[0].Records != 2 {
		t.Errorf("sessions list --store: code %d %v rows %+v stderr %q", r.code, err, rows, r.stderr)
	}
	if r := runCLI(t, append(base, "--store", u, "tasks", "list", "--list", id)...); r.code != 0 || !strings.Contains(r.stdout, "Long work") {
		t.Errorf("tasks list --store: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, append(base, "--store", u, "verify")...); r.code != 0 {
		t.Errorf("verify --store: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	back := filepath.Join(t.TempDir(), "back")
	if r := runCLI(t, append(base, "migrate", "--from-store", u, "--to-home", back)...); r.code != 0 {
		t.Fatalf("migrate --from-store: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(back, sessionsRel(t, home, p), id+".jsonl")); err != nil {
		t.Errorf("the home migrated back has no log of the session: %v", err)
	}
}

// sessionsRel returns p's sessions directory relative to the data home.
func sessionsRel(t *testing.T, home string, p storage.ProjectPaths) string {
	t.Helper()
	rel, err := filepath.Rel(home, p.SessionsDir)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}
