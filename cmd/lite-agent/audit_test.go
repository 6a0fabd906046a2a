package main

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunWritesAnAuditLogThatVerifies runs a tool-calling prompt with
// --audit-log (keyed, then continued without changing the key), checks
// that the log holds the run's events with the secret in the prompt
// redacted, and that audit verify accepts it with the key only, and names
// the record an edit breaks.
func TestRunWritesAnAuditLogThatVerifies(t *testing.T) {
	isolateEnv(t)
	srv := &anthropicServer{replies: []string{
		toolReply("toolu_1", "write_file", `{"path":"hello.txt","content":"hi"}`),
		textReply("Wrote it."),
		textReply("Again."),
	}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	t.Setenv("ANTHROPIC_BASE_URL", ts.URL)
	t.Setenv("AUDIT_KEY", strings.Repeat("ab", 32))
	home, work := t.TempDir(), t.TempDir()
	log := filepath.Join(t.TempDir(), "logs", "audit.jsonl")
	base := []string{"--home", home, "--workdir", work}
	secret := "sk-abcdefghijklmnopqrstuvwxyz0123"

	r := runCLI(t, append(base, "run", "--allow", "write_file", "--audit-log", log, "--audit-key-env", "AUDIT_KEY", "write hello.txt; the key is "+secret)...)
	if r.code != 0 {
		t.Fatalf("run: %d %s", r.code, r.stderr)
	}
	r = runCLI(t, append(base, "run", "--continue", "--audit-log", log, "--audit-key-env", "AUDIT_KEY", "again")...)
	if r.code != 0 {
		t.Fatalf("second run: %d %s", r.code, r.stderr)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte(secret)) {
		t.Error("the audit log holds the secret of the prompt")
	}
	var types []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var rec struct {
			Event struct{ Type string }
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		types = append(types, rec.Event.Type)
	}
	joined := strings.Join(types, " ")
	for _, want := range []string{"turn_start", "tool_call_start", "tool_result", "permission_decision", "done"} {
		if !strings.Contains(joined, want) {
			t.Errorf("the audit log has no %s event: %s", want, joined)
		}
	}
	if strings.Count(joined, "done") != 2 {
		t.Errorf("want the done events of both runs: %s", joined)
	}

	r = runCLI(t, "audit", "verify", log, "--key-env", "AUDIT_KEY")
	if r.code != 0 || !strings.Contains(r.stdout, "chain: intact") || !strings.Contains(r.stdout, "HMAC-SHA256") {
		t.Fatalf("verify: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, "audit", "verify", "--json", "--key-env", "AUDIT_KEY", log)
	var rep struct {
		Records int  `json:"records"`
		Start   bool `json:"start"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != 0 || rep.Records != len(types) || !rep.Start {
		t.Fatalf("verify --json: %d %q (%v)", r.code, r.stdout, err)
	}
	r = runCLI(t, "audit", "verify", log)
	if r.code != 1 || !strings.Contains(r.stderr, log+" line 1 (seq 1)") {
		t.Fatalf("verify without the key: %d %q %q", r.code, r.stdout, r.stderr)
	}
	wantOneErrorLine(t, result{code: r.code, stderr: r.stderr})

	lines := bytes.SplitAfter(b, []byte("\n"))
	lines[3] = bytes.Replace(lines[3], []byte(`"turn":1`), []byte(`"turn":2`), 1)
	os.WriteFile(log, bytes.Join(lines, nil), 0o600)
	r = runCLI(t, "audit", "verify", log, "--key-env", "AUDIT_KEY")
	if r.code != 1 || !strings.Contains(r.stdout, "BROKEN") || !strings.Contains(r.stderr, log+" line 4 (seq 4)") {
		t.Fatalf("verify of an edited log: %d %q %q", r.code, r.stdout, r.stderr)
	}
}

func TestAuditUsage(t *testing.T) {
	isolateEnv(t)
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	t.Setenv("SHORT_KEY", "abcd")
	log := filepath.Join(t.TempDir(), "audit.jsonl")
	os.WriteFile(log, nil, 0o600)
	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"audit alone", []string{"audit"}, 2, "verify"},
		{"unknown subcommand", []string{"audit", "check"}, 2, "verify"},
		{"verify without files", []string{"audit", "verify"}, 2, "files"},
		{"a missing file", []string{"audit", "verify", log + ".missing"}, 1, "no such file"},
		{"a short key", []string{"audit", "verify", "--key-env", "SHORT_KEY", log}, 1, "at least 16 bytes"},
		{"two keys", []string{"audit", "verify", "--key-env", "SHORT_KEY", "--key-file", "f", log}, 2, "mutually exclusive"},
		{"an empty key flag", []string{"audit", "verify", "--key-file=", log}, 2, "must not be empty"},
		{"key without log", []string{"--home", t.TempDir(), "--workdir", t.TempDir(), "run", "--audit-key-env", "X", "hi"}, 2, "--audit-log"},
		{"two audit keys", []string{"--home", t.TempDir(), "--workdir", t.TempDir(), "run", "--audit-log", log, "--audit-key-env", "X", "--audit-key-file", "f", "hi"}, 2, "mutually exclusive"},
		{"an unset key variable", []string{"--home", t.TempDir(), "--workdir", t.TempDir(), "run", "--audit-log", log, "--audit-key-env", "UNSET_AUDIT_KEY", "hi"}, 1, "UNSET_AUDIT_KEY"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, tc.args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.msg) {
				t.Fatalf("code %d stderr %q, want %d and %q", r.code, r.stderr, tc.code, tc.msg)
			}
			wantOneErrorLine(t, r)
		})
	}
}

func TestAuditVerifyOfAnEmptyLogSucceeds(t *testing.T) {
	log := filepath.Join(t.TempDir(), "audit.jsonl")
	os.WriteFile(log, nil, 0o600)
	r := runCLI(t, "audit", "verify", log)
	if r.code != 0 || !strings.Contains(r.stdout, "none intact") {
		t.Fatalf("%d %q %q", r.code, r.stdout, r.stderr)
	}
}

func TestChatWritesAnAuditLog(t *testing.T) {
	isolateEnv(t)
	srv := &anthropicServer{replies: []string{textReply("one"), textReply("two")}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	log := filepath.Join(t.TempDir(), "audit.jsonl")
	var stdout, stderr strings.Builder
	code := runWithInput(t.Context(), []string{"--home", t.TempDir(), "--workdir", t.TempDir(), "chat", "--base-url", ts.URL, "--audit-log", log}, strings.NewReader("first\nsecond\n"), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("chat: %d %q", code, stderr.String())
	}
	b, _ := os.ReadFile(log)
	if n := strings.Count(string(b), `"type":"done"`); n != 2 {
		t.Fatalf("%d done events in the audit log, want 2", n)
	}
	if r := runCLI(t, "audit", "verify", log); r.code != 0 {
		t.Fatalf("verify: %d %q %q", r.code, r.stdout, r.stderr)
	}
}

// A run whose audit log cannot be appended to (its last record was
// written under another key) still runs, says so at once and exits 1.
func TestRunFailsWhenTheAuditLogFails(t *testing.T) {
	isolateEnv(t)
	srv := &anthropicServer{replies: []string{textReply("one"), textReply("two")}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	t.Setenv("ANTHROPIC_BASE_URL", ts.URL)
	t.Setenv("AUDIT_KEY", strings.Repeat("ab", 16))
	log := filepath.Join(t.TempDir(), "audit.jsonl")
	base := []string{"--home", t.TempDir(), "--workdir", t.TempDir(), "run", "--audit-log", log}
	if r := runCLI(t, append(base, "--audit-key-env", "AUDIT_KEY", "first")...); r.code != 0 {
		t.Fatalf("first run: %d %q", r.code, r.stderr)
	}
	before, _ := os.ReadFile(log)
	r := runCLI(t, append(base, "second")...)
	if r.code != 1 || r.stdout != "two\n" || strings.Count(r.stderr, "audit log") != 2 || !strings.Contains(r.stderr, "another key") {
		t.Fatalf("second run: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if after, _ := os.ReadFile(log); !bytes.Equal(before, after) {
		t.Fatal("the failing audit log was changed")
	}
	// A log that cannot be opened (its directory is a file) stops the
	// run before it starts.
	r = runCLI(t, "--home", t.TempDir(), "--workdir", t.TempDir(), "run", "--audit-log", filepath.Join(log, "sub.jsonl"), "third")
	if r.code != 1 || !strings.Contains(r.stderr, "audit log") {
		t.Fatalf("a run with an audit log in a file: %d %q", r.code, r.stderr)
	}
	wantOneErrorLine(t, r)
}
