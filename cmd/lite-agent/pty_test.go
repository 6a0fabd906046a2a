package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// childEnvCLI holds, as a JSON array, the arguments with which the test
// binary runs as lite-agent (TestCLIChildProcess).
const childEnvCLI = "LITE_AGENT_CLI_CHILD"

// TestCLIChildProcess is lite-agent itself, main and all, when the
// terminal tests run the test binary on a pseudo-terminal.
func TestCLIChildProcess(t *testing.T) {
	args := os.Getenv(childEnvCLI)
	if args == "" {
		t.Skip("run as lite-agent by the terminal tests")
	}
	var a []string
	if err := json.Unmarshal([]byte(args), &a); err != nil {
		t.Fatal(err)
	}
	os.Args = append([]string{"lite-agent"}, a...)
	main()
}

// terminal is lite-agent running on a pseudo-terminal.
type terminal struct {
	t    *testing.T
	pty  *os.File
	out  lockedBuf
	done chan struct{}
	code int
}

// startTerminal runs lite-agent with args on a new pseudo-terminal, as
// its standard input, output and error.
func startTerminal(t *testing.T, args ...string) *terminal {
	t.Helper()
	b, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^TestCLIChildProcess$")
	cmd.Env = append(os.Environ(), childEnvCLI+"="+string(b))
	f, err := pty.Start(cmd)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	term := &terminal{t: t, pty: f, done: make(chan struct{})}
	var reading sync.WaitGroup
	reading.Add(1)
	go func() {
		defer reading.Done()
		io.Copy(&term.out, f) // until the child is gone
	}()
	go func() {
		err := cmd.Wait()
		term.code = cmd.ProcessState.ExitCode()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			term.code = -1
		}
		close(term.done)
	}()
	t.Cleanup(func() {
		select {
		case <-term.done:
		default:
			cmd.Process.Kill()
			<-term.done
		}
		f.Close()
		reading.Wait()
	})
	return term
}

// waitFor waits until the output holds s after the first from bytes of
// it, and returns the offset just past it.
func (term *terminal) waitFor(s string, from int) int {
	term.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		out := term.out.String()
		if i := strings.Index(out[min(from, len(out)):], s); i >= 0 {
			return from + i + len(s)
		}
		if time.Now().After(deadline) {
			term.t.Fatalf("no %q in the output:\n%s", s, out)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// send types s.
func (term *terminal) send(s string) {
	term.t.Helper()
	if _, err := term.pty.Write([]byte(s)); err != nil {
		term.t.Fatal(err)
	}
}

// exit waits for lite-agent to end and returns its exit code.
func (term *terminal) exit() int {
	term.t.Helper()
	select {
	case <-term.done:
		return term.code
	case <-time.After(20 * time.Second):
		term.t.Fatalf("lite-agent did not end:\n%s", term.out.String())
		return 0
	}
}

// hangingReply streams text and then waits until the request ends.
func hangingReply(text string) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		full := textReply(text)
		i := strings.Index(full, "event: content_block_stop")
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, full[:i])
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}
}

// scriptedAPI answers the n-th request with handlers[n] and records the
// request bodies.
type scriptedAPI struct {
	mu       sync.Mutex
	handlers []func(w http.ResponseWriter, r *http.Request)
	bodies   []string
}

