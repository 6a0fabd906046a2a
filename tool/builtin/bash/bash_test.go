package bash_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/lite-agent/lite-agent-go/tool/builtin/bash"
)

func newBash(t testing.TB, opts bash.Options) (tool.Tool, string) {
	t.Helper()
	if opts.Workdir == "" {
		opts.Workdir = t.TempDir()
	}
	b, err := bash.Tool(opts)
	if err != nil {
		t.Fatal(err)
	}
	return b, opts.Workdir
}

// fifo makes a named pipe in dir and returns its path.
func fifo(t testing.TB, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// readPID reads one process id from the named pipe p, blocking until the
// command writes it.
func readPID(t testing.TB, p string) int {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid %q: %v", b, err)
	}
	return pid
}

type callResult struct {
	res tool.Result
	err error
	at  time.Duration
}

// goCall runs tl in a goroutine and returns the channel its outcome
// arrives on.
func goCall(ctx context.Context, tl tool.Tool, input string) <-chan callResult {
	ch := make(chan callResult, 1)
	start := time.Now()
	go func() {
		res, err := tl.Call(ctx, nil, []byte(input))
		ch <- callResult{res, err, time.Since(start)}
	}()
	return ch
}

func TestBashResults(t *testing.T) {
	b, dir := newBash(t, bash.Options{Env: []string{"GREETING=hello there", "PATH=" + os.Getenv("PATH")}})
	tests := []struct {
		name, command, want string
		isErr               bool
	}{
		{"Output", "echo hi", "hi", false},
		{"StderrIsCombined", "echo out; echo err >&2", "out\nerr", false},
		{"Trimmed", "printf '\\n\\n  x  \\n\\n'", "x", false},
		{"NoOutput", "true", "(no output)", false},
		{"NoOutputFailure", "exit 3", "Error: command exited with code 3", true},
		{"OutputFailure", "echo partial; exit 2", "partial\n[exit code 2]", false},
		{"Signalled", "kill -SEGV $$", "Error: command killed by signal SIGSEGV", true},
		{"Workdir", "pwd", dir, false},
		{"Env", "echo $GREETING", "hello there", false},
		{"StdinIsEmpty", "cat", "(no output)", false},
		{"InvalidUTF8", "printf 'a\\377b'", "a\uFFFDb", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, b, map[string]any{"command": tt.command})
			if res.Content != tt.want || res.IsError != tt.isErr {
				t.Errorf("got %q (isError %t), want %q (isError %t)", res.Content, res.IsError, tt.want, tt.isErr)
			}
		})
	}
}

func TestBashInheritsTheEnvironmentByDefault(t *testing.T) {
	t.Setenv("BUILTIN_TEST_VAR", "inherited")
	b, _ := newBash(t, bash.Options{})
	if res := call(t, b, map[string]any{"command": "echo $BUILTIN_TEST_VAR"}); res.Content != "inherited" {
		t.Errorf("got %q", res.Content)
	}
	empty, _ := newBash(t, bash.Options{Env: []string{}})
	if res := call(t, empty, map[string]any{"command": "echo \"[$BUILTIN_TEST_VAR]\""}); res.Content != "[]" {
		t.Errorf("empty env: got %q", res.Content)
	}
}

func TestBashBlocksDangerousCommands(t *testing.T) {
	b, dir := newBash(t, bash.Options{})
	for _, c := range []string{
		"touch marker; rm -rf /",
		"touch marker; rm -rf /tmp/x",
		"touch marker && sudo ls",
		"touch marker; shutdown -h now",
		"touch marker; reboot",
		"touch marker; echo x > /dev/sda",
	} {
		res := call(t, b, map[string]any{"command": c})
		if res.Content != "Error: Dangerous command blocked" || !res.IsError {
			t.Errorf("%q: got %q", c, res.Content)
		}
		if _, err := os.Stat(filepath.Join(dir, "marker")); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%q ran", c)
		}
	}
	if res := call(t, b, map[string]any{"command": "echo rm -rf ./build"}); res.Content != "rm -rf ./build" {
		t.Errorf("a harmless command was blocked: %q", res.Content)
	}
}

