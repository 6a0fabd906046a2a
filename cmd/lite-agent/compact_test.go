package main

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSessionsCompactCommitsAViewThatRunResumesFrom builds a session with
// large tool output, compacts it from the command line, and checks the
// report, the context_view in the log, and that the resumed run's request
// is smaller than the one before the compaction.
func TestSessionsCompactCommitsAViewThatRunResumesFrom(t *testing.T) {
	isolateEnv(t)
	big := strings.Repeat("the output of a long command\n", 300)
	srv := &anthropicServer{}
	for range 3 {
		srv.replies = append(srv.replies, toolReply("toolu_x", "read_file", `{"path":"big.txt"}`), textReply("read it"))
	}
	srv.replies = append(srv.replies, textReply("resumed"))
	ts := httptest.NewServer(srv)
	defer ts.Close()
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	t.Setenv("ANTHROPIC_BASE_URL", ts.URL)
	home, work := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(work, "big.txt"), []byte(big), 0o600)
	base := []string{"--home", home, "--workdir", work}
	r := runCLI(t, append(base, "run", "--allow", "read_file", "read big.txt")...)
	if r.code != 0 {
		t.Fatalf("run: %d %s", r.code, r.stderr)
	}
	for range 2 {
		if r = runCLI(t, append(base, "run", "--continue", "--allow", "read_file", "again")...); r.code != 0 {
			t.Fatalf("run --continue: %d %s", r.code, r.stderr)
		}
	}
	id := strings.TrimSpace(r.stderr[strings.LastIndex(r.stderr, "session ")+len("session "):])

	if r := runCLI(t, append(base, "sessions", "compact", "nosuch")...); r.code != 1 {
		t.Errorf("compact of an unknown session: %d %q", r.code, r.stderr)
	}
	r = runCLI(t, append(base, "sessions", "compact", id, "--instructions", "keep big.txt")...)
	if r.code != 0 || !strings.Contains(r.stdout, "session "+id+" compacted: about ") {
		t.Fatalf("compact: %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, append(base, "sessions", "show", id)...); !strings.Contains(r.stdout, "context_view") {
		t.Errorf("no context_view in the log after compact:\n%s", r.stdout)
	}
	if r = runCLI(t, append(base, "run", "--resume", id, "go on")...); r.code != 0 || r.stdout != "resumed\n" {
		t.Fatalf("run --resume: %d %q %s", r.code, r.stdout, r.stderr)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	before, after := size(srv.bodies[len(srv.bodies)-2]["messages"]), size(srv.bodies[len(srv.bodies)-1]["messages"])
	if after >= before {
		t.Errorf("the resumed request (%d bytes of messages) is not smaller than the last before compact (%d)", after, before)
	}
}

// size is the length of v's JSON.
func size(v any) int {
	b, _ := json.Marshal(v)
	return len(b)
}

func TestChatCompactReportsOnTheSession(t *testing.T) {
	isolateEnv(t)
	srv := &anthropicServer{replies: []string{textReply("one"), textReply("two")}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	var stdout, stderr strings.Builder
	in := strings.NewReader("first\n/compact keep the names\nsecond\n")
	code := runWithInput(t.Context(), []string{"--home", t.TempDir(), "--workdir", t.TempDir(), "chat", "--base-url", ts.URL}, in, &stdout, &stderr)
	if code != 0 || !strings.HasPrefix(stdout.String(), "one\nsession ") || !strings.HasSuffix(stdout.String(), "\ntwo\n") {
		t.Fatalf("chat with /compact: %d stdout %q stderr %q", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "compact") {
		t.Errorf("/compact printed no report: %q", stdout.String())
	}
	if n := len(srv.bodies); n != 2 {
		t.Errorf("/compact reached the model: %d requests", n)
	}
}
