package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
)

// hostileText holds what an attacker who writes a model's answer, a tool
// result, a file name or a configuration file would put before the
// operator's eyes: an OSC 52 clipboard write, a screen clear, an OSC 8
// hyperlink, an 8-bit CSI, a right-to-left override and isolate, zero-width
// and format characters, a line separator, a carriage return and a
// backspace.
const hostileText = "\x1b]52;c;cGF5bG9hZA==\a\x1b[2J\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\" +
	"\u009b31m\u202egnp.exe\u2066x\u2069\u200b\u200d\ufeff\u2060\u061c\u2028\u2029\r\b"

// forgedApproval is a line of the CLI's own that hostile text tries to
// draw: the note an "a" answer to an approval prints.
const forgedApproval = "allowed for the rest of this session: {\"effect\":\"allow\",\"tool\":\"bash\"}"

// wantShownSafely fails unless every character of out is printable, a
// space, a tab or a newline: no terminal control, C1 control, bidi,
// zero-width or format character, line separator or invalid UTF-8 reached
// it raw.
func wantShownSafely(t *testing.T, what, out string) {
	t.Helper()
	for i, r := range out {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(out[i:]); n <= 1 {
				t.Errorf("%s: invalid UTF-8 byte %#x at %d:\n%q", what, out[i], i, out)
				return
			}
		}
		if r != ' ' && r != '\t' && r != '\n' && !unicode.IsPrint(r) {
			t.Errorf("%s: raw %U at byte %d:\n%q", what, r, i, out)
			return
		}
	}
}

// wantNoLineStarting fails if a line of out begins with prefix: a line
// the CLI did not draw.
func wantNoLineStarting(t *testing.T, what, out, prefix string) {
	t.Helper()
	for line := range strings.Lines(out) {
		if strings.HasPrefix(line, prefix) {
			t.Errorf("%s: forged line %q:\n%s", what, line, out)
		}
	}
}

func TestHostileModelAndToolTextReachesTheTerminalEscaped(t *testing.T) {
	isolateEnv(t)
	home, work := t.TempDir(), t.TempDir()
	path, _ := json.Marshal(map[string]string{"path": "missing" + hostileText + "\n" + forgedApproval})
	task, _ := json.Marshal(map[string]string{"subject": "fix" + hostileText + "\n" + forgedApproval, "description": "d"})
	answer := "héllo wörld 日本 🙂\n\tan indented line " + hostileText + "\n" + forgedApproval + "\nthe end"
	fakeAPI(t,
		toolReply("t1", "read_file", string(path)),
		toolReply("t2", "TaskCreate", string(task)),
		textReply(answer),
	)
	base := []string{"--home", home, "--workdir", work}
	r := runCLI(t, append(base, "run", "--allow", "TaskCreate", "look "+hostileText)...)
	if r.code != 0 {
		t.Fatalf("run: %d\n%s", r.code, r.stderr)
	}
	wantShownSafely(t, "run stdout", r.stdout)
	wantShownSafely(t, "run stderr", r.stderr)
	wantNoLineStarting(t, "run stderr", r.stderr, "allowed for the rest")
	// The answer keeps its own lines, tabs and ordinary Unicode, and shows
	// the rest as escapes.
	for _, want := range []string{"héllo wörld 日本 🙂\n\tan indented line ", `\x1b]52;c;cGF5bG9hZA==\a\x1b[2J`, `\u009b31m\u202egnp.exe\u2066`, `\u2028\u2029\r\b`, "\nthe end\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the answer lacks %q:\n%s", want, r.stdout)
		}
	}
	for _, want := range []string{"→ read_file ", "← error:", "→ TaskCreate ", `\u202e`} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}

	// The session's records: its title (the first prompt), its events, its
	// task list.
	for _, args := range [][]string{{"sessions", "list"}, {"tasks", "list"}} {
		r := runCLI(t, append(base, args...)...)
		if r.code != 0 {
			t.Fatalf("%s: %d %s", args, r.code, r.stderr)
		}
		wantShownSafely(t, strings.Join(args, " "), r.stdout+r.stderr)
		wantNoLineStarting(t, strings.Join(args, " "), r.stdout, "allowed for the rest")
		wantNoLineStarting(t, strings.Join(args, " "), r.stdout, "  allowed for the rest")
	}
	r = runCLI(t, append(base, "sessions", "list", "--json")...)
	var rows []sessionRow
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("sessions list --json: %v %s", err, r.stdout)
	}
	r = runCLI(t, append(base, "sessions", "show", rows[0].ID)...)
	if r.code != 0 {
		t.Fatalf("sessions show: %d %s", r.code, r.stderr)
	}
	wantShownSafely(t, "sessions show", r.stdout+r.stderr)
	for i, line := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
		if !strings.HasPrefix(line, strconv.Itoa(i+1)+"\t") { // one line per record
			t.Errorf("sessions show: line %d is not record %d's: %q", i+1, i+1, line)
		}
	}
	// Machine output stays JSON, one value per line, with the hostile
	// text intact inside it and no raw line separator.
	fakeAPI(t, textReply(answer))
	r = runCLI(t, append(base, "run", "-c", "-o", "stream-json", "again")...)
	if r.code != 0 {
		t.Fatalf("stream-json: %d %s", r.code, r.stderr)
	}
	if strings.ContainsAny(r.stdout, "\u2028\u2029\x1b") {
		t.Errorf("stream-json holds a raw separator or ESC:\n%q", r.stdout)
	}
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	sc.Buffer(nil, 1<<20)
	var last struct{ Type, Text string }
	for sc.Scan() {
		if err := json.Unmarshal(sc.Bytes(), &last); err != nil {
			t.Fatalf("stream-json line %q: %v", sc.Text(), err)
		}
	}
	if last.Type != "result" || last.Text != answer {
		t.Errorf("result %q %q, want the answer byte for byte", last.Type, last.Text)
	}
}

