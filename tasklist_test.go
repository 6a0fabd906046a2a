package liteagent_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestAnAgentResumesAReferenceSessionWithA200CharacterID writes by hand,
// as the TypeScript SDK lays them out, a session with a 200-character id,
// its archive and its private task list, and checks that an agent lists,
// resumes, rewinds, reads the tasks of and runs a turn on it: neither the
// spec nor the reference limits ids to fewer characters.
func TestAnAgentResumesAReferenceSessionWithA200CharacterID(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.Storage.Namespace = ""
	a := f.agent(t, opts)
	p := a.Paths()
	id := strings.Repeat("ab-_9", 40)
	files := map[string]string{
		filepath.Join(p.SessionsDir, id+".jsonl"): `{"seq":1,"sessionId":"` + id + `","parentSeq":null,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"long one"}}}` + "\n" +
			`{"seq":2,"sessionId":"` + id + `","parentSeq":1,"ts":"2026-07-22T12:00:01.000Z","event":{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"hello"}]}}}` + "\n",
		filepath.Join(p.TasksDir, id, "1.json"): "{\n  \"id\": \"1\",\n  \"subject\": \"Long work\",\n  \"description\": \"\",\n  \"status\": \"pending\",\n  \"blockedBy\": [],\n  \"blocks\": [],\n  \"createdAt\": 1753185600000,\n  \"updatedAt\": 1753185600000\n}",
	}
	for path, content := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ctx := t.Context()
	if infos, err := a.ListSessions(ctx); err != nil || len(infos) != 1 || infos[0].ID != id {
		t.Errorf("ListSessions = %v, %v", infos, err)
	}
	if err := a.ResumeStored(ctx, id); err != nil {
		t.Fatalf("ResumeStored: %v", err)
	}
	if cps, err := a.Checkpoints(ctx, id); err != nil || len(cps) != 1 {
		t.Errorf("Checkpoints = %v, %v", cps, err)
	}
	if tasks, err := a.TaskList(ctx, ""); err != nil || len(tasks) != 1 || tasks[0].Subject != "Long work" {
		t.Errorf("TaskList = %v, %v", tasks, err)
	}
	f.p.Reply(modeltest.Text("resumed"))
	if res, err := a.Send(ctx, "go on"); err != nil || res.Text != "resumed" {
		t.Fatalf("Send on the resumed session: %v, %v", res, err)
	}
}

// TestTaskListReadsThroughTheAgentsBackend checks that Agent.TaskList
// reads the list the agent's task tools wrote, whatever keeps it (the
// data home with a codec, a Store, memory), that a session's list nobody
// wrote is empty and that reading it creates nothing, and that an id the
// agent refuses is a *storage.Error.
func TestTaskListReadsThroughTheAgentsBackend(t *testing.T) {
	for name, edit := range map[string]func(*liteagent.Options){
		"encrypted files": func(o *liteagent.Options) { o.Storage.Codec = aeadCodec(t, "k1") },
		"Store":           func(o *liteagent.Options) { o.Store = newElsewhere(t) },
		"memory":          func(o *liteagent.Options) { o.DisableSessions = true },
		"shared list":     func(o *liteagent.Options) { o.TaskListID = "team" },
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			opts := f.options(nil)
			edit(&opts)
			a := f.agent(t, opts)
			ctx := t.Context()
			f.p.Reply(
				modeltest.ToolCalls(model.ToolCallBlock("t1", "TaskCreate", json.RawMessage(`{"subject":"Reproduce","description":"d"}`))),
				modeltest.Text("planned"),
			)
			if _, err := a.Send(ctx, "plan"); err != nil {
				t.Fatal(err)
			}
			tasks, err := a.TaskList(ctx, "")
			if err != nil || len(tasks) != 1 || tasks[0].Subject != "Reproduce" {
				t.Fatalf("TaskList of the current session = %+v, %v", tasks, err)
			}
			if again, err := a.TaskList(ctx, a.SessionID()); err != nil || len(again) != 1 {
				t.Errorf("TaskList by id = %+v, %v", again, err)
			}
			before := dirEntries(t, a.Paths().TasksDir)
			other, err := a.TaskList(ctx, "never-used")
			if opts.TaskListID != "" {
				// Every session of the agent uses the shared list.
				if err != nil || len(other) != 1 {
					t.Errorf("TaskList of another session with a shared list = %+v, %v", other, err)
				}
			} else if err != nil || len(other) != 0 {
				t.Errorf("TaskList of a session nobody wrote = %+v, %v", other, err)
			}
			if after := dirEntries(t, a.Paths().TasksDir); after != before {
				t.Errorf("reading a list changed the tasks directory from %q to %q", before, after)
			}
			if !opts.DisableSessions {
				var se *storage.Error
				if _, err := a.TaskList(ctx, "a/b"); !errors.As(err, &se) {
					t.Errorf("TaskList of an invalid id = %v (%T), want a *storage.Error", err, err)
				}
			}
		})
	}
}

// dirEntries returns the names in dir, one a line ("" for none or no dir).
func dirEntries(t *testing.T, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return strings.Join(names, "\n")
}
