package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/lite-agent/lite-agent-go/task"
)

func TestStoreURLsAreCheckedAndNeverShowTheirPassword(t *testing.T) {
	isolateEnv(t)
	home := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		env  string
		code int
		want string
	}{
		{"another scheme", []string{"--store", "mysql://u:sekret@db/x", "sessions", "list"}, "", exitUsage, "postgres:// or postgresql://"},
		{"empty", []string{"--store", " ", "sessions", "list"}, "", exitUsage, "--store must not be empty"},
		{"not a URL", []string{"--store", "postgres://u:sekret@db:port/x", "sessions", "list"}, "", exitFailure, "invalid"},
		{"bad environment", []string{"sessions", "list"}, "http://u:sekret@db/x", exitFailure, "$" + storeEnv},
		// A custom namespace ignores LITE_AGENT_STORE: the files are listed.
		{"custom namespace", []string{"--namespace", "acme", "sessions", "list"}, "http://u:sekret@db/x", exitOK, ""},
		{"unreachable", []string{"--store", "postgres://u:sekret@127.0.0.1:1/agents?connect_timeout=5", "sessions", "list"}, "", exitFailure, "127.0.0.1:1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(storeEnv, tc.env)
			r := runCLI(t, append([]string{"--home", home, "--workdir", t.TempDir()}, tc.args...)...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, want %d; stderr %q, want %q in it", r.code, tc.code, r.stderr, tc.want)
			}
			if strings.Contains(r.stderr+r.stdout, "sekret") {
				t.Errorf("the password is shown: %q", r.stderr)
			}
		})
	}
}

