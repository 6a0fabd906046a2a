package main

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// rewindProject runs two prompts that write hello.txt and add notes.txt,
// and returns the global flags and the session id.
func rewindProject(t *testing.T, key string, global ...string) (base []string, work, id string) {
	t.Helper()
	isolateEnv(t)
	srv := &anthropicServer{replies: []string{
		toolReply("toolu_1", "write_file", `{"path":"hello.txt","content":"one"}`),
		textReply("Wrote one."),
		toolReply("toolu_2", "write_file", `{"path":"hello.txt","content":"two"}`),
		toolReply("toolu_3", "write_file", `{"path":"notes/n.txt","content":"new"}`),
		textReply("Wrote two."),
		textReply("After the fork."),
	}}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	t.Setenv("ANTHROPIC_BASE_URL", ts.URL)
	work = t.TempDir()
	base = append([]string{"--home", t.TempDir(), "--workdir", work}, global...)
	if key != "" {
		base = append(base, "--codec", codecXChaCha, "--key-env", "REWIND_KEY")
		t.Setenv("REWIND_KEY", key)
	}
	for i, prompt := range []string{"write one", "write two"} {
		args := append(base, "run", "--allow", "write_file", prompt)
		if i > 0 {
			args = append(base, "run", "--continue", "--allow", "write_file", prompt)
		}
		r := runCLI(t, args...)
		if r.code != 0 {
			t.Fatalf("run: %d %s", r.code, r.stderr)
		}
		id = strings.TrimPrefix(strings.TrimSpace(r.stderr[strings.LastIndex(r.stderr, "session "):]), "session ")
	}
	return base, work, id
}

func TestSessionsRestoreDryRunPrintsWhatTheRestoreDoes(t *testing.T) {
	base, work, id := rewindProject(t, "")
	testRestoreDryRun(t, base, work, id)
}

// Restore and fork work through the PostgreSQL store's checkpointer.
func TestSessionsRestoreAndForkInPostgreSQL(t *testing.T) {
	u := pgtest.URL(t)
	base, work, id := rewindProject(t, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "--store", u)
	if f := runCLI(t, append(base, "sessions", "fork", id, "--at", "0")...); f.code != 1 || !strings.Contains(f.stderr, "copies nothing") {
		t.Errorf("fork at 0: %d %q", f.code, f.stderr)
	}
	f := runCLI(t, append(base, "sessions", "fork", id)...)
	forked := strings.TrimSpace(f.stdout)
	if f.code != 0 || forked == "" || strings.Count(f.stdout, "\n") != 1 {
		t.Fatalf("fork: %d %q %q", f.code, f.stdout, f.stderr)
	}
	testRestoreDryRun(t, base, work, id)
	r := runCLI(t, append(base, "run", "--resume", forked, "go on")...)
	if r.code != 0 || r.stdout != "After the fork.\n" {
		t.Errorf("resume the fork: %d %q %s", r.code, r.stdout, r.stderr)
	}
}

