package liteagent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
	"github.com/lite-agent/lite-agent-go/task"
)

// approveAll answers every approval request with allow.
func approveAll(context.Context, permission.ApprovalRequest) (permission.Decision, error) {
	return permission.Allow, nil
}

func call(id, name, input string) model.Block {
	return model.ToolCallBlock(id, name, json.RawMessage(input))
}

type fixture struct {
	workdir, home string
	p             *modeltest.Provider
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv(storage.HomeEnv, "")
	t.Setenv(liteagent.TaskListEnv, "")
	return &fixture{workdir: t.TempDir(), home: filepath.Join(t.TempDir(), "home"), p: modeltest.New()}
}

func (f *fixture) options(c storage.Codec) liteagent.Options {
	return liteagent.Options{
		Model:      f.p,
		ModelName:  "test-model",
		Workdir:    f.workdir,
		Storage:    storage.Options{Namespace: "acme", Home: f.home, Codec: c},
		OnApproval: approveAll,
	}
}

func (f *fixture) agent(t *testing.T, opts liteagent.Options) *liteagent.Agent {
	t.Helper()
	a, err := liteagent.New(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

func aeadCodec(t *testing.T, keyID string) storage.Codec {
	t.Helper()
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(i)
	}
	c, err := codec.NewAEAD(codec.AEADOptions{KeyID: keyID, Key: func(context.Context, string) ([]byte, error) { return key, nil }})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestWriteThenReadThroughTheAgent(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(nil))
	f.p.Reply(modeltest.ToolCalls(call("w", "write_file", `{"path":"notes/a.txt","content":"hello"}`)))
	f.p.Reply(modeltest.ToolCalls(call("r", "read_file", `{"path":"notes/a.txt"}`)))
	f.p.Reply(modeltest.Text("The file says hello."))
	res, err := a.Send(t.Context(), "write and read a file")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "The file says hello." || res.Turns != 3 {
		t.Errorf("result %+v", res)
	}
	if b, err := os.ReadFile(filepath.Join(f.workdir, "notes", "a.txt")); err != nil || string(b) != "hello" {
		t.Errorf("file: %q %v", b, err)
	}
	reqs := f.p.Requests()
	last := reqs[2].Messages[len(reqs[2].Messages)-1]
	if !strings.Contains(last.Blocks[0].Content, "hello") {
		t.Errorf("read result %+v", last)
	}
	// The log lives under the namespace's home, with a snapshot before the write's result.
	log := filepath.Join(a.Paths().SessionsDir, a.SessionID()+".jsonl")
	if !strings.HasPrefix(log, f.home) {
		t.Errorf("log at %s", log)
	}
	cp, _ := session.NewFileCheckpointer(a.Paths().SessionsDir, session.FileOptions{Encoding: storage.Encoding{Namespace: "acme", ProjectID: a.Paths().Hash}})
	evs, err := cp.Read(t.Context(), a.SessionID(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range evs {
		kinds = append(kinds, e.Event.EventType())
	}
	want := []string{"user", "assistant", "file_snapshot", "tool_result", "assistant", "tool_result", "assistant"}
	if !slices.Equal(kinds, want) {
		t.Errorf("log %v, want %v", kinds, want)
	}
}

func TestResumeFromAFreshAgent(t *testing.T) {
	for name, c := range map[string]func(t *testing.T) storage.Codec{
		"plaintext": func(*testing.T) storage.Codec { return nil },
		"aead":      func(t *testing.T) storage.Codec { return aeadCodec(t, "k1") },
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			a1 := f.agent(t, f.options(c(t)))
			f.p.Reply(modeltest.Text("first answer"))
			if _, err := a1.Send(t.Context(), "first"); err != nil {
				t.Fatal(err)
			}
			id := a1.SessionID()
			a1.Close()

			a2 := f.agent(t, f.options(c(t)))
			if err := a2.Resume(id); err != nil {
				t.Fatal(err)
			}
			f.p.Reply(modeltest.Text("second answer"))
			if _, err := a2.Send(t.Context(), "second"); err != nil {
				t.Fatal(err)
			}
			msgs := f.p.Requests()[1].Messages
			if len(msgs) != 3 || msgs[1].PlainText() != "first answer" {
				t.Errorf("history %+v", msgs)
			}
			raw, _ := os.ReadFile(filepath.Join(a2.Paths().SessionsDir, id+".jsonl"))
			if name == "aead" && strings.Contains(string(raw), "first answer") {
				t.Error("plaintext in an encrypted log")
			}
			sessions, err := a2.ListSessions(t.Context())
			if err != nil || len(sessions) != 1 || sessions[0].ID != id {
				t.Errorf("sessions %+v %v", sessions, err)
			}
		})
	}
}

func TestWrongKeyFailsWithoutTouchingTheLog(t *testing.T) {
	f := newFixture(t)
	a1 := f.agent(t, f.options(aeadCodec(t, "k1")))
	f.p.Reply(modeltest.Text("secret answer"))
	if _, err := a1.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(a1.Paths().SessionsDir, a1.SessionID()+".jsonl")
	before, _ := os.ReadFile(log)
	a2 := f.agent(t, f.options(aeadCodec(t, "k2")))
	a2.Resume(a1.SessionID())
	_, err := a2.Send(t.Context(), "second")
	var se *storage.Error
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "migration") {
		t.Errorf("err = %v", err)
	}
	if after, _ := os.ReadFile(log); string(after) != string(before) {
		t.Error("the log changed")
	}
}

