package main

import (
	"bufio"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeAPI starts an Anthropic server answering each request with the next
// of replies and points the CLI at it.
func fakeAPI(t *testing.T, replies ...string) *anthropicServer {
	t.Helper()
	srv := &anthropicServer{replies: replies}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	t.Setenv("ANTHROPIC_BASE_URL", ts.URL)
	return srv
}

// lastUserText returns the text of the last message of request i.
func (s *anthropicServer) lastUserText(t *testing.T, i int) string {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if i >= len(s.bodies) {
		t.Fatalf("%d requests, want more than %d", len(s.bodies), i)
	}
	msgs := s.bodies[i]["messages"].([]any)
	b, _ := json.Marshal(msgs[len(msgs)-1])
	return string(b)
}

func TestSessionFlagsSelectExactlyTheSessionAsked(t *testing.T) {
	isolateEnv(t)
	fakeAPI(t, textReply("first"), textReply("again"), textReply("chosen"), textReply("short"))
	home, work := t.TempDir(), t.TempDir()
	base := []string{"--home", home, "--workdir", work}
	sessionOf := func(r result) string {
		i := strings.LastIndex(r.stderr, "session ")
		if i < 0 {
			t.Fatalf("no session line in %q", r.stderr)
		}
		return strings.Fields(r.stderr[i:])[1]
	}

	first := runCLI(t, append(base, "run", "hello")...)
	if first.code != 0 {
		t.Fatalf("run: %d %s", first.code, first.stderr)
	}
	id := sessionOf(first)
	if r := runCLI(t, append(base, "run", "--resume", id, "more")...); r.code != 0 || sessionOf(r) != id || r.stdout != "again\n" {
		t.Errorf("--resume %s: code %d stdout %q stderr %q", id, r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, append(base, "run", "--session-id", "my-session", "new")...); r.code != 0 || sessionOf(r) != "my-session" {
		t.Errorf("--session-id: code %d stderr %q", r.code, r.stderr)
	}
	if r := runCLI(t, append(base, "run", "-r", "my-session", "x")...); r.code != 0 || sessionOf(r) != "my-session" {
		t.Errorf("-r: code %d stderr %q", r.code, r.stderr)
	}

	before := tree(t, home)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"resume of an unknown id", []string{"--resume", "nope"}, exitFailure, "lite-agent: no session nope\n"},
		{"resume shorthand of an unknown id", []string{"-r", "nope"}, exitFailure, "lite-agent: no session nope\n"},
		{"session id that exists", []string{"--session-id", "my-session"}, exitFailure, "already exists"},
		{"session id with resume", []string{"--session-id", "a", "--resume", id}, exitUsage, "mutually exclusive"},
		{"continue with resume", []string{"-c", "--resume", id}, exitUsage, "mutually exclusive"},
		{"invalid session id", []string{"--session-id", "../x"}, exitUsage, "invalid --session-id"},
		{"invalid output", []string{"--output", "xml"}, exitUsage, "invalid --output"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, append(append(base, "run"), append(tt.args, "prompt")...)...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("code %d stderr %q, want %d and %q", r.code, r.stderr, tt.code, tt.want)
			}
			wantOneErrorLine(t, r)
		})
	}
	if after := tree(t, home); strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Errorf("failed runs changed the home:\nbefore %q\nafter  %q", before, after)
	}
}

func TestRunReadsThePromptFromStandardInput(t *testing.T) {
	isolateEnv(t)
	srv := fakeAPI(t, textReply("read it"))
	base := []string{"--home", t.TempDir(), "--workdir", t.TempDir(), "run"}
	var stdout, stderr strings.Builder
	code := runWithInput(t.Context(), append(base, "-"), strings.NewReader("a prompt\nof two lines\n"), &stdout, &stderr)
	if code != 0 || stdout.String() != "read it\n" {
		t.Fatalf("code %d stdout %q stderr %q", code, stdout.String(), stderr.String())
	}
	if got := srv.lastUserText(t, 0); !strings.Contains(got, `a prompt\nof two lines`) {
		t.Errorf("request's prompt: %s", got)
	}
	stdout.Reset()
	stderr.Reset()
	if code := runWithInput(t.Context(), append(base, "-"), strings.NewReader(" \n"), &stdout, &stderr); code != exitUsage {
		t.Errorf("empty standard input: code %d stderr %q", code, stderr.String())
	}
}