func testRestoreDryRun(t *testing.T, base []string, work, id string) {
	t.Helper()
	r := runCLI(t, append(base, "sessions", "checkpoints", id, "--json")...)
	var cps []struct {
		Seq   int64    `json:"seq"`
		Files []string `json:"files"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &cps); err != nil || r.code != 0 || len(cps) != 2 {
		t.Fatalf("checkpoints: %d %q %s %v", r.code, r.stdout, r.stderr, err)
	}
	if text := runCLI(t, append(base, "sessions", "checkpoints", id)...); !strings.Contains(text.stdout, "write two") || !strings.Contains(text.stdout, "hello.txt, notes/n.txt") {
		t.Errorf("checkpoints table:\n%s", text.stdout)
	}
	to := cps[1].Seq
	dry := runCLI(t, append(base, "sessions", "restore", id, "--to", itoa(to), "--dry-run")...)
	want := "restore hello.txt\ndelete notes/n.txt\ndrop events " + itoa(to+1) + ".."
	if dry.code != 0 || !strings.HasPrefix(dry.stdout, want) || !strings.Contains(dry.stderr, "nothing was changed") {
		t.Fatalf("dry run: %d %q %q", dry.code, dry.stdout, dry.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(work, "hello.txt")); string(b) != "two" {
		t.Fatalf("the dry run changed hello.txt: %q", b)
	}
	real := runCLI(t, append(base, "sessions", "restore", id, "--to", itoa(to))...)
	if real.code != 0 || real.stdout != dry.stdout {
		t.Errorf("restore printed %q (%s), the dry run %q", real.stdout, real.stderr, dry.stdout)
	}
	if b, _ := os.ReadFile(filepath.Join(work, "hello.txt")); string(b) != "one" {
		t.Errorf("hello.txt = %q", b)
	}
	if _, err := os.Stat(filepath.Join(work, "notes", "n.txt")); !os.IsNotExist(err) {
		t.Errorf("notes/n.txt still there: %v", err)
	}
	if r := runCLI(t, append(base, "sessions", "checkpoints", id, "--json")...); strings.Count(r.stdout, `"seq"`) != 1 {
		t.Errorf("after restore: %s", r.stdout)
	}
}

func TestSessionsForkPrintsOnlyTheNewID(t *testing.T) {
	base, work, id := rewindProject(t, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef")
	f := runCLI(t, append(base, "sessions", "fork", id)...)
	forked := strings.TrimSpace(f.stdout)
	if f.code != 0 || forked == "" || forked == id || strings.Count(f.stdout, "\n") != 1 {
		t.Fatalf("fork: %d %q %q", f.code, f.stdout, f.stderr)
	}
	r := runCLI(t, append(base, "run", "--resume", forked, "go on")...)
	if r.code != 0 || r.stdout != "After the fork.\n" {
		t.Errorf("resume the fork: %d %q %s", r.code, r.stdout, r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(work, "hello.txt")); string(b) != "two" {
		t.Errorf("the fork changed hello.txt: %q", b)
	}
}

func TestSessionsRewindBadInput(t *testing.T) {
	isolateEnv(t)
	base := []string{"--home", t.TempDir(), "--workdir", t.TempDir()}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"sessions", "restore", "nope", "--to", "0"}, 1, "no session nope"},
		{[]string{"sessions", "checkpoints", "nope"}, 1, "no session nope"},
		{[]string{"sessions", "fork", "nope"}, 1, "no session nope"},
		{[]string{"sessions", "restore", "nope"}, 2, "--to"},
		{[]string{"sessions", "restore", "nope", "--to", "0", "--files-only", "--conversation-only"}, 2, "exclude"},
		{[]string{"sessions", "fork", "nope", "--at", "-1"}, 2, "negative"},
	} {
		r := runCLI(t, append(base, c.args...)...)
		if r.code != c.code || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: %d %q", c.args, r.code, r.stderr)
		}
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestChatRewindRestoresAfterAConfirmation(t *testing.T) {
	isolateEnv(t)
	srv := &anthropicServer{replies: []string{
		toolReply("toolu_1", "write_file", `{"path":"hello.txt","content":"one"}`),
		textReply("Wrote one."),
		toolReply("toolu_2", "write_file", `{"path":"hello.txt","content":"two"}`),
		textReply("Wrote two."),
		textReply("Fresh start."),
	}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	work := t.TempDir()
	var stdout, stderr strings.Builder
	// /rewind 2 declined, then /rewind with the choice asked, accepted.
	in := strings.NewReader("write one\nwrite two\n/rewind 2\nn\n/rewind\n2\ny\nagain\n")
	code := runWithInput(t.Context(), []string{"--home", t.TempDir(), "--workdir", work, "chat", "--allow", "write_file", "--base-url", ts.URL}, in, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("code %d stderr %s", code, stderr.String())
	}
	for _, want := range []string{"2) ", "write two", "restore hello.txt", "(rewind cancelled: nothing changed)", "Go back to before which prompt?", "(rewound: 1 file(s) restored"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	if b, _ := os.ReadFile(filepath.Join(work, "hello.txt")); string(b) != "one" {
		t.Errorf("hello.txt = %q", b)
	}
	// The prompt after the rewind continues from before "write two".
	srv.mu.Lock()
	msgs := srv.bodies[len(srv.bodies)-1]["messages"].([]any)
	srv.mu.Unlock()
	if len(msgs) != 5 {
		t.Errorf("the prompt after /rewind sent %d messages, want 5", len(msgs))
	}
}

// readmeSection returns the command lines of the code block of README
// section title, without comments and blank lines, and the section's
// text.
func readmeSection(t *testing.T, title string) (lines []string, text string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	start := strings.Index(s, "\n## "+title+"\n")
	if start < 0 {
		t.Fatalf("README.md has no %q section", title)
	}
	text = s[start+1:]
	if end := strings.Index(text, "\n## "); end >= 0 {
		text = text[:end]
	}
	in := false
	for _, l := range strings.Split(text, "\n") {
		switch l = strings.TrimSpace(l); {
		case strings.HasPrefix(l, "```"):
			in = !in
		case in && l != "" && !strings.HasPrefix(l, "#"):
			lines = append(lines, l)
		}
	}
	return lines, text
}