func TestInvalidOptionsCreateNothing(t *testing.T) {
	f := newFixture(t)
	bad := []liteagent.Options{
		{ModelName: "m", Workdir: f.workdir, Storage: storage.Options{Home: f.home}},
		{Model: f.p, Workdir: f.workdir, Storage: storage.Options{Home: f.home}},
		{Model: f.p, ModelName: "m", Workdir: f.workdir, Storage: storage.Options{Home: f.home, Namespace: "Bad"}},
		{Model: f.p, ModelName: "m", Workdir: f.workdir, Storage: storage.Options{Home: f.home}, Home: "/elsewhere"},
		{Model: f.p, ModelName: "m", Workdir: f.workdir, Storage: storage.Options{Home: f.home, Codec: badCodec{}}},
		{Model: f.p, ModelName: "m", Workdir: f.workdir, Storage: storage.Options{Home: f.home}, TaskListID: "../x"},
		{Model: f.p, ModelName: "m", Workdir: filepath.Join(f.workdir, "missing"), Storage: storage.Options{Home: f.home}},
	}
	for i, opts := range bad {
		if _, err := liteagent.New(t.Context(), opts); err == nil {
			t.Errorf("options %d accepted", i)
		}
		if _, err := os.Stat(f.home); err == nil {
			t.Fatalf("options %d created the home", i)
		}
	}
}

type badCodec struct{}

func (badCodec) ID() string { return "not valid!" }
func (badCodec) Encode(context.Context, []byte, storage.Context) ([]byte, error) {
	return nil, nil
}
func (badCodec) Decode(context.Context, []byte, storage.Context) ([]byte, error) {
	return nil, nil
}

func TestLayoutIsFrozenAgainstLaterEnvironmentChanges(t *testing.T) {
	f := newFixture(t)
	first := filepath.Join(t.TempDir(), "first")
	t.Setenv(storage.HomeEnv, first)
	opts := f.options(nil)
	opts.Storage = storage.Options{} // default namespace: the env var applies
	a := f.agent(t, opts)
	t.Setenv(storage.HomeEnv, filepath.Join(t.TempDir(), "second"))
	opts.Workdir = t.TempDir()
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(t.Context(), "hi"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(a.Paths().SessionsDir, a.SessionID()+".jsonl")); err != nil || !strings.HasPrefix(a.Paths().SessionsDir, first) {
		t.Errorf("log not under the first home: %s %v", a.Paths().SessionsDir, err)
	}
}

// renamingCodec stores bytes unchanged under an id its host may change.
type renamingCodec struct{ id string }

func (c *renamingCodec) ID() string { return c.id }
func (c *renamingCodec) Encode(_ context.Context, p []byte, _ storage.Context) ([]byte, error) {
	return bytes.Clone(p), nil
}
func (c *renamingCodec) Decode(_ context.Context, p []byte, _ storage.Context) ([]byte, error) {
	return bytes.Clone(p), nil
}