func (s *scriptedAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	n := len(s.bodies)
	s.bodies = append(s.bodies, string(b))
	s.mu.Unlock()
	if n >= len(s.handlers) {
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"no reply"}}`, 400)
		return
	}
	s.handlers[n](w, r)
}

func (s *scriptedAPI) body(i int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i >= len(s.bodies) {
		return ""
	}
	return s.bodies[i]
}

// startScriptedAPI serves handlers, one per request, and points
// lite-agent at it.
func startScriptedAPI(t *testing.T, handlers ...func(w http.ResponseWriter, r *http.Request)) *scriptedAPI {
	t.Helper()
	s := &scriptedAPI{handlers: handlers}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	t.Setenv("ANTHROPIC_BASE_URL", ts.URL)
	return s
}

func reply(sse string) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, sse)
	}
}

// Ctrl-C during a chat turn aborts that turn, keeps what it said, and
// chat goes on; at the prompt, Ctrl-C twice ends chat with 0.
func TestChatCtrlCAbortsTheTurnAndChatGoesOn(t *testing.T) {
	isolateEnv(t)
	api := startScriptedAPI(t, hangingReply("Counting sheep: one, two"), reply(textReply("Awake again.")))
	term := startTerminal(t, "--home", t.TempDir(), "--workdir", t.TempDir(), "chat")
	at := term.waitFor("> ", 0)
	term.send("count sheep\r")
	at = term.waitFor("Counting sheep: one, two", at)
	term.send("\x03")
	at = term.waitFor("(interrupted", at)
	at = term.waitFor("> ", at)
	term.send("wake up\r")
	at = term.waitFor("Awake again.", at)
	at = term.waitFor("> ", at)
	term.send("\x03")
	term.waitFor("press Ctrl-C again", at)
	term.send("\x03")
	if code := term.exit(); code != 0 {
		t.Errorf("exit code %d, want 0:\n%s", code, term.out.String())
	}
	// The second request carries the aborted answer, marked.
	if b := api.body(1); !strings.Contains(b, `Counting sheep: one, two\n[aborted]`) {
		t.Errorf("the next request lacks the aborted answer: %s", b)
	}
}

// Ctrl-D at the prompt ends chat with 0 too.
func TestChatCtrlDAtThePromptExitsZero(t *testing.T) {
	isolateEnv(t)
	startScriptedAPI(t)
	term := startTerminal(t, "--home", t.TempDir(), "--workdir", t.TempDir(), "chat")
	term.waitFor("> ", 0)
	term.send("\x04")
	if code := term.exit(); code != 0 {
		t.Errorf("exit code %d, want 0:\n%s", code, term.out.String())
	}
}

// An interrupt stops run with exit code 130.
func TestRunCtrlCExits130(t *testing.T) {
	isolateEnv(t)
	startScriptedAPI(t, hangingReply("Thinking about it"))
	term := startTerminal(t, "--home", t.TempDir(), "--workdir", t.TempDir(), "run", "think")
	at := term.waitFor("Thinking about it", 0)
	term.send("\x03")
	term.waitFor("lite-agent: interrupted", at)
	if code := term.exit(); code != exitInterrupted {
		t.Errorf("exit code %d, want 130:\n%s", code, term.out.String())
	}
}

// On a terminal, y allows one call, a allows calls with exactly this
// input for the rest of the session (echoing the rule), n denies.
func TestApprovalsOnATerminal(t *testing.T) {
	isolateEnv(t)
	work := t.TempDir()
	startScriptedAPI(t,
		reply(toolReply("toolu_1", "write_file", `{"path":"a.txt","content":"1"}`)),
		reply(toolReply("toolu_2", "write_file", `{"path":"a.txt","content":"1"}`)),
		reply(toolReply("toolu_3", "write_file", `{"path":"b.txt","content":"2"}`)),
		reply(toolReply("toolu_4", "write_file", `{"path":"c.txt","content":"3"}`)),
		reply(textReply("All done.")),
	)
	term := startTerminal(t, "--home", t.TempDir(), "--workdir", work, "run", "write files")
	at := term.waitFor("allow write_file", 0)
	at = term.waitFor("[a]lways", at)
	term.send("a\r")
	at = term.waitFor(`allowed for the rest of this session: {"effect":"allow","tool":"write_file","when":{"content":{"equals":"1"},"path":{"equals":"a.txt"}}}`, at)
	// The same call again is not asked about; b.txt is.
	at = term.waitFor("allow write_file", at)
	if strings.Count(term.out.String(), "allow write_file") != 2 {
		t.Errorf("the call allowed with a was asked about again:\n%s", term.out.String())
	}
	term.send("n\r")
	at = term.waitFor("allow write_file", at)
	term.send("y\r")
	term.waitFor("All done.", at)
	if code := term.exit(); code != 0 {
		t.Errorf("exit code %d:\n%s", code, term.out.String())
	}
	for name, want := range map[string]bool{"a.txt": true, "b.txt": false, "c.txt": true} {
		if _, err := os.Stat(filepath.Join(work, name)); (err == nil) != want {
			t.Errorf("%s written: %v, want %v", name, err == nil, want)
		}
	}
}

// An approval prompt shows the whole call as it will run: a command past
// the first hundred characters, escape sequences, carriage returns and
// bidirectional controls written out, and a long value's hidden middle on
// the answer v. Until round 131 the prompt showed the input JSON clipped
// to 100 characters and raw, so "; touch pwned" after a padding of
// harmless words was approved unseen.
func TestApprovalShowsTheWholeCall(t *testing.T) {
	isolateEnv(t)
	work := t.TempDir()
	padded := "echo " + strings.Repeat("all good ", 15) + "; touch pwned-1"
	var long []string
	for i := range 60 {
		long = append(long, fmt.Sprintf("echo step %d", i))
	}
	long[45] = "touch pwned-3"
	startScriptedAPI(t,
		reply(toolReply("toolu_1", "bash", mustJSONString(map[string]string{"command": padded}))),
		reply(toolReply("toolu_2", "bash", `{"command":"touch pwned-2 \r\u001b[2Kecho safe\u202e","description":"List"}`)),
		reply(toolReply("toolu_3", "bash", mustJSONString(map[string]string{"command": strings.Join(long, "\n")}))),
		reply(textReply("All done.")),
	)
	term := startTerminal(t, "--home", t.TempDir(), "--workdir", work, "--sandbox", "off", "run", "go")
	at := term.waitFor("allow bash", 0)
	at = term.waitFor("; touch pwned-1", at)
	at = term.waitFor("[a]lways", at)
	term.send("n\r")
	at = term.waitFor("allow bash", at)
	at = term.waitFor("  | touch pwned-2 \\r\r\n  | \\x1b[2Kecho safe\\u202e", at)
	at = term.waitFor("description: List", at)
	at = term.waitFor("[a]lways", at)
	term.send("n\r")
	at = term.waitFor("allow bash", at)
	at = term.waitFor("part of the call is not shown", at)
	at = term.waitFor("[v]iew it all: ", at)
	if strings.Contains(term.out.String()[:at], "touch pwned-3") {
		t.Errorf("the clipped prompt shows the middle line:\n%s", term.out.String())
	}
	term.send("v\r")
	at = term.waitFor("allow bash", at)
	at = term.waitFor("  | touch pwned-3", at)
	at = term.waitFor("[a]lways this call in this session: ", at)
	term.send("n\r")
	term.waitFor("All done.", at)
	if code := term.exit(); code != 0 {
		t.Errorf("exit code %d:\n%s", code, term.out.String())
	}
	out := term.out.String()
	for _, raw := range []string{"\x1b[2K", "\u202e", "2 \r"} {
		if strings.Contains(out, raw) {
			t.Errorf("the terminal got %q raw:\n%q", raw, out)
		}
	}
	for _, name := range []string{"pwned-1", "pwned-2", "pwned-3"} {
		if _, err := os.Stat(filepath.Join(work, name)); err == nil {
			t.Errorf("%s made, though every call was denied", name)
		}
	}
}

func mustJSONString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