func TestBashTimeoutKillsTheProcessGroup(t *testing.T) {
	b, dir := newBash(t, bash.Options{Timeout: 300 * time.Millisecond})
	pidPipe := fifo(t, dir, "pid")
	done := goCall(context.Background(), b, `{"command":"echo started; sleep 30 & echo $! > pid; wait"}`)
	pid := readPID(t, pidPipe)
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.res.Content != "Error: command timed out after 300ms\nstarted" || !r.res.IsError {
		t.Errorf("got %q", r.res.Content)
	}
	if r.at > 5*time.Second {
		t.Errorf("the call took %v", r.at)
	}
	processGone(t, pid)
}

func TestBashKillsWhatTheCommandLeftRunning(t *testing.T) {
	b, dir := newBash(t, bash.Options{})
	pidPipe := fifo(t, dir, "pid")
	// The sleep keeps the output pipe open; the call must still return.
	done := goCall(context.Background(), b, `{"command":"sleep 30 & echo $! > pid; echo leaving"}`)
	pid := readPID(t, pidPipe)
	r := <-done
	if r.err != nil || r.res.Content != "leaving" {
		t.Fatalf("got %q, %v", r.res.Content, r.err)
	}
	if r.at > 5*time.Second {
		t.Errorf("the call took %v", r.at)
	}
	processGone(t, pid)
}

func TestBashCancelKillsTheProcessGroup(t *testing.T) {
	b, dir := newBash(t, bash.Options{})
	pidPipe := fifo(t, dir, "pid")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := goCall(ctx, b, `{"command":"sleep 30 & echo $! > pid; wait"}`)
	pid := readPID(t, pidPipe)
	if !processAlive(pid) {
		t.Fatalf("the grandchild is not running before the cancel")
	}
	cancel()
	r := <-done
	if !errors.Is(r.err, context.Canceled) {
		t.Errorf("got %q, %v; want context.Canceled", r.res.Content, r.err)
	}
	processGone(t, pid)
}

