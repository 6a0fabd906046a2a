package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// groupServer starts an Anthropic server for a prompt whose model
// dispatches one general-purpose subagent ("Finder") and sets
// ANTHROPIC_API_KEY. child answers the subagent's request and followUp the
// parent's request after the Agent call ("Dispatched." when nil); the turn
// that receives the group's results says "My subagent found 42.".
func groupServer(t *testing.T, child, followUp func(w http.ResponseWriter, r *http.Request)) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		body := string(b)
		w.Header().Set("Content-Type", "text/event-stream")
		switch {
		case strings.Contains(body, `You are the \"general-purpose\" subagent`):
			child(w, r)
		case strings.Contains(body, "background-task-completed"):
			io.WriteString(w, textReply("My subagent found 42."))
		case strings.Contains(body, `"tool_use"`) && followUp != nil:
			followUp(w, r)
		case strings.Contains(body, `"tool_use"`):
			io.WriteString(w, textReply("Dispatched."))
		default:
			io.WriteString(w, toolReply("toolu_1", "Agent", `{"tasks":[{"display_name":"Finder","subagent_type":"general-purpose","prompt":"find the answer"}]}`))
		}
	}))
	t.Cleanup(ts.Close)
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	return ts
}

// answerAfter returns a child that answers "The answer is 42." after d.
func answerAfter(d time.Duration) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		time.Sleep(d)
		io.WriteString(w, textReply("The answer is 42."))
	}
}

// run dispatches a subagent group and, before it exits, waits for the
// group and prints the answer of the turn that receives its results;
// closing the agent at once used to cancel the group and lose them.
func TestRunWaitsForSubagentsAndPrintsTheirDelivery(t *testing.T) {
	isolateEnv(t)
	var children atomic.Int32
	ts := groupServer(t, func(w http.ResponseWriter, r *http.Request) {
		children.Add(1)
		answerAfter(100*time.Millisecond)(w, r) // still running when the parent's turn ends
	}, nil)
	r := runCLI(t, "--home", t.TempDir(), "--workdir", t.TempDir(), "run", "--base-url", ts.URL, "--allow", "Agent", "find the answer")
	if r.code != 0 {
		t.Fatalf("run: %d %s", r.code, r.stderr)
	}
	if r.stdout != "Dispatched.\nMy subagent found 42.\n" || !strings.Contains(r.stderr, "background work finished") {
		t.Errorf("stdout %q stderr %q", r.stdout, r.stderr)
	}
	if n := children.Load(); n != 1 {
		t.Errorf("%d child requests", n)
	}
}