func TestRunWithAStoreWritesNothingIntoTheHome(t *testing.T) {
	u := pgtest.URL(t)
	isolateEnv(t)
	fakeAPI(t, textReply("stored answer"), textReply("again"))
	home, work := t.TempDir(), t.TempDir()
	base := []string{"--home", home, "--workdir", work, "--store", u}

	r := runCLI(t, append(base, "run", "--session-id", "db-session", "hello database")...)
	if r.code != 0 || r.stdout != "stored answer\n" {
		t.Fatalf("run: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, append(base, "run", "--resume", "db-session", "more")...); r.code != 0 {
		t.Fatalf("run --resume: %d %q", r.code, r.stderr)
	}
	if got := tree(t, home); len(got) > 1 {
		t.Errorf("the data home was written: %v", got)
	}

	r = runCLI(t, append(base, "sessions", "list", "--json")...)
	var rows []sessionRow
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || len(rows) != 1 || rows[0].ID != "db-session" || rows[0].Records != 4 {
		t.Errorf("sessions list: %v %s %s", err, r.stdout, r.stderr)
	}
	r = runCLI(t, append(base, "sessions", "show", "db-session")...)
	if r.code != 0 || !strings.Contains(r.stdout, "user\thello database") || !strings.Contains(r.stdout, "assistant\tagain") {
		t.Errorf("sessions show: %d %s %s", r.code, r.stdout, r.stderr)
	}
	// The file home of the same project knows nothing of it.
	if r := runCLI(t, "--home", home, "--workdir", work, "sessions", "show", "db-session"); r.code != exitFailure {
		t.Errorf("the session is in the files too: %d %s", r.code, r.stdout)
	}
	if r := runCLI(t, append(base, "sessions", "delete", "db-session")...); r.code != 0 {
		t.Errorf("sessions delete: %d %s", r.code, r.stderr)
	}
	if r := runCLI(t, append(base, "sessions", "show", "db-session")...); r.code != exitFailure || !strings.Contains(r.stderr, "db-session") {
		t.Errorf("show after delete: %d %s", r.code, r.stderr)
	}
}

func TestTheStoreEnvironmentVariableServesTheDefaultNamespace(t *testing.T) {
	u := pgtest.URL(t)
	isolateEnv(t)
	fakeAPI(t, textReply("via env"))
	t.Setenv(storeEnv, u)
	home, work := t.TempDir(), t.TempDir()
	if r := runCLI(t, "--home", home, "--workdir", work, "run", "--session-id", "env-session", "hi"); r.code != 0 {
		t.Fatalf("run: %d %s", r.code, r.stderr)
	}
	if got := tree(t, home); len(got) > 1 {
		t.Errorf("the data home was written: %v", got)
	}
	st, err := postgres.Open(t.Context(), u, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: work, Storage: storage.Options{Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	cp, err := st.Checkpointer(t.Context(), storage.Encoding{Namespace: storage.DefaultNamespace, ProjectID: p.Hash})
	if err != nil {
		t.Fatal(err)
	}
	if head, err := cp.Head(t.Context(), "env-session"); err != nil || head != 2 {
		t.Errorf("head in the database %d %v", head, err)
	}
}

// gatedAPI is an Anthropic server that answers one request at a time and
// holds each answer until release is closed (or a timeout), recording
// whether two requests were ever in flight at once.
type gatedAPI struct {
	release chan struct{}

	mu          sync.Mutex
	inFlight    int
	overlapped  bool
	requests    int
	lastPrompts []string
}

func (g *gatedAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var body struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	json.Unmarshal(b, &body)
	prompt := ""
	if n := len(body.Messages); n > 0 {
		prompt = string(body.Messages[n-1].Content)
	}
	g.mu.Lock()
	g.inFlight++
	g.requests++
	if g.inFlight > 1 {
		g.overlapped = true
	}
	g.lastPrompts = append(g.lastPrompts, prompt)
	g.mu.Unlock()
	select {
	case <-g.release:
	case <-time.After(20 * time.Second):
	}
	g.mu.Lock()
	g.inFlight--
	g.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	io.WriteString(w, textReply("answer to "+prompt))
}

func TestTwoProcessesNeverInterleaveTurnsOfOneSession(t *testing.T) {
	u := pgtest.URL(t)
	isolateEnv(t)
	fakeAPI(t, textReply("created"))
	home, work := t.TempDir(), t.TempDir()
	base := []string{"--home", home, "--workdir", work, "--store", u}
	if r := runCLI(t, append(base, "run", "--session-id", "contended", "start")...); r.code != 0 {
		t.Fatalf("run: %d %s", r.code, r.stderr)
	}

	api := &gatedAPI{release: make(chan struct{})}
	srv := httptest.NewServer(api)
	defer srv.Close()
	t.Setenv("ANTHROPIC_BASE_URL", srv.URL)

	type outcome struct {
		prompt string
		code   int
		stderr string
	}
	results := make(chan outcome, 2)
	for _, prompt := range []string{"first host", "second host"} {
		args, _ := json.Marshal(append(base, "run", "--resume", "contended", prompt))
		cmd := exec.Command(os.Args[0], "-test.run=^TestCLIChildProcess$")
		cmd.Env = append(os.Environ(), childEnvCLI+"="+string(args))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() {
			err := cmd.Wait()
			code := cmd.ProcessState.ExitCode()
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				code = -1
			}
			results <- outcome{prompt, code, stderr.String()}
		}()
	}
	// The first process to end is the one that found the session busy;
	// the other's answer is then released.
	first := <-results
	close(api.release)
	second := <-results

	if api.overlapped {
		t.Error("two turns of one session were in flight at once")
	}
	if first.code != exitFailure || !strings.Contains(first.stderr, "busy") || !strings.Contains(first.stderr, "leased by") {
		t.Errorf("the process that lost: exit %d, stderr %q", first.code, first.stderr)
	}
	if second.code != 0 {
		t.Errorf("the process that won: exit %d, stderr %q", second.code, second.stderr)
	}
	if strings.Contains(first.stderr+second.stderr, "password") {
		t.Errorf("stderr mentions a password: %q", first.stderr)
	}

	// The log holds whole turns: each user prompt is followed by the
	// answer to it.
	st, err := postgres.Open(t.Context(), u, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, _ := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: work, Storage: storage.Options{Home: home}})
	cp, err := st.Checkpointer(t.Context(), storage.Encoding{ProjectID: p.Hash})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := cp.Read(t.Context(), "contended", 0)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, ev := range evs {
		kinds = append(kinds, ev.Event.EventType())
	}
	if fmt.Sprint(kinds) != "[user assistant user assistant]" {
		t.Fatalf("log %v", kinds)
	}
	prompt := evs[2].Event.(session.UserEvent).Message.PlainText()
	answer := evs[3].Event.(session.AssistantEvent).Message.PlainText()
	if prompt != second.prompt || !strings.Contains(answer, second.prompt) {
		t.Errorf("the turn of %q holds %q, %q", second.prompt, prompt, answer)
	}
}

func TestMigrateToStoreAndBackIsIdenticalRecordByRecord(t *testing.T) {
	u := pgtest.URL(t)
	isolateEnv(t)
	home, work := t.TempDir(), t.TempDir()
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: work, Storage: storage.Options{Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	enc := storage.Encoding{Codec: codec.Gzip(), Namespace: storage.DefaultNamespace, ProjectID: p.Hash}
	ctx := t.Context()
	cp, err := session.NewFileCheckpointer(p.SessionsDir, session.FileOptions{Encoding: enc})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"s1", "s2"} {
		if _, err := cp.Append(ctx, id, []session.Event{session.UserEvent{Message: model.UserText("hello " + id)}, session.UserEvent{Message: model.UserText("more")}}, session.AnyHead); err != nil {
			t.Fatal(err)
		}
	}
	ar, err := archive.NewFileArchive(storage.SessionContextDir(p.SessionsDir, "s1"), archive.Options{Encoding: enc, SessionID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ar.Put(ctx, strings.Repeat("archived ", 100), map[string]any{"tool": "bash"}); err != nil {
		t.Fatal(err)
	}
	ts, err := task.NewFileStore(p.TasksDir, "shared", enc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ts.Create(ctx, task.CreateInput{Subject: "shared work"}); err != nil {
		t.Fatal(err)
	}
	if err := ts.MarkShared(); err != nil {
		t.Fatal(err)
	}
	sp, err := spill.NewFileStore(p.SpillDir, enc)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := sp.Put(ctx, "spilled body")
	if err != nil {
		t.Fatal(err)
	}
	// The file stores lock a record with a directory beside it while they
	// read it, which touches the parent directory's time: files must not
	// change.
	files := func() []string {
		var out []string
		for _, e := range tree(t, home) {
			if !strings.Contains(e, " d") {
				out = append(out, e)
			}
		}
		return out
	}
	before := files()

	base := []string{"--home", home, "--workdir", work, "--codec", "gzip"}
	r := runCLI(t, append(base, "migrate", "--to-store", u, "--json")...)
	if r.code != 0 {
		t.Fatalf("migrate: %d %s", r.code, r.stderr)
	}
	var rep postgres.FilesReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep != (postgres.FilesReport{Sessions: 2, Records: 4, Archives: 1, TaskLists: 1, Tasks: 1, Spilled: 1, Verified: true}) {
		t.Errorf("report %+v %v", rep, err)
	}
	if after := files(); !slices.Equal(before, after) {
		t.Errorf("the source changed:\n%v\n%v", before, after)
	}
	// Into a project that is no longer empty: refused.
	if r := runCLI(t, append(base, "migrate", "--to-store", u)...); r.code != exitFailure || !strings.Contains(r.stderr, "not empty") {
		t.Errorf("second migrate: %d %s", r.code, r.stderr)
	}
	if r := runCLI(t, append(base, "migrate", "--to-store", u, "--to-home", t.TempDir())...); r.code != exitUsage {
		t.Errorf("--to-store with --to-home: %d %s", r.code, r.stderr)
	}

	// The agents' view through the database is the files'.
	st, err := postgres.Open(ctx, u, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	dcp, err := st.Checkpointer(ctx, enc)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"s1", "s2"} {
		a, _ := cp.Read(ctx, id, 0)
		b, err := dcp.Read(ctx, id, 0)
		if err != nil || len(a) != len(b) || len(a) != 2 {
			t.Errorf("session %s: %v", id, err)
		}
	}
	dar, err := st.Archive(ctx, enc, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if out, err := dar.Search(ctx, archive.Query{Text: "bash"}); err != nil || !strings.Contains(out, "archived") {
		t.Errorf("archive search %q %v", out, err)
	}
	dts, err := st.TaskList(ctx, enc, "shared")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := dts.List(ctx); err != nil || len(got) != 1 || got[0].Subject != "shared work" {
		t.Errorf("tasks %+v %v", got, err)
	}
	dsp, err := st.Spill(ctx, enc)
	if err != nil {
		t.Fatal(err)
	}
	if body, ok, err := dsp.Get(ctx, ref); err != nil || !ok || body != "spilled body" {
		t.Errorf("spill %q %v %v", body, ok, err)
	}
	// And back out into another home: the same files, byte for byte.
	home2 := t.TempDir()
	r = runCLI(t, "--workdir", work, "--codec", "gzip", "migrate", "--from-store", u, "--to-home", home2)
	if r.code != 0 || !strings.Contains(r.stdout, "verified") {
		t.Fatalf("migrate --from-store: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if a, b := fileContents(t, home), fileContents(t, home2); !maps.Equal(a, b) {
		t.Errorf("round trip differs:\n%v\n%v", a, b)
	}
	if r := runCLI(t, "--workdir", work, "--codec", "gzip", "migrate", "--from-store", u, "--to-home", home2); r.code != exitFailure || !strings.Contains(r.stderr, "not empty") {
		t.Errorf("--from-store into a project that is not empty: %d %s", r.code, r.stderr)
	}
	if r := runCLI(t, "--workdir", work, "migrate", "--from-store", u); r.code != exitUsage {
		t.Errorf("--from-store without --to-home: %d %s", r.code, r.stderr)
	}

	// The shared list survives deleting the session named like it.
	if err := st.DeleteSession(ctx, enc, "s1"); err != nil {
		t.Fatal(err)
	}
	if got, _ := dts.List(ctx); len(got) != 1 {
		t.Error("the shared list was deleted")
	}
}

// fileContents maps the path of every file under root to its content.
func fileContents(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(root, path)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