// TestCodecIDIsFrozenAtNew changes the codec's id after New, as a host
// rotating a key in place would: the agent keeps writing the id it
// started with, so its log stays readable with that configuration and
// never mixes two ids.
func TestCodecIDIsFrozenAtNew(t *testing.T) {
	f := newFixture(t)
	c := &renamingCodec{id: "ident-v1"}
	a := f.agent(t, f.options(c))
	f.p.Reply(modeltest.Text("one"))
	if _, err := a.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	c.id = "ident-v2"
	f.p.Reply(modeltest.Text("two"))
	if _, err := a.Send(t.Context(), "second"); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(a.Paths().SessionsDir, a.SessionID()+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n, v2 := bytes.Count(raw, []byte(`"codec":"ident-v1"`)), bytes.Count(raw, []byte(`"codec":"ident-v2"`)); n != 4 || v2 != 0 {
		t.Fatalf("log holds %d records of ident-v1 and %d of ident-v2, want 4 and 0", n, v2)
	}
	b := f.agent(t, f.options(&renamingCodec{id: "ident-v1"}))
	if err := b.Resume(a.SessionID()); err != nil {
		t.Fatal(err)
	}
	f.p.Reply(modeltest.Text("three"))
	if _, err := b.Send(t.Context(), "third"); err != nil {
		t.Errorf("resuming with the first id: %v", err)
	}
}

func TestDeleteSessionThroughTheAgent(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(nil))
	big := strings.Repeat("line of a large file\n", 3000)
	if err := os.WriteFile(filepath.Join(f.workdir, "big.txt"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	f.p.Reply(modeltest.ToolCalls(
		call("t", "TaskCreate", `{"subject":"one","description":"d"}`),
		call("r", "read_file", `{"path":"big.txt"}`),
	))
	f.p.Reply(modeltest.Text("ok"))
	var sawTask bool
	for ev, err := range a.Run(t.Context(), "go") {
		if err != nil {
			t.Fatal(err)
		}
		sawTask = sawTask || ev.Type == engine.EventTaskUpdate
	}
	if !sawTask {
		t.Error("no task_update event")
	}
	reqs := f.p.Requests()
	results := reqs[1].Messages[len(reqs[1].Messages)-2].Blocks
	if !strings.HasPrefix(results[1].Content, "[tool result archived: ") {
		t.Errorf("large read not archived: %.80q", results[1].Content)
	}
	if !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Text, "#1 one") {
		t.Errorf("no task reminder in the request")
	}
	id := a.SessionID()
	p := a.Paths()
	for _, path := range []string{filepath.Join(p.SessionsDir, id+".jsonl"), filepath.Join(p.SessionsDir, id+".context"), filepath.Join(p.TasksDir, id)} {
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("missing before delete: %v", err)
		}
	}
	if err := a.DeleteSession(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(p.SessionsDir, id+".jsonl"), filepath.Join(p.SessionsDir, id+".context"), filepath.Join(p.TasksDir, id)} {
		if _, err := os.Stat(path); err == nil {
			t.Errorf("%s survived", path)
		}
	}
}

func TestSharedTaskListSurvivesDelete(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.TaskListID = "team"
	a := f.agent(t, opts)
	f.p.Reply(modeltest.ToolCalls(call("t", "TaskCreate", `{"subject":"shared","description":""}`)))
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteSession(t.Context(), a.SessionID()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(a.Paths().TasksDir, "team", "1.json")); err != nil {
		t.Errorf("shared list removed: %v", err)
	}
}

func TestSessionLogIsReadableOnlyWithoutACodec(t *testing.T) {
	for _, encoded := range []bool{false, true} {
		f := newFixture(t)
		var c storage.Codec
		if encoded {
			c = aeadCodec(t, "k1")
		}
		a := f.agent(t, f.options(c))
		log := filepath.Join(a.Paths().SessionsDir, a.SessionID()+".jsonl")
		other := filepath.Join(a.Paths().SessionsDir, "other.jsonl")
		os.MkdirAll(a.Paths().SessionsDir, 0o700)
		os.WriteFile(other, []byte("secret"), 0o600)
		f.p.Reply(modeltest.ToolCalls(call("r1", "read_file", `{"path":"`+log+`"}`), call("r2", "read_file", `{"path":"`+other+`"}`)))
		f.p.Reply(modeltest.Text("ok"))
		if _, err := a.Send(t.Context(), "read the logs"); err != nil {
			t.Fatal(err)
		}
		msgs := f.p.Requests()[1].Messages
		res := msgs[len(msgs)-1].Blocks
		if res[0].IsError == !encoded {
			t.Errorf("codec=%v: own log read result %+v", encoded, res[0])
		}
		if !res[1].IsError || strings.Contains(res[1].Content, "secret") {
			t.Errorf("codec=%v: another session's log was readable: %+v", encoded, res[1])
		}
	}
}

func TestSessionManagementNeedsPersistence(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.DisableSessions = true
	a := f.agent(t, opts)
	if _, err := a.ListSessions(t.Context()); !errors.Is(err, liteagent.ErrNoSessions) {
		t.Errorf("ListSessions: %v", err)
	}
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(t.Context(), "hi"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(a.Paths().SessionsDir)); err == nil {
		t.Error("memory sessions wrote to the data home")
	}
}

func TestClosedAgentRefusesPrompts(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(nil))
	a.Close()
	if _, err := a.Send(t.Context(), "hi"); !errors.Is(err, liteagent.ErrClosed) {
		t.Errorf("err = %v", err)
	}
}

func TestClearStartsANewSession(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, f.options(nil))
	first := a.SessionID()
	a.Clear()
	if a.SessionID() == first || storage.ValidateID(a.SessionID()) != nil || len(a.SessionID()) != 36 {
		t.Errorf("ids %s %s", first, a.SessionID())
	}
	if err := a.Resume("../etc"); err == nil {
		t.Error("invalid id accepted")
	}
}