// A group that ends while the prompt's answer is still streaming: its
// delivery waits for the prompt, so the answer's line stays whole.
func TestRunKeepsTheAnswerWholeWhenSubagentsFinishEarly(t *testing.T) {
	isolateEnv(t)
	childDone := make(chan struct{})
	var once sync.Once
	ts := groupServer(t, func(w http.ResponseWriter, _ *http.Request) {
		once.Do(func() { close(childDone) })
		io.WriteString(w, textReply("The answer is 42."))
	}, func(w http.ResponseWriter, _ *http.Request) {
		// "Dispatched" ... " and waiting.", with the group done in between
		full := textReply("Dispatched")
		i := strings.Index(full, "event: content_block_stop")
		io.WriteString(w, full[:i])
		w.(http.Flusher).Flush()
		<-childDone
		time.Sleep(300 * time.Millisecond)
		fmt.Fprintf(w, "event: content_block_delta\ndata: %s\n\n", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" and waiting."}}`)
		io.WriteString(w, full[i:])
	})
	r := runCLI(t, "--home", t.TempDir(), "--workdir", t.TempDir(), "run", "--base-url", ts.URL, "--allow", "Agent", "find the answer")
	if r.code != 0 || r.stdout != "Dispatched and waiting.\nMy subagent found 42.\n" {
		t.Errorf("code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
}

// startChat runs chat against the API at url, with flags, on a fresh home
// and workdir. Its input is the returned pipe writer; its standard output
// and error share term, as on a terminal; done gets its exit code.
func startChat(t *testing.T, url string, flags ...string) (*io.PipeWriter, *lockedBuf, chan int) {
	t.Helper()
	pr, pw := io.Pipe()
	term := &lockedBuf{}
	done := make(chan int, 1)
	args := append([]string{"--home", t.TempDir(), "--workdir", t.TempDir(), "chat", "--base-url", url}, flags...)
	go func() { done <- runWithInput(t.Context(), args, pr, term, term) }()
	return pw, term, done
}

type lockedBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *lockedBuf) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// In chat, a delivery that prints while the user sits at "> " starts on a
// new line, and the marker comes back after it.
func TestChatShowsItsMarkerAgainAfterBackgroundOutput(t *testing.T) {
	isolateEnv(t)
	ts := groupServer(t, answerAfter(100*time.Millisecond), nil)
	pw, term, done := startChat(t, ts.URL, "--allow", "Agent")
	io.WriteString(pw, "find the answer\n")
	// The marker comes back after the delivery's done event: wait for it
	// before ending the input, which leaves the prompt.
	for i := 0; i < 250 && !strings.Contains(term.String(), "My subagent found 42.\n> "); i++ {
		time.Sleep(20 * time.Millisecond)
	}
	pw.Close()
	<-done
	out := term.String()
	if strings.Contains(out, "> background work finished") || !strings.Contains(out, "My subagent found 42.\n> ") {
		t.Errorf("terminal:\n%s", out)
	}
}

// A subagent that never answers: run waits for it until interrupted, then
// fails with the interruption.
func TestRunStopsWaitingForSubagentsWhenInterrupted(t *testing.T) {
	isolateEnv(t)
	ts := groupServer(t, func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }, nil)
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(time.Second, cancel)
	var stdout, stderr strings.Builder
	start := time.Now()
	code := runWithInput(ctx, []string{"--home", t.TempDir(), "--workdir", t.TempDir(), "run", "--base-url", ts.URL, "--allow", "Agent", "go"}, strings.NewReader(""), &stdout, &stderr)
	if elapsed := time.Since(start); code != 1 || elapsed > 10*time.Second || !strings.Contains(stderr.String(), "context canceled") {
		t.Errorf("after %v: code %d stdout %q stderr %q", elapsed, code, stdout.String(), stderr.String())
	}
}

// A line typed in chat while the agent works steers the running prompt,
// which answers it; when the prompt cannot take it (at its last call), it
// becomes the next prompt.
func TestChatSteersTheRunningPrompt(t *testing.T) {
	for _, tc := range []struct {
		name  string
		flags []string
		steer bool
	}{
		{"steered", nil, true},
		{"next prompt", []string{"--max-turns", "1"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isolateEnv(t)
			started, typed := make(chan struct{}), make(chan struct{})
			var requests atomic.Int32
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				w.Header().Set("Content-Type", "text/event-stream")
				switch requests.Add(1) {
				case 1:
					close(started)
					<-typed // the model is still working when the user types
					io.WriteString(w, textReply("Working on it."))
				default:
					if !strings.Contains(string(b), "be brief") {
						t.Errorf("the typed line is not in the request: %s", b)
					}
					io.WriteString(w, textReply("Brief."))
				}
			}))
			defer ts.Close()
			t.Setenv("ANTHROPIC_API_KEY", "test-key")
			pw, term, done := startChat(t, ts.URL, append([]string{"--steer"}, tc.flags...)...)
			io.WriteString(pw, "do the thing\n")
			<-started
			io.WriteString(pw, "be brief\n")
			// chat reads the line while the model works
			for i := 0; i < 250 && tc.steer && !strings.Contains(term.String(), "(steering"); i++ {
				time.Sleep(20 * time.Millisecond)
			}
			if !tc.steer {
				time.Sleep(100 * time.Millisecond) // either way the line is the next prompt
			}
			close(typed)
			for i := 0; i < 250 && !strings.Contains(term.String(), "Brief.\n> "); i++ {
				time.Sleep(20 * time.Millisecond)
			}
			pw.Close()
			if code := <-done; code != 0 {
				t.Errorf("code %d", code)
			}
			out := term.String()
			if strings.Contains(out, "(steering: the agent reads that next)") != tc.steer || !strings.Contains(out, "Working on it.\n") ||
				!strings.Contains(out, "Brief.\n") || requests.Load() != 2 {
				t.Errorf("%d requests, terminal:\n%s", requests.Load(), out)
			}
		})
	}
}

// Piped input is a script of prompts: without --steer, a line that comes
// while a prompt runs is the next prompt, not a steer of the running one.
func TestPipedChatLinesArePrompts(t *testing.T) {
	isolateEnv(t)
	var requests atomic.Int32
	srv := &anthropicServer{replies: []string{textReply("one"), textReply("two")}}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if requests.Add(1) == 1 {
			time.Sleep(200 * time.Millisecond) // the second line is there long before
		}
		srv.ServeHTTP(w, r)
	}))
	defer ts.Close()
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	var stdout, stderr strings.Builder
	code := runWithInput(t.Context(), []string{"--home", t.TempDir(), "--workdir", t.TempDir(), "chat", "--base-url", ts.URL}, strings.NewReader("first\nsecond\n"), &stdout, &stderr)
	if code != 0 || stdout.String() != "one\ntwo\n" || strings.Contains(stderr.String(), "steer") {
		t.Errorf("code %d stdout %q stderr %q", code, stdout.String(), stderr.String())
	}
	if len(srv.bodies) != 2 || len(srv.bodies[1]["messages"].([]any)) != 3 {
		t.Errorf("requests: %v", srv.bodies)
	}
}

// An empty line or /exit typed while the agent works ends chat after the
// prompt, as at the marker: neither it nor what follows reaches the model.
func TestChatEndsOnAnEmptyLineOrExitTypedDuringATurn(t *testing.T) {
	for _, during := range []string{"\nmore\n", "/exit\nmore\n"} {
		t.Run(strings.TrimSpace(strings.SplitN(during, "\n", 2)[0])+"|", func(t *testing.T) {
			isolateEnv(t)
			started, typed := make(chan struct{}), make(chan struct{})
			var (
				mu     sync.Mutex
				bodies []string
				n      atomic.Int32
			)
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				mu.Lock()
				bodies = append(bodies, string(b))
				mu.Unlock()
				if n.Add(1) == 1 {
					close(started)
					<-typed
				}
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, textReply("ok"))
			}))
			defer ts.Close()
			t.Setenv("ANTHROPIC_API_KEY", "test-key")
			pw, term, done := startChat(t, ts.URL, "--steer")
			io.WriteString(pw, "first\n")
			<-started
			go io.WriteString(pw, during) // blocks once chat stops reading
			time.Sleep(200 * time.Millisecond)
			close(typed)
			select {
			case code := <-done:
				if code != 0 {
					t.Errorf("code %d", code)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("chat did not end")
			}
			pw.Close()
			mu.Lock()
			defer mu.Unlock()
			for _, b := range bodies {
				if strings.Contains(b, "more") || strings.Contains(b, "/exit") {
					t.Errorf("a line after the end reached the model (%d requests); terminal:\n%s", len(bodies), term.String())
				}
			}
		})
	}
}