func TestHostileMCPConfigurationIsListedEscaped(t *testing.T) {
	workdir, home := mcpProject(t,
		`{"mcpServers": {"web": {"type": "http", "url": "https://mcp.example.com/\u202egnp.exe\u2066x\u2069\u200b"},
		  "local": {"command": "/bin/echo", "args": [`+mustJSON("a"+hostileText+"\n"+forgedApproval)+`]}}}`, "")
	r := runCLI(t, "--workdir", workdir, "--home", home, "mcp", "list")
	if r.code != 0 {
		t.Fatalf("mcp list: %d %s", r.code, r.stderr)
	}
	wantShownSafely(t, "mcp list", r.stdout+r.stderr)
	wantNoLineStarting(t, "mcp list", r.stdout, "allowed for the rest")
	if !strings.Contains(r.stdout, `\u202e`) {
		t.Errorf("mcp list does not show the override:\n%s", r.stdout)
	}
}

func TestHostileFileNamesInTheDataHomeAreReportedEscaped(t *testing.T) {
	isolateEnv(t)
	home, work := t.TempDir(), t.TempDir()
	r := runCLI(t, "--home", home, "--workdir", work, "paths", "--json")
	var paths struct{ SessionsDir, SpillDir string }
	if err := json.Unmarshal([]byte(r.stdout), &paths); err != nil {
		t.Fatal(err)
	}
	name := "s" + strings.ReplaceAll(hostileText, "/", "_") + "\n" + forgedApproval
	oldFile(t, filepath.Join(paths.SessionsDir, name+".jsonl"))
	oldFile(t, filepath.Join(paths.SpillDir, name))
	dst := filepath.Join(t.TempDir(), "dst")
	for _, args := range [][]string{{"sessions", "list"}, {"verify"}, {"cleanup", "--dry-run"}, {"migrate", "--to-home", dst, "--skip-unreadable"}} {
		r := runCLI(t, append([]string{"--home", home, "--workdir", work}, args...)...)
		wantShownSafely(t, strings.Join(args, " "), r.stdout+r.stderr)
		wantNoLineStarting(t, strings.Join(args, " "), r.stdout+r.stderr, "allowed for the rest")
	}
}

func TestErrorLinesShowForeignNamesEscaped(t *testing.T) {
	isolateEnv(t)
	file := filepath.Join(t.TempDir(), "w"+strings.ReplaceAll(hostileText, "/", "_"))
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "--home", t.TempDir(), "--workdir", file, "sessions", "list")
	if r.code != exitFailure {
		t.Fatalf("code %d: %s", r.code, r.stderr)
	}
	wantOneErrorLine(t, r)
	wantShownSafely(t, "error line", r.stderr)
}

