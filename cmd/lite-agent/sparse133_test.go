package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/safefs/safefstest"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestSparseFilesInTheHomeAreRefusedAtOnce plants, in a data home copied
// in, a session log and a task record that are sparse files (round 133: a
// 10 GiB log, 4 KiB on disk, took sessions list 15 s and 560 MB, sessions
// show 3 s and 920 MB, run -r and verify 5 s and 1.1 GB, and a 100 GiB one
// took sessions list past three minutes, an interrupt included; four
// 1000 MiB task files took verify to 4.3 GB and tasks list to 2.2 GB).
// Each command now refuses the file by name at once, and the project's
// ordinary session is still listed, shown and resumed.
func TestSparseFilesInTheHomeAreRefusedAtOnce(t *testing.T) {
	isolateEnv(t)
	srv := &anthropicServer{replies: []string{textReply("first answer"), textReply("planted answer"), textReply("again")}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	t.Setenv("ANTHROPIC_BASE_URL", ts.URL)
	home, work := t.TempDir(), t.TempDir()
	base := []string{"--home", home, "--workdir", work}
	if r := runCLI(t, append(base, "run", "--session-id", "good", "hello")...); r.code != 0 {
		t.Fatalf("run: %d %s", r.code, r.stderr)
	}
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: work, Storage: storage.Options{Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	// The planted log holds a session's records, then a hole.
	if r := runCLI(t, append(base, "run", "--session-id", "planted", "hello")...); r.code != 0 {
		t.Fatalf("run: %d %s", r.code, r.stderr)
	}
	log := filepath.Join(p.SessionsDir, "planted.jsonl")
	if err := os.Truncate(log, 2<<30); err != nil {
		t.Skip("sparse file:", err)
	}
	list := filepath.Join(p.TasksDir, "planted")
	if err := os.MkdirAll(list, 0o700); err != nil {
		t.Fatal(err)
	}
	task := filepath.Join(list, "1.json")
	if err := os.WriteFile(task, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(task, 900<<20); err != nil {
		t.Fatal(err)
	}
	if !safefstest.HolesSeen(t, log) {
		t.Skip("the file system (or build) tells no holes")
	}
	for _, tc := range []struct {
		args []string
		code int
		out  string // in stdout
		err  string // in stderr
	}{
		{[]string{"sessions", "list"}, 0, "sparse", ""},
		{[]string{"sessions", "show", "planted"}, 1, "", "sparse"},
		{[]string{"run", "-r", "planted", "hi"}, 1, "", "sparse"},
		{[]string{"tasks", "list", "--list", "planted"}, 1, "", "sparse"},
		{[]string{"verify"}, 1, "sparse", ""},
	} {
		start := time.Now()
		r := runCLI(t, append(base, tc.args...)...)
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%v took %s", tc.args, d)
		}
		if r.code != tc.code || !strings.Contains(r.stdout, tc.out) || !strings.Contains(r.stderr, tc.err) {
			t.Errorf("%v: code %d, stdout %q, stderr %q", tc.args, r.code, r.stdout, r.stderr)
		}
	}
	r := runCLI(t, append(base, "sessions", "list")...)
	if !strings.Contains(r.stdout, "good") || !strings.Contains(r.stdout, "hello") {
		t.Errorf("the ordinary session is not listed: %q", r.stdout)
	}
	if r := runCLI(t, append(base, "run", "-r", "good", "more")...); r.code != 0 || r.stdout != "again\n" {
		t.Errorf("run -r good: %d %q %s", r.code, r.stdout, r.stderr)
	}
	for _, f := range []string{log, task} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}