func TestRewindREADMERecipeWorksAsWritten(t *testing.T) {
	lines, text := readmeSection(t, "Rewinding a session")
	home := isolateEnv(t)
	srv := &anthropicServer{replies: []string{
		toolReply("toolu_1", "write_file", `{"path":"hello.txt","content":"hi"}`),
		textReply("Created it."),
		toolReply("toolu_2", "write_file", `{"path":"hello.txt","content":"bye"}`),
		textReply("Changed it."),
	}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	t.Setenv("ANTHROPIC_BASE_URL", ts.URL)
	workdir := filepath.Join(home, "project")
	if err := os.Mkdir(workdir, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Chdir(workdir)
	var dry, real, cat, fork string
	for _, line := range lines {
		if rest, ok := strings.CutPrefix(line, "lite-agent "); ok {
			args := strings.Fields(strings.ReplaceAll(rest, `"`, ""))
			if args[0] == "run" {
				// The prompt is one argument.
				i := slices.Index(args, "write_file") + 1
				args = append(args[:i], strings.Join(args[i:], " "))
			}
			r := runCLI(t, args...)
			if r.code != 0 {
				t.Fatalf("%s: exit %d\n%s%s", line, r.code, r.stdout, r.stderr)
			}
			switch {
			case strings.HasSuffix(line, "--dry-run"):
				dry = r.stdout
			case strings.Contains(line, " restore "):
				real = r.stdout
			case strings.Contains(line, " fork "):
				fork = r.stdout
			}
			continue
		}
		out, err := exec.Command("sh", "-c", line).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", line, err, out)
		}
		cat = string(out)
	}
	if dry == "" || dry != real || cat != "hi" || strings.Count(fork, "\n") != 1 {
		t.Errorf("dry run %q, restore %q, hello.txt %q, fork %q", dry, real, cat, fork)
	}
	// The README quotes the plan.
	plan := strings.Split(strings.TrimSpace(dry), "\n")
	if !strings.Contains(text, "(`"+strings.Join(plan, "`, `")+"`)") {
		t.Errorf("the README does not quote the plan %q", plan)
	}
}

// A session leased by another process (a run there) is refused, naming
// the holder, and nothing changes.
func TestSessionsRestoreOfASessionBusyElsewhere(t *testing.T) {
	u := pgtest.URL(t)
	base, work, id := rewindProject(t, "", "--store", u)
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: work, Storage: storage.Options{Home: base[1]}})
	if err != nil {
		t.Fatal(err)
	}
	st, err := postgres.Open(t.Context(), u, postgres.Options{Holder: "other-host"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := st.Project(storage.Encoding{Namespace: paths.Namespace, ProjectID: paths.Hash})
	if err != nil {
		t.Fatal(err)
	}
	lease, err := p.Acquire(t.Context(), id, postgres.LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer lease.Release(t.Context())
	r := runCLI(t, append(base, "sessions", "restore", id, "--to", "0")...)
	if r.code != 1 || !strings.Contains(r.stderr, "busy") || !strings.Contains(r.stderr, "other-host") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("restore of a leased session: %d %q", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(work, "hello.txt")); string(b) != "two" {
		t.Errorf("hello.txt = %q", b)
	}
}

// A session restored to before its first prompt keeps an empty log, and
// run --resume continues it: the check that the resumed session is still
// stored (ResumeStored) takes the empty log file for a stored session.
func TestRunResumeOfASessionRestoredToItsStart(t *testing.T) {
	base, _, id := rewindProject(t, "")
	if r := runCLI(t, append(base, "sessions", "restore", id, "--to", "0", "--conversation-only")...); r.code != 0 {
		t.Fatalf("restore to 0: %d %s", r.code, r.stderr)
	}
	r := runCLI(t, append(base, "run", "--resume", id, "go on")...)
	if r.code != 0 || r.stdout != "After the fork.\n" {
		t.Errorf("resume after a restore to 0: %d %q %s", r.code, r.stdout, r.stderr)
	}
}