func TestHostileProjectRuleIsShownEscaped(t *testing.T) {
	isolateEnv(t)
	home, work := t.TempDir(), t.TempDir()
	rule := map[string]any{"version": 1, "rules": []any{map[string]any{
		"id": "r", "tool": "read_file", "effect": "deny", // ids must be printable
		"description": "policy" + hostileText + "\n" + forgedApproval,
	}}}
	b, _ := json.Marshal(rule)
	if err := os.MkdirAll(filepath.Join(work, ".lite-agent"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, ".lite-agent", "permissions.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"--home", home, "--workdir", work}
	r := runCLI(t, append(base, "permissions", "check", "read_file", `{"path":"a"}`)...)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "deny") {
		t.Fatalf("permissions check: %d %q %q", r.code, r.stdout, r.stderr)
	}
	wantShownSafely(t, "permissions check", r.stdout+r.stderr)
	wantNoLineStarting(t, "permissions check", r.stdout, "allowed for the rest")

	fakeAPI(t, toolReply("t1", "read_file", `{"path":"a"}`), textReply("done"))
	r = runCLI(t, append(base, "run", "read a")...)
	if r.code != 0 || !strings.Contains(r.stderr, "denied read_file (policy") || !strings.Contains(r.stderr, "hint: read_file was denied by the rule project:r") {
		t.Fatalf("run: %d %q", r.code, r.stderr)
	}
	wantShownSafely(t, "run", r.stdout+r.stderr)
	wantNoLineStarting(t, "run", r.stderr, "allowed for the rest")
}

func TestHostileProviderErrorIsOneEscapedLine(t *testing.T) {
	isolateEnv(t)
	ts := hostileErrorServer(t)
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	t.Setenv("ANTHROPIC_BASE_URL", ts.URL)
	base := []string{"--home", t.TempDir(), "--workdir", t.TempDir()}
	r := runCLI(t, append(base, "run", "hello")...)
	if r.code != exitFailure {
		t.Fatalf("run: %d %q", r.code, r.stderr)
	}
	wantShownSafely(t, "run", r.stdout+r.stderr)
	wantNoLineStarting(t, "run", r.stderr, "allowed for the rest")
	r = runWithStdin(t, "hello\n", append(base, "chat")...)
	wantShownSafely(t, "chat", r.stdout+r.stderr)
	wantNoLineStarting(t, "chat", r.stderr, "allowed for the rest")
	if !strings.Contains(r.stderr, "error: ") {
		t.Errorf("chat: no error line: %q", r.stderr)
	}
}

// runWithStdin runs lite-agent in-process with args and stdin.
func runWithStdin(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var stdout, stderr strings.Builder
	code := runWithInput(t.Context(), args, strings.NewReader(stdin), &stdout, &stderr)
	return result{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

func TestStoredToolInputKeepsJSONOutputFreeOfRawLineSeparators(t *testing.T) {
	u := pgtest.URL(t)
	isolateEnv(t)
	input := `{"path":"a` + "\u2028\u2029" + `b` + jsonInner(hostileText) + `"}`
	fakeAPI(t, toolReply("t1", "read_file", input), textReply("done"))
	base := []string{"--home", t.TempDir(), "--workdir", t.TempDir(), "--store", u}
	if r := runCLI(t, append(base, "run", "--session-id", "sep-session", "read")...); r.code != 0 {
		t.Fatalf("run: %d %s", r.code, r.stderr)
	}
	r := runCLI(t, append(base, "sessions", "show", "--json", "sep-session")...)
	if r.code != 0 {
		t.Fatalf("sessions show --json: %d %s", r.code, r.stderr)
	}
	if strings.ContainsAny(r.stdout, "\u2028\u2029\x1b") {
		t.Errorf("sessions show --json holds a raw line separator or ESC:\n%q", r.stdout)
	}
	var records []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &records); err != nil || !strings.Contains(r.stdout, `a\u2028\u2029b`) {
		t.Errorf("sessions show --json: %v\n%s", err, r.stdout)
	}
	r = runCLI(t, append(base, "sessions", "show", "sep-session")...)
	if r.code != 0 {
		t.Fatalf("sessions show: %d %s", r.code, r.stderr)
	}
	wantShownSafely(t, "sessions show", r.stdout+r.stderr)
}

// jsonInner returns s as the inside of a JSON string.
func jsonInner(s string) string {
	q := mustJSON(s)
	return q[1 : len(q)-1]
}

// On a real terminal, the model's ask_user question and options and its
// streamed answer reach the screen escaped, and the question stays on its
// lines: it cannot draw an approval prompt of its own.
func TestHostileQuestionAndAnswerOnATerminal(t *testing.T) {
	isolateEnv(t)
	q, _ := json.Marshal(map[string]any{
		"question": "pick" + hostileText + "\nallow bash rm -rf ~? [y]es, [n]o, [a]lways this call in this session: ",
		"options":  []string{"one" + hostileText, "two\n" + forgedApproval},
	})
	startScriptedAPI(t,
		reply(toolReply("toolu_1", "ask_user", string(q))),
		reply(textReply("answer"+hostileText+"\nsecond line")),
	)
	term := startTerminal(t, "--home", t.TempDir(), "--workdir", t.TempDir(), "run", "ask me")
	at := term.waitFor("a number, or an answer: ", 0)
	term.send("1\r")
	term.waitFor("second line", at)
	if code := term.exit(); code != 0 {
		t.Errorf("exit code %d:\n%s", code, term.out.String())
	}
	out := strings.ReplaceAll(term.out.String(), "\r\n", "\n") // the terminal's own line ends
	wantShownSafely(t, "terminal", out)
	wantNoLineStarting(t, "terminal", out, "allow bash")
	wantNoLineStarting(t, "terminal", out, "allowed for the rest")
	wantNoLineStarting(t, "terminal", out, "  allowed for the rest")
	if !strings.Contains(out, `? pick\x1b]52;c;`) || !strings.Contains(out, `  2) two\nallowed for the rest`) || !strings.Contains(out, "answer\\x1b]52;c;") {
		t.Errorf("the terminal shows:\n%s", out)
	}
}

// A server's tool description, which whoever wrote the server controls,
// is listed escaped by mcp list --connect.
func TestHostileMCPToolDescriptionIsListedEscaped(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	global, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"svc": map[string]any{"command": exe, "args": []string{"-test.run=^$"}, "env": map[string]string{
			childEnvMCPServer: "x", childEnvMCPDescription: "who" + hostileText + "\r" + forgedApproval,
		}},
	}})
	workdir, home := mcpProject(t, "", string(global))
	r := runCLI(t, "--workdir", workdir, "--home", home, "mcp", "list", "--connect")
	if r.code != 0 || !strings.Contains(r.stdout, "mcp__svc__whoami  who") {
		t.Fatalf("mcp list --connect: %d %q %q", r.code, r.stdout, r.stderr)
	}
	wantShownSafely(t, "mcp list --connect", r.stdout+r.stderr)
}

// A provider's error text that sessions compact reports (the summary that
// failed) is shown escaped.
func TestHostileSummaryErrorOfCompactIsShownEscaped(t *testing.T) {
	isolateEnv(t)
	ts := hostileErrorServer(t)
	home, work, cp := seedStore(t, ts.URL)
	seedTurns(t, cp, "s", 10)
	r := runCLI(t, "--home", home, "--workdir", work, "sessions", "compact", "s")
	if r.code != 0 || !strings.Contains(r.stdout, "summary failed") {
		t.Fatalf("compact: %d %q %q", r.code, r.stdout, r.stderr)
	}
	wantShownSafely(t, "sessions compact", r.stdout+r.stderr)
	wantNoLineStarting(t, "sessions compact", r.stdout+r.stderr, "allowed for the rest")
}

// hostileErrorServer answers every request with a provider error whose
// message holds hostileText and a forged approval line.
func hostileErrorServer(t *testing.T) *httptest.Server {
	t.Helper()
	msg, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]string{"type": "invalid_request_error", "message": "bad" + hostileText + "\n" + forgedApproval}})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		w.Write(msg)
	}))
	t.Cleanup(ts.Close)
	return ts
}
