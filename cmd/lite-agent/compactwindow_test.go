package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// windowServer speaks the Anthropic Messages wire format like a model of a
// small context window: a request body of more than limit bytes is refused
// with the 400 "prompt is too long" a real provider sends; any other gets
// the answer "summary N" (N counting the answers).
type windowServer struct {
	limit   int
	mu      sync.Mutex
	sizes   []int
	bodies  []string
	refused int
}

func (s *windowServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.sizes = append(s.sizes, len(b))
	s.bodies = append(s.bodies, string(b))
	if len(b) > s.limit {
		s.refused++
		s.mu.Unlock()
		msg := fmt.Sprintf("prompt is too long: %d tokens > %d maximum", len(b)/4, s.limit/4)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"type":"error","error":{"type":"invalid_request_error","message":%q}}`, msg)
		return
	}
	n := len(s.sizes) - s.refused
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	io.WriteString(w, textReply(fmt.Sprintf("summary %d", n)))
}

// compactSetup starts a windowServer of limit bytes that the CLI's
// Anthropic provider talks to, and returns it, a home and a workdir, and
// the file checkpointer of their project's sessions, to seed a session.
func compactSetup(t *testing.T, limit int) (srv *windowServer, home, work string, cp session.Checkpointer) {
	t.Helper()
	isolateEnv(t)
	srv = &windowServer{limit: limit}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	home, work, cp = seedStore(t, ts.URL)
	return srv, home, work, cp
}

// seedStore points the CLI's Anthropic provider at url, and returns a
// home and a workdir, and the file checkpointer of their project's
// sessions, to seed a session.
func seedStore(t *testing.T, url string) (home, work string, cp session.Checkpointer) {
	t.Helper()
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	t.Setenv("ANTHROPIC_BASE_URL", url)
	home, work = t.TempDir(), t.TempDir()
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: work, Storage: storage.Options{Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	cp, err = session.NewFileCheckpointer(p.SessionsDir, session.FileOptions{Encoding: storage.Encoding{Namespace: storage.DefaultNamespace, ProjectID: p.Hash}})
	if err != nil {
		t.Fatal(err)
	}
	return home, work, cp
}

// TestSessionsCompactOfAHugeSessionFitsTheWindow compacts a session of
// 3,000 turns (about 270,000 estimated tokens) for a model of a 50,000-token
// window whose server refuses longer requests: the summary is asked for in
// requests that each fit, the resumed run starts from it, and the log
// keeps every event.
func TestSessionsCompactOfAHugeSessionFitsTheWindow(t *testing.T) {
	const window, turns = 50_000, 3000
	srv, home, work, cp := compactSetup(t, window*4)
	const id = "huge-session"
	seedTurns(t, cp, id, turns)
	base := []string{"--home", home, "--workdir", work}
	r := runCLI(t, append(base, "sessions", "compact", id, "--context-window", fmt.Sprint(window))...)
	if r.code != 0 || !strings.Contains(r.stdout, "session "+id+" compacted: about ") {
		t.Fatalf("compact: %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	srv.mu.Lock()
	sizes, refused := append([]int(nil), srv.sizes...), srv.refused
	srv.mu.Unlock()
	if refused > 0 || len(sizes) < 2 {
		t.Fatalf("%d summary requests of %v bytes, %d refused as too long; want a rolling summary within %d bytes",
			len(sizes), sizes, refused, srv.limit)
	}
	t.Logf("%d summary requests of %v bytes", len(sizes), sizes)
	r = runCLI(t, append(base, "run", "--context-window", fmt.Sprint(window), "--resume", id, "go on")...)
	if r.code != 0 {
		t.Fatalf("run --resume: %d %q %s", r.code, r.stdout, r.stderr)
	}
	srv.mu.Lock()
	last := srv.bodies[len(srv.bodies)-1]
	srv.mu.Unlock()
	want, _ := json.Marshal(fmt.Sprintf("[Summary of earlier conversation]\nsummary %d", len(sizes)))
	if !strings.Contains(last, strings.Trim(string(want), `"`)) || strings.Contains(last, "question 100:") {
		t.Errorf("the resumed request does not start from the last summary:\n%.1000s", last)
	}
	all, err := cp.Read(t.Context(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	prompts := 0
	for _, se := range all {
		if _, ok := se.Event.(session.UserEvent); ok {
			prompts++
		}
	}
	if prompts != turns+1 {
		t.Errorf("the log holds %d prompts, want %d: compaction lost history", prompts, turns+1)
	}
}

// TestSessionsCompactSaysWhenTheSummaryFails: with a window too small for
// any summary request, sessions compact still commits a view (the levels'
// work, the oldest turns left out) and says on stderr that the summary
// failed, and why, where it said nothing.
func TestSessionsCompactSaysWhenTheSummaryFails(t *testing.T) {
	srv, home, work, cp := compactSetup(t, 1<<30)
	var evs []session.Event
	for i := range 50 {
		evs = append(evs, session.UserEvent{Message: model.UserText(fmt.Sprintf("question %d", i))}, session.AssistantEvent{Message: model.AssistantText("answer")})
	}
	if _, err := cp.Append(t.Context(), "s1", evs, session.AnyHead); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "--home", home, "--workdir", work, "sessions", "compact", "s1", "--context-window", "600")
	if r.code != 0 || !strings.Contains(r.stdout, "session s1 compacted") {
		t.Fatalf("compact: %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "compaction summary failed") || !strings.Contains(r.stderr, "does not fit the model's context window of 600 tokens") {
		t.Errorf("stderr does not say the summary failed: %q", r.stderr)
	}
	// The report says it too, from CompactResult.SummaryErr.
	if !strings.Contains(r.stdout, "\n  summary failed, older turns not summarized: compaction: a summary request does not fit") {
		t.Errorf("stdout does not report the failed summary: %q", r.stdout)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if len(srv.sizes) != 0 {
		t.Errorf("%d summary requests sent for a window that holds none", len(srv.sizes))
	}
}