func TestBashOutputCap(t *testing.T) {
	b, _ := newBash(t, bash.Options{MaxOutputBytes: 1000})
	start := time.Now()
	res := call(t, b, map[string]any{"command": "yes"})
	if res.Content != "Error: command output exceeded 1000 bytes" || !res.IsError {
		t.Errorf("got %q", res.Content)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
	// Exactly the cap is fine.
	res = call(t, b, map[string]any{"command": "head -c 1000 /dev/zero | tr '\\0' x"})
	if len(res.Content) != 1000 || res.IsError {
		t.Errorf("1000 bytes: got %d bytes, %q…", len(res.Content), res.Content[:min(len(res.Content), 60)])
	}
}

func TestBashOptionsAreValidated(t *testing.T) {
	for name, opts := range map[string]bash.Options{
		"RelativeWorkdir":  {Workdir: "x"},
		"NegativeTimeout":  {Workdir: "/", Timeout: -1},
		"NegativeMaxBytes": {Workdir: "/", MaxOutputBytes: -1},
		"MissingShell":     {Workdir: "/", Shell: "/nonexistent/sh"},
	} {
		if _, err := bash.Tool(opts); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := bash.NewBackground(bash.BackgroundOptions{BufferBytes: -1}); err == nil {
		t.Errorf("negative buffer: no error")
	}
}

func TestBashWithoutBackgroundRunsInTheForeground(t *testing.T) {
	b, _ := newBash(t, bash.Options{})
	if res := call(t, b, map[string]any{"command": "echo fg", "run_in_background": true}); res.Content != "fg" {
		t.Errorf("got %q", res.Content)
	}
	for _, tl := range bash.BackgroundTools(nil) {
		res := call(t, tl, map[string]any{"id": "bg_1_abcdef"})
		if res.Content != "Background tasks are disabled." || !res.IsError {
			t.Errorf("%s: got %q", tl.Name(), res.Content)
		}
	}
}

// bgEnv is a bash tool with a background registry whose completions are
// delivered on a channel.
type bgEnv struct {
	dir      string
	bg       *bash.Background
	bash     tool.Tool
	output   tool.Tool
	kill     tool.Tool
	finished chan bash.Completion
}

func newBgEnv(t *testing.T, opts bash.BackgroundOptions) *bgEnv {
	t.Helper()
	e := &bgEnv{dir: t.TempDir(), finished: make(chan bash.Completion, 16)}
	opts.OnExit = func(c bash.Completion) { e.finished <- c }
	bg, err := bash.NewBackground(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bg.Close() })
	e.bg = bg
	e.bash, _ = newBash(t, bash.Options{Workdir: e.dir, Background: bg})
	tools := bash.BackgroundTools(bg)
	e.kill, e.output = byName(t, tools, "KillBackground"), byName(t, tools, "BashOutput")
	return e
}

var startedRE = regexp.MustCompile(`^\[background:(bg_[0-9a-z]+_[0-9a-f]{6})\] started: (.*)\. Read output with BashOutput\(id: (bg_[0-9a-z]+_[0-9a-f]{6})\); stop it with KillBackground\(id: (bg_[0-9a-z]+_[0-9a-f]{6})\)\. You will be told when it ends\.$`)

// start starts command in the background and returns its id.
func (e *bgEnv) start(t *testing.T, command string) string {
	t.Helper()
	res := call(t, e.bash, map[string]any{"command": command, "run_in_background": true})
	m := startedRE.FindStringSubmatch(res.Content)
	if m == nil || m[2] != command || m[1] != m[3] || m[1] != m[4] {
		t.Fatalf("start %q: got %q", command, res.Content)
	}
	return m[1]
}

func (e *bgEnv) read(t *testing.T, id, filter string) string {
	t.Helper()
	input := map[string]any{"id": id}
	if filter != "" {
		input["filter"] = filter
	}
	res := call(t, e.output, input)
	if res.IsError {
		t.Fatalf("BashOutput %s: %s", id, res.Content)
	}
	return res.Content
}

// waitExit waits for the completion of id.
func (e *bgEnv) waitExit(t *testing.T, id string) bash.Completion {
	t.Helper()
	select {
	case c := <-e.finished:
		if c.ID != id {
			t.Fatalf("completion of %s, want %s", c.ID, id)
		}
		return c
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not finish", id)
		return bash.Completion{}
	}
}

func TestBackgroundStartAndExit(t *testing.T) {
	e := newBgEnv(t, bash.BackgroundOptions{})
	id := e.start(t, "echo one; echo two >&2; exit 4")
	c := e.waitExit(t, id)
	if c.ExitCode != 4 || c.Signal != "" || c.Content != "[exit 4] one\ntwo" || c.Command != "echo one; echo two >&2; exit 4" {
		t.Errorf("completion %+v", c)
	}
	if got := e.read(t, id, ""); got != "one\ntwo\n[process exited]" {
		t.Errorf("first read %q", got)
	}
	if got := e.read(t, id, ""); got != "(no new output)\n[process exited]" {
		t.Errorf("second read %q", got)
	}
	if res := call(t, e.kill, map[string]any{"id": id}); res.Content != "No running background task with id '"+id+"'." {
		t.Errorf("kill after exit: %q", res.Content)
	}
}

func TestBackgroundIDsAreDistinct(t *testing.T) {
	e := newBgEnv(t, bash.BackgroundOptions{})
	a, b := e.start(t, "true"), e.start(t, "true")
	if a == b || !strings.HasPrefix(a, "bg_1_") || !strings.HasPrefix(b, "bg_2_") {
		t.Errorf("ids %s and %s", a, b)
	}
}

func TestBackgroundReadsOnlyNewOutput(t *testing.T) {
	e := newBgEnv(t, bash.BackgroundOptions{})
	ctl := fifo(t, e.dir, "ctl")
	id := e.start(t, "echo first; read x < ctl; echo second")
	// Output reaches the ring through a goroutine; poll until it is there.
	var got string
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(got, "first") {
		if time.Now().After(deadline) {
			t.Fatalf("no output: %q", got)
		}
		if out := e.read(t, id, ""); out != "(no new output)" {
			got += out
		}
		time.Sleep(5 * time.Millisecond)
	}
	if got != "first\n" {
		t.Errorf("first read %q", got)
	}
	if out := e.read(t, id, ""); out != "(no new output)" {
		t.Errorf("read while waiting: %q", out)
	}
	if err := os.WriteFile(ctl, []byte("go\n"), 0); err != nil {
		t.Fatal(err)
	}
	e.waitExit(t, id)
	if out := e.read(t, id, ""); out != "second\n[process exited]" {
		t.Errorf("last read %q", out)
	}
}

func TestBackgroundFilter(t *testing.T) {
	e := newBgEnv(t, bash.BackgroundOptions{})
	id := e.start(t, `printf 'a1\nb2\na3\n'`)
	e.waitExit(t, id)
	if res := call(t, e.output, map[string]any{"id": id, "filter": "("}); !res.IsError || !strings.HasPrefix(res.Content, "Error: invalid filter: ") {
		t.Errorf("bad filter: %q", res.Content)
	}
	if got := e.read(t, id, "^a"); got != "a1\na3\n[process exited]" {
		t.Errorf("filtered %q", got)
	}
	id = e.start(t, `echo nothing matches`)
	e.waitExit(t, id)
	if got := e.read(t, id, "^zzz"); got != "(no new output)\n[process exited]" {
		t.Errorf("no match %q", got)
	}
}

func TestBackgroundRingDropsTheOldest(t *testing.T) {
	e := newBgEnv(t, bash.BackgroundOptions{BufferBytes: 101})
	// 300 two-byte characters, so the ring's cut lands inside one.
	id := e.start(t, `for i in $(seq 300); do printf 'é'; done; echo; echo last`)
	e.waitExit(t, id)
	got := e.read(t, id, "")
	if !strings.HasPrefix(got, "[…truncated]\n") || !strings.HasSuffix(got, "é\nlast\n[process exited]") {
		t.Errorf("got %q", got)
	}
	if strings.Contains(got, "\uFFFD") {
		t.Errorf("a character was split: %q", got)
	}
	body := strings.TrimSuffix(strings.TrimPrefix(got, "[…truncated]\n"), "\n[process exited]")
	if len(body) > 101 {
		t.Errorf("kept %d bytes", len(body))
	}
}

func TestKillBackgroundKillsTheProcessGroup(t *testing.T) {
	e := newBgEnv(t, bash.BackgroundOptions{})
	pidPipe := fifo(t, e.dir, "pid")
	id := e.start(t, "echo running; sleep 30 & echo $! > pid; wait")
	pid := readPID(t, pidPipe)
	if !processAlive(pid) {
		t.Fatal("the grandchild is not running")
	}
	if res := call(t, e.kill, map[string]any{"id": id}); res.Content != "Cancelled "+id+"." || res.IsError {
		t.Errorf("kill: %q", res.Content)
	}
	c := e.waitExit(t, id)
	if c.Signal != "SIGKILL" || c.ExitCode != -1 || c.Content != "[killed SIGKILL] running" {
		t.Errorf("completion %+v", c)
	}
	processGone(t, pid)
	if got := e.read(t, id, ""); got != "running\n[process exited]" {
		t.Errorf("output %q", got)
	}
	if res := call(t, e.kill, map[string]any{"id": id}); res.Content != "No running background task with id '"+id+"'." {
		t.Errorf("second kill: %q", res.Content)
	}
}

func TestBackgroundUnknownIDs(t *testing.T) {
	e := newBgEnv(t, bash.BackgroundOptions{})
	if res := call(t, e.output, map[string]any{"id": "bg_9_000000"}); res.Content != "No detached background task with id 'bg_9_000000'." || !res.IsError {
		t.Errorf("BashOutput: %q", res.Content)
	}
	if res := call(t, e.kill, map[string]any{"id": "bg_9_000000"}); res.Content != "No running background task with id 'bg_9_000000'." || !res.IsError {
		t.Errorf("KillBackground: %q", res.Content)
	}
}

func TestBackgroundCloseKillsEverything(t *testing.T) {
	e := newBgEnv(t, bash.BackgroundOptions{})
	var pids []int
	for i := range 3 {
		p := fifo(t, e.dir, fmt.Sprintf("pid%d", i))
		e.start(t, fmt.Sprintf("sleep 30 & echo $! > pid%d; wait", i))
		pids = append(pids, readPID(t, p))
	}
	start := time.Now()
	if err := e.bg.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Close took %v", d)
	}
	if len(e.finished) != 3 {
		t.Errorf("%d completions before Close returned", len(e.finished))
	}
	for _, pid := range pids {
		processGone(t, pid)
	}
	res := call(t, e.bash, map[string]any{"command": "true", "run_in_background": true})
	if res.Content != "Error: background tasks are closed" || !res.IsError {
		t.Errorf("start after Close: %q", res.Content)
	}
	if err := e.bg.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestBackgroundLimitAndTimeout(t *testing.T) {
	e := newBgEnv(t, bash.BackgroundOptions{MaxRunning: 1, Timeout: 200 * time.Millisecond})
	id := e.start(t, "echo slow; sleep 30")
	res := call(t, e.bash, map[string]any{"command": "true", "run_in_background": true})
	if res.Content != "Error: background task limit reached (1)" {
		t.Errorf("second start: %q", res.Content)
	}
	c := e.waitExit(t, id)
	if !c.TimedOut || c.Content != "[timed out after 200ms] slow" {
		t.Errorf("completion %+v", c)
	}
	// The slot is free again.
	e.waitExit(t, e.start(t, "true"))
}

func TestBackgroundToolsAreSafeForConcurrentUse(t *testing.T) {
	e := newBgEnv(t, bash.BackgroundOptions{MaxRunning: 8})
	var wg sync.WaitGroup
	ids := make(chan string, 8)
	for range 8 {
		wg.Go(func() { ids <- e.start(t, "for i in 1 2 3; do echo $i; done") })
	}
	wg.Wait()
	close(ids)
	for id := range ids {
		wg.Go(func() {
			for range 20 {
				call(t, e.output, map[string]any{"id": id})
			}
		})
	}
	wg.Wait()
	for range 8 {
		<-e.finished
	}
}

func TestCompletionMessageSaysHowTheCommandEnded(t *testing.T) {
	long := "make all && " + strings.Repeat("x", 100)
	tests := []struct {
		c    bash.Completion
		want string
	}{
		{bash.Completion{ID: "bg_1_aa", Command: "make", ExitCode: 0, Content: "[exit 0] ok"},
			"<background-task-completed id=\"bg_1_aa\" label=\"bash: make\">\n[exit 0] ok\n</background-task-completed>"},
		{bash.Completion{ID: "bg_2_bb", Command: `echo "hi"`, ExitCode: 2, Content: "[exit 2] no"},
			"<background-task-completed id=\"bg_2_bb\" label=\"bash: echo 'hi'\" status=\"error\">\n[exit 2] no\n</background-task-completed>"},
		{bash.Completion{ID: "bg_3_cc", Command: "sleep 9", ExitCode: -1, Signal: "SIGKILL", Killed: true, Content: "[killed SIGKILL] "},
			"<background-task-completed id=\"bg_3_cc\" label=\"bash: sleep 9\" status=\"cancelled\">\n[killed SIGKILL] \n</background-task-completed>"},
		{bash.Completion{ID: "bg_4_dd", Command: "a\nb", ExitCode: -1, Signal: "SIGKILL", TimedOut: true, Killed: true, Content: "[timed out after 5ms] "},
			"<background-task-completed id=\"bg_4_dd\" label=\"bash: a…\" status=\"error\">\n[timed out after 5ms] \n</background-task-completed>"},
		{bash.Completion{ID: "bg_5_ee", Command: long, Content: "[exit 0] "},
			"<background-task-completed id=\"bg_5_ee\" label=\"bash: " + long[:80] + "…\">\n[exit 0] \n</background-task-completed>"},
		{bash.Completion{ID: "bg_6_ff", Command: "./crash", ExitCode: -1, Signal: "SIGSEGV", Content: "[killed SIGSEGV] "},
			"<background-task-completed id=\"bg_6_ff\" label=\"bash: ./crash\" status=\"error\">\n[killed SIGSEGV] \n</background-task-completed>"},
	}
	for _, tt := range tests {
		if got := tt.c.Message(); got != tt.want {
			t.Errorf("Message() =\n%q\nwant\n%q", got, tt.want)
		}
	}
}

// Without OnExit nobody is told when a command ends, and the bash result
// promises nothing; with it, the Completion names the call's session.
func TestBackgroundNoticeFollowsOnExit(t *testing.T) {
	bg, err := bash.NewBackground(bash.BackgroundOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer bg.Close()
	bt, _ := newBash(t, bash.Options{Background: bg})
	res, err := bt.Call(t.Context(), nil, json.RawMessage(`{"command":"true","run_in_background":true}`))
	if err != nil || strings.Contains(res.Content, "You will be told") || !strings.HasSuffix(res.Content, ").") {
		t.Errorf("result %q, %v", res.Content, err)
	}

	done := make(chan bash.Completion, 1)
	bg2, err := bash.NewBackground(bash.BackgroundOptions{OnExit: func(c bash.Completion) { done <- c }})
	if err != nil {
		t.Fatal(err)
	}
	defer bg2.Close()
	bash2, _ := newBash(t, bash.Options{Background: bg2})
	if _, err := bash2.Call(t.Context(), &tool.Call{SessionID: "sess-1"}, json.RawMessage(`{"command":"true","run_in_background":true}`)); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-done:
		if c.SessionID != "sess-1" {
			t.Errorf("completion session %q", c.SessionID)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no completion")
	}
}

// KillSession kills the commands one session started, and only those; their
// completions say they were killed on request.
func TestKillSessionKillsThatSessionsCommands(t *testing.T) {
	done := make(chan bash.Completion, 4)
	bg, err := bash.NewBackground(bash.BackgroundOptions{OnExit: func(c bash.Completion) { done <- c }})
	if err != nil {
		t.Fatal(err)
	}
	defer bg.Close()
	bt, _ := newBash(t, bash.Options{Background: bg})
	for _, s := range []string{"a", "a", "b"} {
		if _, err := bt.Call(t.Context(), &tool.Call{SessionID: s}, json.RawMessage(`{"command":"sleep 30","run_in_background":true}`)); err != nil {
			t.Fatal(err)
		}
	}
	if killed := bg.KillSession("a"); len(killed) != 2 {
		t.Fatalf("killed %v", killed)
	}
	for range 2 {
		select {
		case c := <-done:
			if c.SessionID != "a" || !c.Killed || !strings.Contains(c.Message(), `status="cancelled"`) {
				t.Errorf("completion %+v", c)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no completion")
		}
	}
	select {
	case c := <-done:
		t.Errorf("session b's command ended too: %+v", c)
	case <-time.After(200 * time.Millisecond):
	}
	if got := bg.KillSession(""); got != nil {
		t.Errorf("KillSession(\"\") = %v", got)
	}
}

// A command whose completion is being reported (OnExit has not returned)
// is no longer running but still unreported: a caller that keeps a
// session's state while its commands may still deliver (the agent's
// sweep of the sessions it left) counts it until the report is over.
func TestBackgroundUnreportedUntilOnExitReturns(t *testing.T) {
	inExit, release := make(chan struct{}), make(chan struct{})
	bg, err := bash.NewBackground(bash.BackgroundOptions{OnExit: func(c bash.Completion) {
		close(inExit)
		<-release
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer bg.Close()
	bt, _ := newBash(t, bash.Options{Background: bg})
	if _, err := bt.Call(t.Context(), &tool.Call{SessionID: "s"}, json.RawMessage(`{"command":"true","run_in_background":true}`)); err != nil {
		t.Fatal(err)
	}
	<-inExit
	if r, u := bg.Running("s"), bg.Unreported("s"); len(r) != 0 || u != 1 {
		t.Errorf("while OnExit runs: Running %v, Unreported %d; want none, 1", r, u)
	}
	close(release)
	deadline := time.Now().Add(10 * time.Second)
	for bg.Unreported("s") != 0 {
		if time.Now().After(deadline) {
			t.Fatal("still unreported 10 s after OnExit returned")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if n := bg.Unreported(""); n != 0 {
		t.Errorf("Unreported(\"\") = %d", n)
	}
}