func TestQueryRunsOnePrompt(t *testing.T) {
	f := newFixture(t)
	f.p.Reply(modeltest.Text("42"))
	res, err := liteagent.Query(t.Context(), liteagent.QueryOptions{Options: f.options(nil), Prompt: "answer?"})
	if err != nil || res.Text != "42" {
		t.Errorf("%+v %v", res, err)
	}
}

// TestFileStoresCheckTheirEncoding builds each built-in file store
// directly, as the spec allows, with an invalid namespace or codec: each
// refuses with a *storage.Error and creates nothing.
func TestFileStoresCheckTheirEncoding(t *testing.T) {
	stores := map[string]func(dir string, enc storage.Encoding) error{
		"session": func(dir string, enc storage.Encoding) error {
			_, err := session.NewFileCheckpointer(dir, session.FileOptions{Encoding: enc})
			return err
		},
		"task": func(dir string, enc storage.Encoding) error {
			_, err := task.NewFileStore(dir, "list", enc)
			return err
		},
		"archive": func(dir string, enc storage.Encoding) error {
			_, err := archive.NewFileArchive(dir, archive.Options{Encoding: enc})
			return err
		},
		"spill": func(dir string, enc storage.Encoding) error {
			_, err := spill.NewFileStore(dir, enc)
			return err
		},
	}
	for name, open := range stores {
		for what, enc := range map[string]storage.Encoding{
			"namespace": {Namespace: "../Not A Namespace"},
			"codec":     {Codec: &renamingCodec{id: "no spaces allowed"}},
		} {
			t.Run(name+"/"+what, func(t *testing.T) {
				dir := filepath.Join(t.TempDir(), "store")
				var se *storage.Error
				if err := open(dir, enc); !errors.As(err, &se) {
					t.Fatalf("error %v, want a *storage.Error", err)
				}
				if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("the store's directory was created: %v", err)
				}
			})
		}
	}
}

// TestUnreadableTaskListStopsTheTurn gives an agent without a codec a
// shared task list written with gzip: the turn fails with the store's
// *storage.Error before the model is asked, instead of showing the model
// an empty list, and the list is left as it was.
func TestUnreadableTaskListStopsTheTurn(t *testing.T) {
	f := newFixture(t)
	opts := f.options(codec.Gzip())
	opts.TaskListID = "team"
	a := f.agent(t, opts)
	store, err := task.NewFileStore(a.Paths().TasksDir, "team", storage.Encoding{Codec: codec.Gzip(), Namespace: "acme", ProjectID: a.Paths().Hash})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Create(t.Context(), task.CreateInput{Subject: "ship it"}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(a.Paths().TasksDir, "team", "1.json")
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	plain := f.options(nil)
	plain.TaskListID = "team"
	b := f.agent(t, plain)
	f.p.Reply(modeltest.Text("ok"))
	_, err = b.Send(t.Context(), "hi")
	var se *storage.Error
	if !errors.As(err, &se) {
		t.Fatalf("Send error %v, want a *storage.Error", err)
	}
	if n := len(f.p.Requests()); n != 0 {
		t.Errorf("the model was asked %d times", n)
	}
	if after, _ := os.ReadFile(file); !bytes.Equal(before, after) {
		t.Error("the task record changed")
	}
}

// TestAnUnfinishedMigrationIsNotUsed puts the marker of an unfinished
// migration in the data home, then in the project directory: New refuses
// both with a *storage.Error naming the marker, and creates nothing.
func TestAnUnfinishedMigrationIsNotUsed(t *testing.T) {
	for _, where := range []string{"home", "project"} {
		t.Run(where, func(t *testing.T) {
			f := newFixture(t)
			p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: f.workdir, Storage: storage.Options{Namespace: "acme", Home: f.home}})
			if err != nil {
				t.Fatal(err)
			}
			dir := p.Home
			if where == "project" {
				dir = p.ProjectDir()
			}
			marker := filepath.Join(dir, migrate.MarkerName)
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(marker, []byte("{}"), 0o600); err != nil {
				t.Fatal(err)
			}
			before := fileList(t, f.home)
			_, err = liteagent.New(t.Context(), f.options(nil))
			var se *storage.Error
			if !errors.As(err, &se) || se.File != marker || !strings.Contains(se.Message, "did not finish") {
				t.Fatalf("New: %v, want a *storage.Error naming %s", err, marker)
			}
			if after := fileList(t, f.home); !slices.Equal(after, before) {
				t.Errorf("New changed the home: %v, was %v", after, before)
			}
			if err := os.Remove(marker); err != nil {
				t.Fatal(err)
			}
			f.agent(t, f.options(nil))
		})
	}
}

// fileList lists every path under root.
func fileList(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		out = append(out, path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