func TestRunOutputFormats(t *testing.T) {
	isolateEnv(t)
	fakeAPI(t,
		toolReply("toolu_1", "write_file", `{"path":"a.txt","content":"x"}`), textReply("Done."),
		toolReply("toolu_2", "write_file", `{"path":"b.txt","content":"x"}`), textReply("Done again."),
	)
	base := []string{"--home", t.TempDir(), "--workdir", t.TempDir(), "run", "--allow", "write_file"}

	r := runCLI(t, append(base, "--output", "json", "write a")...)
	if r.code != 0 {
		t.Fatalf("json: code %d stderr %q", r.code, r.stderr)
	}
	var res runResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || strings.Count(r.stdout, "\n") != 1 {
		t.Fatalf("json output is not one object on one line: %v\n%s", err, r.stdout)
	}
	if res.Type != "result" || res.Text != "Done." || res.StopReason != "stop" || res.Turns != 2 || res.SessionID == "" || res.Usage.InputTokens != 20 {
		t.Errorf("json result %+v", res)
	}
	if strings.Contains(r.stderr, "→ write_file") {
		t.Errorf("json mode wrote activity to stderr: %q", r.stderr)
	}

	r = runCLI(t, append(base, "-o", "stream-json", "write b")...)
	if r.code != 0 {
		t.Fatalf("stream-json: code %d stderr %q", r.code, r.stderr)
	}
	var types []string
	var last map[string]any
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		types = append(types, ev["type"].(string))
		last = ev
		if ev["type"] == "tool_call_start" {
			call := ev["call"].(map[string]any)
			if call["name"] != "write_file" || call["id"] != "toolu_2" || call["input"].(map[string]any)["path"] != "b.txt" {
				t.Errorf("tool_call_start %v", ev)
			}
		}
	}
	joined := " " + strings.Join(types, " ") + " "
	for _, want := range []string{" turn_start ", " text_delta ", " message ", " tool_call_start ", " tool_result ", " permission_decision ", " done result "} {
		if !strings.Contains(joined, want) {
			t.Errorf("stream has no %q:%s", want, joined)
		}
	}
	if last["text"] != "Done again." || last["stopReason"] != "stop" {
		t.Errorf("last line %v", last)
	}
}

func TestVersionComesFromTheBuildInfo(t *testing.T) {
	r := runCLI(t, "--version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "lite-agent ") || !strings.Contains(r.stdout, " go1.") || strings.Count(r.stdout, "\n") != 1 {
		t.Errorf("code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
}

func TestTasksListJSONIsNeverNull(t *testing.T) {
	isolateEnv(t)
	home, work := t.TempDir(), t.TempDir()
	base := []string{"--home", home, "--workdir", work, "tasks", "list", "--json"}
	if r := runCLI(t, base...); r.code != 0 || r.stdout != "[]\n" {
		t.Errorf("no lists: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	paths := runCLI(t, "--home", home, "--workdir", work, "paths", "--json")
	var p struct{ TasksDir string }
	if err := json.Unmarshal([]byte(paths.stdout), &p); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(p.TasksDir, "empty"), 0o700); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, base...)
	if r.code != 0 || strings.Contains(r.stdout, "null") || !strings.Contains(r.stdout, `"tasks": []`) {
		t.Errorf("an empty list: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
}

// Without a terminal an ask is denied, the model is told nobody could
// approve, and stderr shows once how to allow the call.
func TestDenialsAreExplainedOnce(t *testing.T) {
	tests := []struct {
		name    string
		flags   []string
		rules   string
		toModel string
		hint    string
	}{
		{"no approver", nil, "", "Error: denied automatically", "hint: write_file needs approval, and only a terminal can give it; to allow it, pass --allow write_file"},
		{"--deny", []string{"--deny", "write_file"}, "", "Error: blocked by policy rule --deny write_file", "hint: write_file was denied by --deny write_file"},
		{"a user rule", []string{"--allow", "write_file"}, `{"id":"ro","tool":"write_file","effect":"deny"}`, "Error: blocked by policy rule user:ro", "hint: write_file was denied by the rule user:ro in "},
		// No flag or rule allows an opaque line: the hint must not offer one.
		{"an opaque bash line", []string{"--sandbox", "off"}, "", "Error: denied automatically", "hint: bash: the line cannot be fully analyzed, so no --allow flag or rule allows it"},
		{"an opaque bash line with --allow bash", []string{"--sandbox", "off", "--allow", "bash"}, "", "Error: denied automatically", "hint: bash: the line cannot be fully analyzed, so no --allow flag or rule allows it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolateEnv(t)
			first, second := toolReply("toolu_1", "write_file", `{"path":"a.txt","content":"1"}`), toolReply("toolu_2", "write_file", `{"path":"b.txt","content":"2"}`)
			if strings.HasPrefix(tt.name, "an opaque bash line") {
				first, second = toolReply("toolu_1", "bash", `{"command":"eval ls"}`), toolReply("toolu_2", "bash", `{"command":"eval pwd"}`)
			}
			srv := fakeAPI(t, first, second, textReply("gave up"))
			home := t.TempDir()
			if tt.rules != "" {
				os.WriteFile(filepath.Join(home, "permissions.json"), []byte(`{"version":1,"rules":[`+tt.rules+`]}`), 0o600)
			}
			devNull, err := os.Open(os.DevNull) // a character device, not a terminal
			if err != nil {
				t.Fatal(err)
			}
			defer devNull.Close()
			var stdout, stderr strings.Builder
			args := append([]string{"--home", home, "--workdir", t.TempDir(), "run"}, append(tt.flags, "write")...)
			if code := runWithInput(t.Context(), args, devNull, &stdout, &stderr); code != 0 {
				t.Fatalf("code %d stderr %q", code, stderr.String())
			}
			if got := srv.lastUserText(t, 1); !strings.Contains(got, tt.toModel) {
				t.Errorf("the model was told %s, want %q", got, tt.toModel)
			}
			if n := strings.Count(stderr.String(), "hint:"); n != 1 || !strings.Contains(stderr.String(), tt.hint) {
				t.Errorf("%d hints in %q, want one: %q", n, stderr.String(), tt.hint)
			}
		})
	}
}
